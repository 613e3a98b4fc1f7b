package server_test

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/access"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// browserClient sends requests the way a browser does: it keeps the cookies the server sets
// and does not follow redirects, so that tests see them.
type browserClient struct {
	t       *testing.T
	base    string
	cookies map[string]string
}

func newBrowser(t *testing.T, base string) *browserClient {
	return &browserClient{t: t, base: base, cookies: map[string]string{}}
}

type answer struct {
	status   int
	location string
	body     string
	cookies  []*http.Cookie
}

func (b *browserClient) do(method, path, contentType string, body io.Reader, header ...string) answer {
	b.t.Helper()
	req, err := http.NewRequest(method, b.base+path, body)
	if err != nil {
		b.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	for k, v := range b.cookies {
		req.AddCookie(&http.Cookie{Name: k, Value: v})
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	all, _ := io.ReadAll(resp.Body)
	for _, c := range resp.Cookies() {
		if c.MaxAge < 0 || c.Value == "" {
			delete(b.cookies, c.Name)
		} else {
			b.cookies[c.Name] = c.Value
		}
	}
	return answer{status: resp.StatusCode, location: resp.Header.Get("Location"), body: string(all), cookies: resp.Cookies()}
}

// token reads the form token of a page.
func (b *browserClient) token(path string) string {
	b.t.Helper()
	a := b.do("GET", path, "", nil)
	m := csrfInPage.FindStringSubmatch(a.body)
	if m == nil {
		b.t.Fatalf("GET %s: %d, no form token in:\n%s", path, a.status, a.body)
	}
	return m[1]
}

func (b *browserClient) form(path string, v url.Values) answer {
	b.t.Helper()
	return b.do("POST", path, "application/x-www-form-urlencoded", strings.NewReader(v.Encode()))
}

// signIn signs a person in through the sign-in page and returns the form token of their
// session.
func (b *browserClient) signIn(name, password string) string {
	b.t.Helper()
	a := b.form("/login", url.Values{"csrf": {b.token("/login")}, "name": {name}, "password": {password}, "next": {"/upload"}})
	if a.status != http.StatusSeeOther || a.location != "/upload" {
		b.t.Fatalf("sign in as %s: %d to %q\n%s", name, a.status, a.location, a.body)
	}
	return b.token("/upload")
}

var csrfInPage = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// formToken gets a form token the way a browser does, from a page and with its cookie, and
// returns it with the header pair a form post sent by call must carry.
func formToken(t *testing.T, base string) (string, []string) {
	t.Helper()
	b := newBrowser(t, base)
	token := b.token("/upload")
	var pairs []string
	for k, v := range b.cookies {
		pairs = append(pairs, k+"="+v)
	}
	return token, []string{"Cookie", strings.Join(pairs, "; ")}
}

const testPassword = "a long enough password"

// TestSignIn: people sign in to the pages with a name and a password; the session's cookie is
// HttpOnly, Secure and SameSite, and a new one on every sign-in; every form needs the form
// token of the session; a reader cannot write; after signing out the cookie opens nothing.
func TestSignIn(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		ctx := t.Context()
		cfg := testConfig()
		cfg.Auth = "on"
		base := newServer(t, st, cfg)
		for name, scope := range map[string]access.Scope{"wanda": access.Write, "rita": access.Read} {
			if _, err := st.CreateAccount(ctx, name, scope, testPassword); err != nil {
				t.Fatal(err)
			}
		}

		// Not signed in: a page sends the browser to sign in, and back afterwards.
		anon := newBrowser(t, base)
		if a := anon.do("GET", "/incidents/x?tab=notes", "", nil); a.status != http.StatusSeeOther || a.location != "/login?next=%2Fincidents%2Fx%3Ftab%3Dnotes" {
			t.Errorf("a page before signing in: %d to %q", a.status, a.location)
		}

		w := newBrowser(t, base)
		a := w.form("/login", url.Values{"csrf": {w.token("/login")}, "name": {"wanda"}, "password": {testPassword}, "next": {"/incidents/x?tab=notes"}})
		if a.status != http.StatusSeeOther || a.location != "/incidents/x?tab=notes" {
			t.Fatalf("sign in: %d to %q\n%s", a.status, a.location, a.body)
		}
		var sess *http.Cookie
		for _, c := range a.cookies {
			if c.Name == "__Host-rootline_session" {
				sess = c
			}
		}
		if sess == nil || !sess.HttpOnly || !sess.Secure || sess.SameSite != http.SameSiteLaxMode || sess.Path != "/" || sess.MaxAge <= 0 {
			t.Fatalf("session cookie %+v, want HttpOnly, Secure, SameSite=Lax, Path=/", sess)
		}
		if got, err := st.SessionFor(ctx, sess.Value); err != nil || got.Person != "wanda" || got.Scope != access.Write {
			t.Errorf("the session of the cookie: %+v, %v", got, err)
		}
		// Signing in again gives a new session and ends the one the browser brought along.
		again := w.form("/login", url.Values{"csrf": {w.token("/")}, "name": {"wanda"}, "password": {testPassword}})
		if again.status != http.StatusSeeOther || w.cookies["__Host-rootline_session"] == sess.Value {
			t.Errorf("signing in again: %d, the same session cookie", again.status)
		}
		if _, err := st.SessionFor(ctx, sess.Value); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the session before signing in again: %v, want it ended", err)
		}
		token := w.token("/upload")
		if !strings.Contains(w.do("GET", "/", "", nil).body, `data-testid="signed-in-as">wanda<`) {
			t.Error("the page does not say who is signed in")
		}

		r := newBrowser(t, base)
		rToken := r.signIn("rita", testPassword)

		incident := func(id string) url.Values { return url.Values{"id": {id}, "title": {"t"}} }
		with := func(v url.Values, k, val string) url.Values { v.Set(k, val); return v }
		tests := []struct {
			name string
			b    *browserClient
			do   func(b *browserClient) answer
			want int
			says string
		}{
			{"a form with the session's token", w, func(b *browserClient) answer {
				return b.form("/incidents", with(incident("A"), "csrf", token))
			}, http.StatusSeeOther, ""},
			{"a form without the token", w, func(b *browserClient) answer { return b.form("/incidents", incident("B")) }, 403, "form token (csrf) is missing"},
			{"a form with another session's token", w, func(b *browserClient) answer {
				return b.form("/incidents", with(incident("B"), "csrf", rToken))
			}, 403, "does not match"},
			{"a form with a token from before signing in", w, func(b *browserClient) answer {
				return b.form("/incidents", with(incident("B"), "csrf", newBrowser(t, base).token("/login")))
			}, 403, "does not match"},
			{"an upload form without the token", w, func(b *browserClient) answer {
				body, ct := multipartBody(t, map[string][]byte{"pods.json": []byte(`{"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "p"}}`)}, "pods.json")
				return b.do("POST", "/upload", ct, body)
			}, 403, "form token (csrf) is missing"},
			{"a reader's form", r, func(b *browserClient) answer {
				return b.form("/incidents", with(incident("B"), "csrf", rToken))
			}, 403, "rita may only read"},
			{"a reader reads", r, func(b *browserClient) answer { return b.do("GET", "/api/v1/incidents", "", nil) }, 200, ""},
			{"the API with the session and its token", w, func(b *browserClient) answer {
				return b.do("POST", "/api/v1/incidents", "application/json", strings.NewReader(`{"id": "C", "title": "t"}`), "X-CSRF-Token", token)
			}, 201, ""},
			{"the API with the session, without the token", w, func(b *browserClient) answer {
				return b.do("POST", "/api/v1/incidents", "application/json", strings.NewReader(`{"id": "D", "title": "t"}`))
			}, 403, "form token (csrf) is missing"},
			{"another site's page posting the form", w, func(b *browserClient) answer {
				return b.do("POST", "/incidents", "application/x-www-form-urlencoded", strings.NewReader(with(incident("E"), "csrf", token).Encode()),
					"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
			}, 403, "cross-origin request refused"},
			{"a made-up session cookie", newBrowser(t, base), func(b *browserClient) answer {
				b.cookies["__Host-rootline_session"] = "rl_madeup"
				return b.do("POST", "/api/v1/incidents", "application/json", strings.NewReader(`{"id": "F", "title": "t"}`))
			}, 401, "authentication required"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				before := rowCounts(t, st, bk.Target)
				a := tt.do(tt.b)
				if a.status != tt.want || !strings.Contains(a.body, tt.says) {
					t.Errorf("status = %d (%s), want %d saying %q", a.status, a.body, tt.want, tt.says)
				}
				if tt.want >= 400 {
					if diff := cmp.Diff(before, rowCounts(t, st, bk.Target)); diff != "" {
						t.Errorf("a refused request changed rows:\n%s", diff)
					}
				}
			})
		}

		// Notes are signed by the person signed in, unless they say otherwise.
		if page := w.do("GET", "/incidents/A", "", nil); !strings.Contains(page.body, `name="author" value="wanda"`) {
			t.Errorf("the note form does not suggest wanda as the author")
		}
		a = w.do("POST", "/api/v1/incidents/A/notes", "application/json", strings.NewReader(`{"body": "Prometheus filled the node"}`), "X-CSRF-Token", token)
		if a.status != http.StatusCreated || !strings.Contains(a.body, `"author":"wanda"`) {
			t.Errorf("a note without an author: %d %s", a.status, a.body)
		}
		a = w.form("/incidents/A/notes", url.Values{"csrf": {token}, "body": {"and the hub"}, "author": {" "}})
		if notes, err := st.Notes(ctx, "A"); a.status != http.StatusSeeOther || err != nil || len(notes) != 2 || notes[1].Author != "wanda" {
			t.Errorf("a note from the form with the author cleared: %d, %+v, %v", a.status, notes, err)
		}

		// Signing out ends the session: the old cookie opens nothing.
		old := w.cookies["__Host-rootline_session"]
		if a := w.form("/logout", url.Values{"csrf": {token}}); a.status != http.StatusSeeOther || a.location != "/login" {
			t.Errorf("sign out: %d to %q", a.status, a.location)
		}
		if _, ok := w.cookies["__Host-rootline_session"]; ok {
			t.Error("the session cookie was not cleared")
		}
		thief := newBrowser(t, base)
		thief.cookies["__Host-rootline_session"] = old
		if a := thief.do("GET", "/", "", nil); a.status != http.StatusSeeOther {
			t.Errorf("the cookie of an ended session: %d, want a redirect to sign in", a.status)
		}
	})
}

// TestSignInRefusals: wrong passwords, unknown names, disabled accounts, a missing form token,
// too many attempts, and a next that leads elsewhere.
func TestSignInRefusals(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		ctx := t.Context()
		cfg := testConfig()
		cfg.Auth = "on"
		base := newServer(t, st, cfg)
		for _, n := range []string{"wanda", "dora", "nina"} {
			if _, err := st.CreateAccount(ctx, n, access.Write, testPassword); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.SetAccountDisabled(ctx, "dora", true); err != nil {
			t.Fatal(err)
		}
		b := newBrowser(t, base)
		login := func(name, pw, next string, csrf bool) answer {
			v := url.Values{"name": {name}, "password": {pw}, "next": {next}}
			if csrf {
				v.Set("csrf", b.token("/login"))
			}
			return b.form("/login", v)
		}
		before := rowCounts(t, st, bk.Target)
		for _, tt := range []struct {
			name, who, pw string
			csrf          bool
			want          int
			says          string
		}{
			{"wrong password", "wanda", "not the password!", true, 401, "wrong name or password"},
			{"unknown name", "nobody", testPassword, true, 401, "wrong name or password"},
			{"disabled", "dora", testPassword, true, 403, "disabled"},
			{"no form token", "wanda", testPassword, false, 403, "form token (csrf) is missing"},
		} {
			if a := login(tt.who, tt.pw, "/", tt.csrf); a.status != tt.want || !strings.Contains(a.body, tt.says) {
				t.Errorf("%s: %d (%s), want %d saying %q", tt.name, a.status, a.body, tt.want, tt.says)
			}
		}
		if diff := cmp.Diff(before, rowCounts(t, st, bk.Target)); diff != "" {
			t.Errorf("refused sign-ins changed rows:\n%s", diff)
		}
		if strings.Contains(login("wanda", "wrong again!!", "/", true).body, "wrong again") {
			t.Error("the page repeats the password typed")
		}
		// Too many failed attempts for one name from one address: refused for a while, then
		// even with the right password.
		var last answer
		for range 6 {
			last = login("nina", "guess guess guess", "/", true)
		}
		if last.status != http.StatusTooManyRequests || !strings.Contains(last.body, "too many attempts") {
			t.Errorf("the 6th failed attempt: %d, want 429", last.status)
		}
		if a := login("nina", testPassword, "/", true); a.status != http.StatusTooManyRequests {
			t.Errorf("the right password beyond the limit: %d, want 429", a.status)
		}
		// A next that leads elsewhere leads home. Sign-ins that succeed do not count: wanda,
		// who failed twice above, signs in four more times.
		for _, next := range []string{"//evil.example/x", "https://evil.example/", `/\evil.example`, "javascript:alert(1)"} {
			nb := newBrowser(t, base)
			a := nb.form("/login", url.Values{"csrf": {nb.token("/login")}, "name": {"wanda"}, "password": {testPassword}, "next": {next}})
			if a.status != http.StatusSeeOther || a.location != "/" {
				t.Errorf("next %q: %d to %q, want /", next, a.status, a.location)
			}
		}
	})
}

// TestFormsWithoutAuth: without authentication (loopback), forms still need their token, and
// other sites' pages cannot post to the API.
func TestFormsWithoutAuth(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base := newServer(t, st, testConfig())
		b := newBrowser(t, base)
		token := b.token("/upload")
		before := rowCounts(t, st, bk.Target)
		for _, tt := range []struct {
			name string
			a    answer
			want int
		}{
			{"no token", b.form("/incidents", url.Values{"title": {"t"}}), 403},
			{"a wrong token", b.form("/incidents", url.Values{"title": {"t"}, "csrf": {"x" + token}}), 403},
			{"no cookie", newBrowser(t, base).form("/incidents", url.Values{"title": {"t"}, "csrf": {token}}), 403},
			{"a cross-site post to the API", b.do("POST", "/api/v1/incidents", "text/plain", strings.NewReader(`{"title": "t"}`), "Sec-Fetch-Site", "cross-site"), 403},
		} {
			if tt.a.status != tt.want {
				t.Errorf("%s: %d (%s), want %d", tt.name, tt.a.status, tt.a.body, tt.want)
			}
		}
		if diff := cmp.Diff(before, rowCounts(t, st, bk.Target)); diff != "" {
			t.Errorf("refused forms changed rows:\n%s", diff)
		}
		// A browser is told on a page, escaped; the API answers JSON whatever it accepts.
		html := "text/html,application/xhtml+xml,*/*;q=0.8"
		a := b.do("POST", "/incidents", "application/x-www-form-urlencoded", strings.NewReader("title=t"), "Accept", html)
		if a.status != 403 || !strings.Contains(a.body, `data-testid="error-message">the form token (csrf) is missing`) {
			t.Errorf("a browser's form without the token: %d\n%s", a.status, a.body)
		}
		if a := b.do("GET", "/nope/<b>", "", nil, "Accept", html); a.status != 404 || !strings.Contains(a.body, `data-testid="error-page"`) {
			t.Errorf("a browser's 404: %d\n%s", a.status, a.body)
		}
		if a := b.do("GET", "/api/v1/incidents/nope", "", nil, "Accept", html); a.status != 404 || !strings.HasPrefix(a.body, `{"error":`) {
			t.Errorf("the API's 404 to a browser: %d\n%s", a.status, a.body)
		}
		if a := b.form("/incidents", url.Values{"title": {"t"}, "csrf": {token}}); a.status != http.StatusSeeOther {
			t.Errorf("with the token: %d (%s)", a.status, a.body)
		}
		if a := b.do("GET", "/login", "", nil); a.status != http.StatusSeeOther || a.location != "/" {
			t.Errorf("the sign-in page without authentication: %d to %q, want /", a.status, a.location)
		}
	})
}

// TestSecurityHeaders: every answer, page or API, refused or not, carries the security
// headers; HSTS only where cookies are Secure (authentication on).
func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		on := testConfig()
		on.Auth = "on"
		for _, tt := range []struct {
			name, base, path string
			hsts             bool
		}{
			{"a page, auth off", newServer(t, st, testConfig()), "/", false},
			{"the API, auth off", newServer(t, st, testConfig()), "/api/v1/incidents", false},
			{"the sign-in page, auth on", newServer(t, st, on), "/login", true},
			{"a refused API call, auth on", newServer(t, st, on), "/api/v1/incidents", true},
			{"a 404", newServer(t, st, on), "/nope", true},
		} {
			resp, err := http.Get(tt.base + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			h := resp.Header
			for k, want := range map[string]string{
				"Content-Security-Policy":    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
				"X-Content-Type-Options":     "nosniff",
				"X-Frame-Options":            "DENY",
				"Referrer-Policy":            "same-origin",
				"Cross-Origin-Opener-Policy": "same-origin",
			} {
				if got := h.Get(k); got != want {
					t.Errorf("%s: %s = %q, want %q", tt.name, k, got, want)
				}
			}
			if got := h.Get("Strict-Transport-Security") != ""; got != tt.hsts {
				t.Errorf("%s: HSTS %v, want %v", tt.name, got, tt.hsts)
			}
		}
	})
}
