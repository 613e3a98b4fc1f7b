package server

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/rootline-dev/rootline/internal/access"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/web"
)

// Handler returns the HTTP handler with every route.
func (s *Server) Handler() http.Handler { return headAsGet(s.router()) }

// router is the gin engine with every route; Handler adds HEAD for every GET.
func (s *Server) router() *gin.Engine {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.HandleMethodNotAllowed = true
	_ = r.SetTrustedProxies(nil) // the client's address is the connection's: X-Forwarded-For is anyone's to write
	r.ContextWithFallback = true
	r.Use(s.recovery(), s.metrics.middleware(), s.securityHeaders())
	r.NoRoute(s.handle(func(*gin.Context) error { return errStatus(http.StatusNotFound, "no such page or endpoint") }))
	r.NoMethod(s.handle(func(*gin.Context) error { return errStatus(http.StatusMethodNotAllowed, "method not allowed") }))

	r.GET("/healthz", s.healthz)
	r.GET("/readyz", s.handle(s.readyz))
	r.GET("/metrics", gin.WrapH(promhttp.HandlerFor(s.metrics.Registry, promhttp.HandlerOpts{})))
	r.StaticFS("/static", http.FS(web.Static()))

	site := r.Group("/", s.crossOrigin(), s.bodyDeadline(), s.identify())
	site.GET("/login", s.handle(s.loginPage))
	site.POST("/login", s.checkCSRF(), s.handle(s.login))
	site.POST("/logout", s.checkCSRF(), s.handle(s.logout))
	site.GET("/login/oidc", s.handle(s.oidcStart))
	site.GET("/login/oidc/callback", s.handle(s.oidcCallback))

	authed := site.Group("/", s.requireAuth(), s.checkCSRF())
	authed.GET("/", s.handle(s.libraryPage))
	authed.POST("/incidents", s.handle(s.createIncidentForm))
	authed.GET("/upload", s.handle(s.uploadPage))
	authed.POST("/upload", s.limitUploads(), s.handle(s.uploadForm))
	authed.GET("/incidents/:id", s.handle(s.incidentPage))
	authed.GET("/incidents/:id/related", s.handle(s.relatedPage))
	authed.GET("/incidents/:id/symptoms/:sid", s.handle(s.symptomPage))
	authed.GET("/incidents/:id/causes/:cid", s.handle(s.causePage))
	authed.GET("/incidents/:id/history", s.handle(s.historyPage))
	authed.POST("/incidents/:id/notes", s.handle(s.createNoteForm))
	authed.POST("/incidents/:id/edit", s.handle(s.editIncidentForm))
	authed.POST("/incidents/:id/signature", s.handle(s.signatureForm))
	authed.POST("/incidents/:id/prometheus", s.limitUploads(), s.handle(s.prometheusForm))

	api := authed.Group("/api/v1")
	api.POST("/incidents", s.handle(s.createIncident))
	api.POST("/incidents/import", s.limitUploads(), s.handle(s.importReports))
	api.POST("/events", s.limitEvents(), s.handle(s.postEvents))
	api.POST("/alerts", s.limitEvents(), s.handle(s.postAlerts))
	api.GET("/incidents", s.handle(s.listIncidents))
	api.GET("/incidents/:id", s.handle(s.getIncident))
	api.PUT("/incidents/:id", s.handle(s.updateIncident))
	api.POST("/incidents/:id/snapshots", s.limitUploads(), s.handle(s.uploadSnapshot))
	api.GET("/incidents/:id/analysis", s.handle(s.getAnalysis))
	api.POST("/incidents/:id/prometheus", s.limitUploads(), s.handle(s.readPrometheus))
	api.GET("/incidents/:id/symptoms/:sid/members", s.handle(s.getSymptomMembers))
	api.GET("/incidents/:id/causes/:cid/members", s.handle(s.getCauseMembers))
	api.POST("/incidents/:id/notes", s.handle(s.createNote))
	api.GET("/incidents/:id/notes", s.handle(s.listNotes))
	api.GET("/incidents/:id/timeline", s.handle(s.getTimeline))
	api.GET("/incidents/:id/history", s.handle(s.getHistory))
	api.GET("/incidents/:id/export", s.handle(s.exportIncident))
	api.GET("/incidents/:id/related", s.handle(s.getRelated))
	api.GET("/incidents/:id/signature", s.handle(s.getSignature))
	api.PUT("/incidents/:id/signature", s.handle(s.putSignature))
	api.DELETE("/incidents/:id/signature", s.handle(s.deleteSignature))
	return r
}

// requireAuth demands, when authentication is on, a person signed in (see identify) or a
// bearer token: the server's own (ROOTLINE_API_TOKEN, which may do anything) or one made with
// `rootline token create`. The scope of either must allow the request (reading for GET and
// HEAD, writing for the rest). A browser that is not signed in is sent to the sign-in page.
func (s *Server) requireAuth() gin.HandlerFunc {
	if s.cfg.Auth != "on" {
		return func(c *gin.Context) { c.Next() }
	}
	own := []byte(s.cfg.APIToken)
	return s.handle(func(c *gin.Context) error {
		need := access.Needed(c.Request.Method)
		got, bearer := strings.CutPrefix(c.GetHeader("Authorization"), "Bearer ")
		got = strings.TrimSpace(got)
		if !bearer {
			if v, ok := c.Get(sessionKey); ok {
				sess := v.(store.Session)
				if !sess.Scope.Allows(need) {
					return errStatus(http.StatusForbidden, fmt.Sprintf("%s may only %s here: %s needs %s", sess.Person, sess.Scope, c.Request.Method, need))
				}
				c.Next()
				return nil
			}
			if !isAPI(c) && safeMethod(c.Request.Method) {
				c.Redirect(http.StatusSeeOther, "/login?next="+url.QueryEscape(c.Request.URL.RequestURI()))
				c.Abort()
				return nil
			}
		}
		if got == "" {
			c.Header("WWW-Authenticate", `Bearer realm="rootline"`)
			return errStatus(http.StatusUnauthorized, "authentication required: sign in, or send Authorization: Bearer <token>")
		}
		var scope access.Scope
		if len(own) > 0 && subtle.ConstantTimeCompare([]byte(got), own) == 1 {
			scope = access.Admin
			c.Set(callerKey, "the server's token")
		} else if s.deps.Tokens != nil {
			t, err := s.deps.Tokens.TokenFor(c.Request.Context(), got)
			switch {
			case errors.Is(err, store.ErrTokenRevoked):
				c.Header("WWW-Authenticate", `Bearer realm="rootline", error="invalid_token"`)
				return errStatus(http.StatusUnauthorized, fmt.Sprintf("token %s was revoked", t.Name))
			case errors.Is(err, store.ErrNotFound):
			case err != nil:
				return err
			default:
				scope = t.Scope
				c.Set(callerKey, "token "+t.Name)
			}
		}
		if scope == "" {
			c.Header("WWW-Authenticate", `Bearer realm="rootline", error="invalid_token"`)
			return errStatus(http.StatusUnauthorized, "unknown token")
		}
		if !scope.Allows(need) {
			return errStatus(http.StatusForbidden, fmt.Sprintf("this token's scope is %s: %s needs %s", scope, c.Request.Method, need))
		}
		c.Set(bearerKey, true)
		c.Next()
		return nil
	})
}

// securityHeaders sets the headers every answer carries.
func (s *Server) securityHeaders() gin.HandlerFunc {
	return func(c *gin.Context) {
		h := c.Writer.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()")
		if s.secureCookies() {
			// Served over HTTPS (the Secure cookies assume it): browsers keep to HTTPS for a year.
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		c.Next()
	}
}

// recovery turns a panic in a handler into a logged 500 instead of a dropped connection.
func (s *Server) recovery() gin.HandlerFunc {
	return gin.CustomRecoveryWithWriter(io.Discard, func(c *gin.Context, rec any) {
		s.log.ErrorContext(c.Request.Context(), "panic in handler", "path", c.Request.URL.Path, "panic", rec)
		c.AbortWithStatusJSON(http.StatusInternalServerError, gin.H{"error": "internal error"})
	})
}
