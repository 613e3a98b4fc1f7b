package server

import (
	"net/http"
	"net/url"
)

// publicBase is the server's address as people reach it, for the commands a page shows
// (`rootline upload --server …`): the scheme and host of the OIDC redirect URL when one is
// configured (the address people sign in at, also behind a proxy that ends TLS), else the
// scheme and Host of the request itself. X-Forwarded-* headers are not read: no proxy is
// trusted (routes.go).
func (s *Server) publicBase(r *http.Request) string {
	if u, err := url.Parse(s.cfg.OIDC.RedirectURL); err == nil && s.cfg.OIDC.RedirectURL != "" && u.Host != "" {
		return u.Scheme + "://" + u.Host
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
