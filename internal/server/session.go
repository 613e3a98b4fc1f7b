package server

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/access"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/templates"
)

// People sign in to the pages with a name and a password (`rootline user add`) or through an
// OpenID Connect provider. A session is a random secret in a cookie, of which the store keeps
// only the hash. Every form carries a token against cross-site request forgery: derived from the
// session's secret for a person signed in, otherwise equal to a cookie of its own (double
// submit), which is what the sign-in form and the pages of a server without authentication use.

// Cookie names. With Secure cookies the __Host- prefix also binds them to this host and path /.
const (
	sessionCookie = "rootline_session"
	csrfCookie    = "rootline_csrf"
	hostPrefix    = "__Host-"
	csrfField     = "csrf"
	csrfHeader    = "X-CSRF-Token"
)

// Keys of the gin context.
const (
	sessionKey   = "rootline.session"    // store.Session of the person signed in
	bearerKey    = "rootline.bearer"     // true when a bearer token authenticated the request
	csrfKey      = "rootline.csrf"       // the token forms must post back
	csrfLaterKey = "rootline.csrf.later" // the token a multipart form's first field must be
)

// loginRate and loginBurst bound the failed sign-in attempts of one name from one address;
// passwordChecks bounds the password checks running at once.
const (
	loginRate      = 10 // a minute
	loginBurst     = 5
	passwordChecks = 4
)

func (s *Server) secureCookies() bool { return s.cfg.Auth == "on" && !s.cfg.InsecureCookies }

func (s *Server) cookieName(base string) string {
	if s.secureCookies() {
		return hostPrefix + base
	}
	return base
}

func (s *Server) setCookie(c *gin.Context, base, value string, maxAge time.Duration, sameSite http.SameSite) {
	ck := &http.Cookie{Name: s.cookieName(base), Value: value, Path: "/", HttpOnly: true, Secure: s.secureCookies(), SameSite: sameSite}
	switch {
	case maxAge < 0:
		ck.MaxAge = -1
	case maxAge > 0:
		ck.MaxAge = int(maxAge / time.Second)
	}
	http.SetCookie(c.Writer, ck)
}

func (s *Server) cookie(c *gin.Context, base string) string {
	v, err := c.Cookie(s.cookieName(base))
	if err != nil {
		return ""
	}
	return v
}

// csrfFromSession derives a session's form token from its secret, which only the browser
// holds: the stored hash does not give it.
func csrfFromSession(secret string) string {
	h := sha256.Sum256([]byte("rootline csrf\x00" + secret))
	return base64.RawURLEncoding.EncodeToString(h[:])
}

func randomToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("csrf token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// identify finds who is asking without deciding whether they may: the session of a person
// signed in (with authentication on), and the form token of the request. It puts both in the
// request's context for the pages.
func (s *Server) identify() gin.HandlerFunc {
	return s.handle(func(c *gin.Context) error {
		ctx := c.Request.Context()
		var v templates.Viewer
		if bearer := strings.HasPrefix(c.GetHeader("Authorization"), "Bearer "); !bearer && s.cfg.Auth == "on" && s.deps.Sessions != nil {
			if secret := s.cookie(c, sessionCookie); secret != "" {
				sess, err := s.deps.Sessions.SessionFor(ctx, secret)
				switch {
				case errors.Is(err, store.ErrNotFound): // expired or ended: as if there were none
				case err != nil:
					return err
				default:
					c.Set(sessionKey, sess)
					c.Set(callerKey, "person "+sess.Person)
					v.Person, v.CSRF = sess.Person, csrfFromSession(secret)
				}
			}
		}
		if v.CSRF == "" {
			v.CSRF = s.cookie(c, csrfCookie)
			if v.CSRF == "" && !isAPI(c) {
				tok, err := randomToken()
				if err != nil {
					return err
				}
				s.setCookie(c, csrfCookie, tok, 0, http.SameSiteStrictMode)
				v.CSRF = tok
			}
		}
		c.Set(csrfKey, v.CSRF)
		c.Request = c.Request.WithContext(templates.WithViewer(ctx, v))
		c.Next()
		return nil
	})
}

// signedIn names the person signed in, or "" (authentication off, or a token).
func signedIn(c *gin.Context) string {
	if v, ok := c.Get(sessionKey); ok {
		return v.(store.Session).Person
	}
	return ""
}

func isAPI(c *gin.Context) bool { return strings.HasPrefix(c.Request.URL.Path, "/api/") }

// checkCSRF refuses a request that changes something from a browser without the form token:
// every page form, and the API when a session cookie (not a bearer token) authenticates it.
// The API without a session is left to callers that send no cookies (the CLI, the collector);
// browsers' cross-site requests to it are refused by crossOrigin.
func (s *Server) checkCSRF() gin.HandlerFunc {
	return s.handle(func(c *gin.Context) error {
		if safeMethod(c.Request.Method) || c.GetBool(bearerKey) {
			c.Next()
			return nil
		}
		_, hasSession := c.Get(sessionKey)
		if isAPI(c) && !hasSession {
			c.Next()
			return nil
		}
		want := c.GetString(csrfKey)
		got := c.GetHeader(csrfHeader)
		if got == "" && !isAPI(c) {
			mt, _, _ := mime.ParseMediaType(c.GetHeader("Content-Type"))
			if mt == "multipart/form-data" {
				// The form's files may be large: its first field is checked as it is read
				// (receive), before any file is spooled.
				c.Set(csrfLaterKey, want)
				c.Next()
				return nil
			}
			got = c.PostForm(csrfField)
		}
		if err := csrfMatch(want, got); err != nil {
			return err
		}
		c.Next()
		return nil
	})
}

func csrfMatch(want, got string) error {
	if got == "" {
		return errStatus(http.StatusForbidden, "the form token (csrf) is missing: reload the page and send the form again")
	}
	if want == "" || subtle.ConstantTimeCompare([]byte(want), []byte(got)) != 1 {
		return errStatus(http.StatusForbidden, "the form token (csrf) does not match: reload the page and send the form again")
	}
	return nil
}

// csrfLater returns the check receive runs on a multipart form's fields before its first file,
// or nil when checkCSRF already checked the request.
func csrfLater(c *gin.Context) func(fields map[string]string) error {
	want, ok := c.Get(csrfLaterKey)
	if !ok {
		return nil
	}
	return func(fields map[string]string) error { return csrfMatch(want.(string), fields[csrfField]) }
}

func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// crossOrigin refuses requests that change something and come from another site's page, by
// the browser's Sec-Fetch-Site and Origin headers (net/http's CrossOriginProtection). It guards
// the API of a server without authentication on loopback, which a page elsewhere could
// otherwise post to.
func (s *Server) crossOrigin() gin.HandlerFunc {
	cop := http.NewCrossOriginProtection()
	return s.handle(func(c *gin.Context) error {
		if err := cop.Check(c.Request); err != nil {
			return errStatus(http.StatusForbidden, "cross-origin request refused: "+err.Error())
		}
		c.Next()
		return nil
	})
}

// localPath returns next if it is a path on this server, else "/": sign-in never sends a
// browser elsewhere.
func localPath(next string) string {
	if next == "" || next[0] != '/' || strings.HasPrefix(next, "//") || strings.HasPrefix(next, `/\`) || strings.ContainsAny(next, "\r\n\t") {
		return "/"
	}
	if u, err := url.Parse(next); err != nil || u.Host != "" || u.Scheme != "" {
		return "/"
	}
	return next
}

// loginPage shows the sign-in form; with authentication off, or signed in already, it sends the
// browser on.
func (s *Server) loginPage(c *gin.Context) error {
	next := localPath(c.Query("next"))
	if _, ok := c.Get(sessionKey); ok || s.cfg.Auth != "on" {
		c.Redirect(http.StatusSeeOther, next)
		return nil
	}
	return render(c, http.StatusOK, "Sign in", templates.SignInPage(templates.SignIn{Next: next, OIDC: s.oidcOn()}))
}

// login checks a name and a password and starts a session.
func (s *Server) login(c *gin.Context) error {
	if s.cfg.Auth != "on" || s.deps.Sessions == nil {
		c.Redirect(http.StatusSeeOther, "/")
		return nil
	}
	ctx := c.Request.Context()
	name, pw := strings.TrimSpace(c.PostForm("name")), c.PostForm("password")
	page := templates.SignIn{Name: name, Next: localPath(c.PostForm("next")), OIDC: s.oidcOn()}
	key := c.ClientIP() + "|" + name
	if ok, wait := s.logins.left(key, time.Now()); !ok {
		secs := int(math.Ceil(wait.Seconds()))
		c.Header("Retry-After", strconv.Itoa(secs))
		page.Error = fmt.Sprintf("too many attempts to sign in as %s: try again in %d s", name, secs)
		return render(c, http.StatusTooManyRequests, "Sign in", templates.SignInPage(page))
	}
	// A password check takes 19 MiB for some 50 ms: at most a few at once, whatever the
	// number of names tried.
	select {
	case s.hashing <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	acct, err := s.deps.Sessions.CheckAccount(ctx, name, pw)
	<-s.hashing
	if errors.Is(err, store.ErrWrongPassword) || errors.Is(err, store.ErrAccountDisabled) {
		s.logins.allow(key, time.Now()) // only failures count against the budget
	}
	switch {
	case errors.Is(err, store.ErrWrongPassword):
		s.log.WarnContext(ctx, "sign-in refused", "name", name, "reason", "wrong name or password", "client", c.ClientIP())
		page.Error = "wrong name or password"
		return render(c, http.StatusUnauthorized, "Sign in", templates.SignInPage(page))
	case errors.Is(err, store.ErrAccountDisabled):
		s.log.WarnContext(ctx, "sign-in refused", "name", name, "reason", "account disabled", "client", c.ClientIP())
		page.Error = "this account is disabled: ask an administrator"
		return render(c, http.StatusForbidden, "Sign in", templates.SignInPage(page))
	case err != nil:
		return err
	}
	if err := s.startSession(c, acct.Name, acct.Scope); err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, page.Next)
	return nil
}

// startSession signs a person in: a new session (never one the browser brought along), in a
// cookie that scripts cannot read, sent only over HTTPS, and not on cross-site posts.
func (s *Server) startSession(c *gin.Context, person string, scope access.Scope) error {
	secret, _, err := s.deps.Sessions.CreateSession(c.Request.Context(), person, scope, s.cfg.SessionTTL)
	if err != nil {
		return err
	}
	if old := s.cookie(c, sessionCookie); old != "" {
		_ = s.deps.Sessions.EndSession(c.Request.Context(), old) // best effort: it would expire anyway
	}
	s.setCookie(c, sessionCookie, secret, s.cfg.SessionTTL, http.SameSiteLaxMode)
	s.log.InfoContext(c.Request.Context(), "signed in", "person", person, "scope", scope)
	return nil
}

// logout ends the session and forgets its cookie.
func (s *Server) logout(c *gin.Context) error {
	if secret := s.cookie(c, sessionCookie); secret != "" && s.deps.Sessions != nil {
		if err := s.deps.Sessions.EndSession(c.Request.Context(), secret); err != nil {
			return err
		}
	}
	s.setCookie(c, sessionCookie, "", -1, http.SameSiteLaxMode)
	c.Redirect(http.StatusSeeOther, "/login")
	return nil
}
