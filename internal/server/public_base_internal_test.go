package server

import (
	"crypto/tls"
	"net/http/httptest"
	"testing"

	"github.com/rootline-dev/rootline/internal/config"
)

// TestPublicBase: the address the empty library's commands name is the configured sign-in
// address's origin when there is one, else the request's own scheme and host (issue 27: not a
// hard-coded localhost:8080); forwarded headers are nobody's word.
func TestPublicBase(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, redirect, host string
		tls                  bool
		forwarded            string
		want                 string
	}{
		{name: "the request's host", host: "127.0.0.1:8102", want: "http://127.0.0.1:8102"},
		{name: "over TLS", host: "rootline.internal", tls: true, want: "https://rootline.internal"},
		{name: "forwarded headers ignored", host: "10.0.0.7:8080", forwarded: "https", want: "http://10.0.0.7:8080"},
		{name: "configured address", redirect: "https://rootline.example.org/login/oidc/callback", host: "10.0.0.7:8080",
			want: "https://rootline.example.org"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Server{cfg: config.Config{OIDC: config.OIDC{RedirectURL: tt.redirect}}}
			r := httptest.NewRequest("GET", "/", nil)
			r.Host = tt.host
			if tt.tls {
				r.TLS = &tls.ConnectionState{}
			}
			if tt.forwarded != "" {
				r.Header.Set("X-Forwarded-Proto", tt.forwarded)
				r.Header.Set("X-Forwarded-Host", "evil.example")
			}
			if got := s.publicBase(r); got != tt.want {
				t.Errorf("publicBase = %q, want %q", got, tt.want)
			}
		})
	}
}
