package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/access"
	"github.com/rootline-dev/rootline/internal/oidc"
	"github.com/rootline-dev/rootline/templates"
)

// OIDCProvider signs people in through an OpenID Connect provider (internal/oidc).
type OIDCProvider interface {
	Start(ctx context.Context) (string, oidc.Pending, error)
	Finish(ctx context.Context, pending oidc.Pending, query url.Values) (oidc.Identity, error)
}

// oidcCookie keeps a sign-in in progress between the redirect to the provider and its
// callback: SameSite=Lax, since the callback is a navigation from the provider's site.
const (
	oidcCookie = "rootline_oidc"
	oidcMaxAge = 10 * time.Minute
)

// oidcPending is what the cookie holds.
type oidcPending struct {
	oidc.Pending
	Next string `json:"next"`
}

// oidcOn reports whether people may sign in through an OpenID Connect provider.
func (s *Server) oidcOn() bool { return s.deps.OIDC != nil && s.cfg.Auth == "on" }

// oidcStart sends the browser to the provider.
func (s *Server) oidcStart(c *gin.Context) error {
	if !s.oidcOn() {
		return errStatus(http.StatusNotFound, "sign-in through an OpenID Connect provider is not configured")
	}
	to, pending, err := s.deps.OIDC.Start(c.Request.Context())
	if err != nil {
		// The provider could not be discovered (down when Rootline started, or since): the
		// person is told to come back; everything else of the server works meanwhile.
		s.log.WarnContext(c.Request.Context(), "sign-in through OpenID Connect unavailable", "error", err)
		c.Header("Retry-After", "30")
		return render(c, http.StatusServiceUnavailable, "Sign in", templates.SignInPage(templates.SignIn{Next: localPath(c.Query("next")), OIDC: true, Error: oidc.Message(err)}))
	}
	b, err := json.Marshal(oidcPending{Pending: pending, Next: localPath(c.Query("next"))})
	if err != nil {
		return err
	}
	s.setCookie(c, oidcCookie, base64.RawURLEncoding.EncodeToString(b), oidcMaxAge, http.SameSiteLaxMode)
	c.Redirect(http.StatusSeeOther, to)
	return nil
}

// oidcCallback finishes a sign-in through the provider and starts a session.
func (s *Server) oidcCallback(c *gin.Context) error {
	if !s.oidcOn() {
		return errStatus(http.StatusNotFound, "sign-in through an OpenID Connect provider is not configured")
	}
	ctx := c.Request.Context()
	var p oidcPending
	if raw := s.cookie(c, oidcCookie); raw != "" {
		if b, err := base64.RawURLEncoding.DecodeString(raw); err == nil {
			_ = json.Unmarshal(b, &p) // a broken cookie is a missing one: Finish says the sign-in expired
		}
	}
	s.setCookie(c, oidcCookie, "", -1, http.SameSiteLaxMode)
	id, err := s.deps.OIDC.Finish(ctx, p.Pending, c.Request.URL.Query())
	if err != nil {
		status := http.StatusUnauthorized
		if errors.Is(err, oidc.ErrNotAllowed) {
			status = http.StatusForbidden
		}
		if errors.Is(err, oidc.ErrExchange) {
			status = http.StatusBadGateway
		}
		if errors.Is(err, oidc.ErrUnavailable) {
			status = http.StatusServiceUnavailable
		}
		s.log.WarnContext(ctx, "sign-in through OpenID Connect refused", "error", err, "client", c.ClientIP())
		return render(c, status, "Sign in", templates.SignInPage(templates.SignIn{Next: localPath(p.Next), OIDC: true, Error: oidc.Message(err)}))
	}
	if err := s.startSession(c, id.Name, access.Scope(s.cfg.OIDC.Scope)); err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, localPath(p.Next))
	return nil
}
