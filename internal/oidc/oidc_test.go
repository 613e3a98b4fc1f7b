package oidc_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/go-cmp/cmp"
	"github.com/oauth2-proxy/mockoidc"
	"golang.org/x/oauth2"

	"github.com/rootline-dev/rootline/internal/oidc"
)

const redirectURL = "http://rootline.test/login/oidc/callback"

// newMock starts a mock provider on 127.0.0.1 that hands out the given user.
func newMock(t *testing.T, user mockoidc.User) *mockoidc.MockOIDC {
	t.Helper()
	m, err := mockoidc.Run()
	if err != nil {
		t.Fatalf("start mockoidc: %v", err)
	}
	t.Cleanup(func() { _ = m.Shutdown() })
	if user != nil {
		m.QueueUser(user)
	}
	return m
}

func newProvider(t *testing.T, m *mockoidc.MockOIDC, allow func(*oidc.Config)) *oidc.Provider {
	t.Helper()
	cfg := oidc.Config{
		Issuer:       m.Issuer(),
		ClientID:     m.ClientID,
		ClientSecret: m.ClientSecret,
		RedirectURL:  redirectURL,
	}
	allow(&cfg)
	p, err := oidc.New(t.Context(), cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return p
}

// authorize plays the browser: it follows the authorization URL and returns the query
// of the redirect back to Rootline, without following it.
func authorize(t *testing.T, authURL string) url.Values {
	t.Helper()
	client := &http.Client{
		Timeout:       5 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	resp, err := client.Get(authURL)
	if err != nil {
		t.Fatalf("GET authorize: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("authorize: status %d, want 302", resp.StatusCode)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		t.Fatalf("authorize: Location: %v", err)
	}
	if got := loc.Scheme + "://" + loc.Host + loc.Path; got != redirectURL {
		t.Fatalf("authorize redirected to %s, want %s", got, redirectURL)
	}
	return loc.Query()
}

func user(email string, verified bool) *mockoidc.MockUser {
	return &mockoidc.MockUser{Subject: "sub-" + email, Email: email, EmailVerified: verified, PreferredUsername: "jane"}
}

func emails(e ...string) func(*oidc.Config) {
	return func(c *oidc.Config) { c.AllowedEmails = e }
}

func domains(d ...string) func(*oidc.Config) {
	return func(c *oidc.Config) { c.AllowedDomains = d }
}

func TestRoundTrip(t *testing.T) {
	m := newMock(t, user("Alice@Example.com", true))
	p := newProvider(t, m, emails("alice@example.COM"))

	authURL, pending := p.Start()
	u, err := url.Parse(authURL)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	for k, want := range map[string]string{
		"state":                 pending.State,
		"nonce":                 pending.Nonce,
		"code_challenge":        oauth2.S256ChallengeFromVerifier(pending.Verifier),
		"code_challenge_method": "S256",
		"scope":                 "openid email profile",
		"redirect_uri":          redirectURL,
		"client_id":             m.ClientID,
	} {
		if got := q.Get(k); got != want || want == "" {
			t.Errorf("authorization URL: %s=%q, want %q", k, got, want)
		}
	}

	id, err := p.Finish(t.Context(), pending, authorize(t, authURL))
	if err != nil {
		t.Fatalf("Finish: %v", err)
	}
	want := oidc.Identity{Subject: "sub-Alice@Example.com", Email: "alice@example.com", Name: "oidc:alice@example.com"}
	if diff := cmp.Diff(want, id); diff != "" {
		t.Errorf("Finish identity (-want +got):\n%s", diff)
	}
}

func TestStartIsRandom(t *testing.T) {
	p := newProvider(t, newMock(t, nil), domains("example.com"))
	_, a := p.Start()
	_, b := p.Start()
	if a.State == b.State || a.Nonce == b.Nonce || a.Verifier == b.Verifier || a.State == a.Nonce {
		t.Errorf("Start repeated a value: %+v and %+v", a, b)
	}
}

func TestFinish(t *testing.T) {
	tests := []struct {
		name    string
		user    mockoidc.User
		allow   func(*oidc.Config)
		before  func(*mockoidc.MockOIDC) // before the browser visits the provider
		tamper  func(p *oidc.Pending, q url.Values)
		want    oidc.Identity
		wantErr error
		wantMsg string
	}{
		{
			name:  "domain allowed",
			user:  user("bob@example.com", true),
			allow: domains("@Example.com"),
			want:  oidc.Identity{Subject: "sub-bob@example.com", Email: "bob@example.com", Name: "oidc:bob@example.com"},
		},
		{
			name:  "email_verified sent as a string",
			user:  stringVerifiedUser{user("bob@example.com", false)},
			allow: domains("example.com"),
			want:  oidc.Identity{Subject: "sub-bob@example.com", Email: "bob@example.com", Name: "oidc:bob@example.com"},
		},
		{
			name:    "state mismatch",
			user:    user("alice@example.com", true),
			allow:   emails("alice@example.com"),
			tamper:  func(_ *oidc.Pending, q url.Values) { q.Set("state", "from-another-tab") },
			wantErr: oidc.ErrState,
			wantMsg: "The sign-in expired or was started in another tab. Please try again.",
		},
		{
			name:    "cookie gone",
			user:    user("alice@example.com", true),
			allow:   emails("alice@example.com"),
			tamper:  func(p *oidc.Pending, _ url.Values) { *p = oidc.Pending{} },
			wantErr: oidc.ErrState,
		},
		{
			name:  "provider error",
			user:  user("alice@example.com", true),
			allow: emails("alice@example.com"),
			tamper: func(p *oidc.Pending, q url.Values) {
				q.Del("code")
				q.Set("error", "access_denied")
				q.Set("error_description", "The user cancelled")
			},
			wantErr: oidc.ErrProvider,
			wantMsg: "The identity provider refused the sign-in (access_denied: The user cancelled).",
		},
		{
			name:    "PKCE verifier wrong",
			user:    user("alice@example.com", true),
			allow:   emails("alice@example.com"),
			tamper:  func(p *oidc.Pending, _ url.Values) { p.Verifier = oauth2.GenerateVerifier() },
			wantErr: oidc.ErrExchange,
			wantMsg: "The identity provider did not accept the sign-in. Please try again.",
		},
		{
			name:    "code unknown",
			user:    user("alice@example.com", true),
			allow:   emails("alice@example.com"),
			tamper:  func(_ *oidc.Pending, q url.Values) { q.Set("code", "forged") },
			wantErr: oidc.ErrExchange,
		},
		{
			// mockoidc puts the nonce from the authorization request into the ID token,
			// so a different nonce in the cookie stands for a replayed token.
			name:    "wrong nonce",
			user:    user("alice@example.com", true),
			allow:   emails("alice@example.com"),
			tamper:  func(p *oidc.Pending, _ url.Values) { p.Nonce = "another-nonce" },
			wantErr: oidc.ErrVerify,
			wantMsg: "The identity provider's answer could not be verified. Please try again.",
		},
		{
			name:    "expired ID token",
			user:    user("alice@example.com", true),
			allow:   emails("alice@example.com"),
			before:  func(m *mockoidc.MockOIDC) { m.FastForward(-time.Hour) },
			wantErr: oidc.ErrVerify,
		},
		{
			name:    "email not allowed",
			user:    user("alice@other.com", true),
			allow:   emails("alice@example.com"),
			wantErr: oidc.ErrNotAllowed,
			wantMsg: "alice@other.com is not allowed to sign in.",
		},
		{
			name:    "subdomain is not the domain",
			user:    user("bob@eu.example.com", true),
			allow:   domains("example.com"),
			wantErr: oidc.ErrNotAllowed,
		},
		{
			name:    "domain needs a verified address",
			user:    user("bob@example.com", false),
			allow:   domains("example.com"),
			wantErr: oidc.ErrNotAllowed,
			wantMsg: "bob@example.com is not allowed to sign in.",
		},
		{
			name:    "exact email needs a verified address too",
			user:    user("alice@example.com", false),
			allow:   emails("alice@example.com"),
			wantErr: oidc.ErrNotAllowed,
		},
		{
			name:    "no email",
			user:    user("", true),
			allow:   domains("example.com"),
			wantErr: oidc.ErrNotAllowed,
			wantMsg: "jane is not allowed to sign in.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMock(t, tt.user)
			p := newProvider(t, m, tt.allow)
			if tt.before != nil {
				tt.before(m)
			}
			authURL, pending := p.Start()
			q := authorize(t, authURL)
			if tt.tamper != nil {
				tt.tamper(&pending, q)
			}
			id, err := p.Finish(t.Context(), pending, q)
			t.Logf("Finish error: %v", err)
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("Finish error = %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, id); diff != "" {
				t.Errorf("Finish identity (-want +got):\n%s", diff)
			}
			if tt.wantMsg != "" {
				if got := oidc.Message(err); got != tt.wantMsg {
					t.Errorf("Message = %q, want %q", got, tt.wantMsg)
				}
			}
			if err != nil && !strings.HasPrefix(err.Error(), "oidc: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
		})
	}
}

func TestFinishCodeOnlyOnce(t *testing.T) {
	p := newProvider(t, newMock(t, user("alice@example.com", true)), emails("alice@example.com"))
	authURL, pending := p.Start()
	q := authorize(t, authURL)
	if _, err := p.Finish(t.Context(), pending, q); err != nil {
		t.Fatalf("first Finish: %v", err)
	}
	if _, err := p.Finish(t.Context(), pending, q); !errors.Is(err, oidc.ErrExchange) {
		t.Errorf("second Finish with the same code: %v, want ErrExchange", err)
	}
}

func TestNew(t *testing.T) {
	m := newMock(t, nil)
	unreachable := closedAddr(t)
	good := oidc.Config{
		Issuer:        m.Issuer(),
		ClientID:      m.ClientID,
		ClientSecret:  m.ClientSecret,
		RedirectURL:   redirectURL,
		AllowedEmails: []string{"alice@example.com"},
	}
	tests := []struct {
		name    string
		change  func(*oidc.Config)
		wantErr error    // matched with errors.Is, if set
		want    []string // substrings of the error
	}{
		{
			name: "empty allow lists refused",
			change: func(c *oidc.Config) {
				c.AllowedEmails = nil
				c.AllowedDomains = []string{" "}
			},
			wantErr: oidc.ErrNoAllowList,
			want:    []string{"ROOTLINE_OIDC_ALLOWED_EMAILS", "ROOTLINE_OIDC_ALLOWED_DOMAINS"},
		},
		{
			name:   "allowed email without domain",
			change: func(c *oidc.Config) { c.AllowedEmails = []string{"alice"} },
			want:   []string{`"alice"`},
		},
		{
			name:   "allowed domain that is a URL",
			change: func(c *oidc.Config) { c.AllowedDomains = []string{"https://example.com"} },
			want:   []string{"https://example.com"},
		},
		{
			name:   "no client secret",
			change: func(c *oidc.Config) { c.ClientSecret = "" },
			want:   []string{"client secret"},
		},
		{
			name:   "relative redirect URL",
			change: func(c *oidc.Config) { c.RedirectURL = "/login/oidc/callback" },
			want:   []string{"redirect URL", "/login/oidc/callback"},
		},
		{
			name:   "issuer unreachable",
			change: func(c *oidc.Config) { c.Issuer = unreachable },
			want:   []string{"discover issuer " + unreachable, "connection refused"},
		},
		{
			name:   "issuer without discovery",
			change: func(c *oidc.Config) { c.Issuer = m.Issuer() + "/nowhere" },
			want:   []string{"discover issuer " + m.Issuer() + "/nowhere", "404"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := good
			tt.change(&cfg)
			p, err := oidc.New(t.Context(), cfg)
			if err == nil {
				t.Fatalf("New succeeded (%v), want an error", p)
			}
			t.Logf("New error: %v", err)
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("New error = %v, want %v", err, tt.wantErr)
			}
			for _, s := range tt.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("New error %q does not mention %q", err, s)
				}
			}
		})
	}
}

func TestNewHonoursContext(t *testing.T) {
	m := newMock(t, nil)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := oidc.New(ctx, oidc.Config{
		Issuer: m.Issuer(), ClientID: m.ClientID, ClientSecret: m.ClientSecret,
		RedirectURL: redirectURL, AllowedDomains: []string{"example.com"},
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("New with a cancelled context: %v, want context.Canceled", err)
	}
}

func TestMessage(t *testing.T) {
	if got := oidc.Message(nil); got != "" {
		t.Errorf("Message(nil) = %q, want empty", got)
	}
	if got := oidc.Message(errors.New("boom")); got != "Sign-in failed. Please try again." {
		t.Errorf("Message(other error) = %q", got)
	}
}

// closedAddr returns the URL of a local port that nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}

// stringVerifiedUser sends email_verified as the string "true", as some providers do.
type stringVerifiedUser struct{ *mockoidc.MockUser }

func (u stringVerifiedUser) Claims(_ []string, base *mockoidc.IDTokenClaims) (jwt.Claims, error) {
	return struct {
		*mockoidc.IDTokenClaims
		Email         string `json:"email"`
		EmailVerified string `json:"email_verified"`
	}{base, u.Email, "true"}, nil
}
