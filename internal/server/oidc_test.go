package server_test

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/oauth2-proxy/mockoidc"

	"github.com/rootline-dev/rootline/internal/oidc"
	"github.com/rootline-dev/rootline/internal/server"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestOIDCSignIn: a person signs in through an OpenID Connect provider (mockoidc, on
// loopback) and gets a session with the configured scope; someone the allow list does not
// name is refused, and so is a callback without the sign-in's cookie.
func TestOIDCSignIn(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		m, err := mockoidc.Run()
		if err != nil {
			t.Fatalf("start mockoidc: %v", err)
		}
		t.Cleanup(func() { _ = m.Shutdown() })

		var h http.Handler
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
		t.Cleanup(ts.Close)
		p, err := oidc.NewLazy(oidc.Config{Issuer: m.Issuer(), ClientID: m.ClientID, ClientSecret: m.ClientSecret,
			RedirectURL: ts.URL + "/login/oidc/callback", AllowedDomains: []string{"example.com"}})
		if err != nil {
			t.Fatal(err)
		}
		cfg := testConfig()
		cfg.Auth, cfg.OIDC.Scope = "on", "read"
		deps := server.StoreDeps(st, slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn})))
		deps.OIDC = p
		srv := server.New(cfg, deps)
		closeServer(t, srv)
		h = srv.Handler()

		// provider plays the provider's part: the person is known and consents.
		provider := func(to string) string {
			t.Helper()
			client := &http.Client{Timeout: 5 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			resp, err := client.Get(to)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body) // its status and Location are what is checked
			resp.Body.Close()
			back, err := url.Parse(resp.Header.Get("Location"))
			if err != nil || resp.StatusCode != http.StatusFound || !strings.HasPrefix(back.String(), ts.URL+"/login/oidc/callback?") {
				t.Fatalf("the provider answered %d to %q", resp.StatusCode, resp.Header.Get("Location"))
			}
			return back.RequestURI()
		}

		b := newBrowser(t, ts.URL)
		if !strings.Contains(b.do("GET", "/login?next=/upload", "", nil).body, `data-testid="oidc-login"`) {
			t.Fatal("the sign-in page does not offer the provider")
		}
		m.QueueUser(&mockoidc.MockUser{Subject: "s-alice", Email: "Alice@example.com", EmailVerified: true})
		a := b.do("GET", "/login/oidc?next=%2Fupload", "", nil)
		if a.status != http.StatusSeeOther || !strings.HasPrefix(a.location, m.Issuer()) {
			t.Fatalf("start: %d to %q", a.status, a.location)
		}
		if _, ok := b.cookies["__Host-rootline_oidc"]; !ok {
			t.Fatalf("no sign-in cookie: %v", b.cookies)
		}
		callback := provider(a.location)
		a = b.do("GET", callback, "", nil)
		if a.status != http.StatusSeeOther || a.location != "/upload" {
			t.Fatalf("callback: %d to %q\n%s", a.status, a.location, a.body)
		}
		if _, ok := b.cookies["__Host-rootline_oidc"]; ok {
			t.Error("the sign-in cookie outlived the callback")
		}
		if page := b.do("GET", "/", "", nil); page.status != 200 || !strings.Contains(page.body, `data-testid="signed-in-as">oidc:alice@example.com<`) {
			t.Errorf("after signing in: %d\n%s", page.status, page.body)
		}
		// The configured scope is read.
		token := b.token("/upload")
		if a := b.form("/incidents", url.Values{"title": {"t"}, "csrf": {token}}); a.status != http.StatusForbidden || !strings.Contains(a.body, "may only read") {
			t.Errorf("a reader signed in through the provider wrote: %d %s", a.status, a.body)
		}
		// The same callback again (a replay) starts nothing.
		if a := newBrowser(t, ts.URL).do("GET", callback, "", nil); a.status != http.StatusUnauthorized || !strings.Contains(a.body, "expired") {
			t.Errorf("a replayed callback without the cookie: %d\n%s", a.status, a.body)
		}

		// Someone from another domain.
		m.QueueUser(&mockoidc.MockUser{Subject: "s-mallory", Email: "mallory@other.example", EmailVerified: true})
		c := newBrowser(t, ts.URL)
		a = c.do("GET", "/login/oidc", "", nil)
		a = c.do("GET", provider(a.location), "", nil)
		if a.status != http.StatusForbidden || !strings.Contains(a.body, "mallory@other.example is not allowed") {
			t.Errorf("another domain: %d\n%s", a.status, a.body)
		}
		if _, ok := c.cookies["__Host-rootline_session"]; ok {
			t.Error("a refused person got a session")
		}
	})
}

// TestOIDCProviderDown: with an OpenID Connect provider that cannot be reached, the server
// works (its API with a token, its sign-in page), and sign-in through the provider answers 503
// with a sentence for the person, instead of the server not starting.
func TestOIDCProviderDown(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		down := "http://" + ln.Addr().String() + "/oidc"
		_ = ln.Close() // nothing listens: connection refused
		p, err := oidc.NewLazy(oidc.Config{Issuer: down, ClientID: "rootline", ClientSecret: "s3cret",
			RedirectURL: "http://rootline.test/login/oidc/callback", AllowedDomains: []string{"example.com"}})
		if err != nil {
			t.Fatal(err)
		}
		cfg := testConfig()
		cfg.Auth, cfg.APIToken = "on", "0123456789abcdef-token"
		base, _ := newServerWith(t, st, cfg, func(d *server.Deps) { d.OIDC = p })
		if status, b := call(t, "POST", base+"/api/v1/incidents", "application/json", strings.NewReader(`{"id": "up", "title": "x"}`),
			"Authorization", "Bearer "+cfg.APIToken); status != http.StatusCreated {
			t.Errorf("the API with a token: %d %s", status, b)
		}
		if status, b := call(t, "GET", base+"/login", "", nil); status != http.StatusOK || !strings.Contains(string(b), `data-testid="oidc-login"`) {
			t.Errorf("the sign-in page: %d", status)
		}
		status, b := call(t, "GET", base+"/login/oidc?next=/upload", "", nil)
		if status != http.StatusServiceUnavailable || !strings.Contains(string(b), "cannot be reached just now") {
			t.Errorf("sign-in through the provider: %d %.300s, want 503 saying it cannot be reached", status, b)
		}
	})
}
