package oidc

import (
	"errors"
	"net"
	"testing"
	"time"

	"github.com/oauth2-proxy/mockoidc"
)

// TestLazyDiscoversWhenTheProviderComesUp: a provider that cannot be reached gives
// ErrUnavailable (with the person's sentence), is not asked again within retryAfter, and is
// discovered at the first sign-in after it comes up; a wrong configuration is refused at once.
func TestLazyDiscoversWhenTheProviderComesUp(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close() // nothing listens there until the provider comes up
	m, err := mockoidc.NewServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Issuer: "http://" + addr + mockoidc.IssuerBase, ClientID: m.ClientID, ClientSecret: m.ClientSecret,
		RedirectURL: "http://rootline.test/login/oidc/callback", AllowedDomains: []string{"example.com"}}
	l, err := NewLazy(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := l.Start(t.Context()); !errors.Is(err, ErrUnavailable) || Message(err) != msgUnavailable {
		t.Fatalf("Start with the provider down: %v (%q), want ErrUnavailable", err, Message(err))
	}
	first := l.failed

	ln, err = net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("the provider's port was taken meanwhile: %v", err)
	}
	if err := m.Start(ln, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Shutdown() })
	if _, _, err := l.Start(t.Context()); !errors.Is(err, ErrUnavailable) || !l.failed.Equal(first) {
		t.Errorf("Start within retryAfter of the failure: %v, want ErrUnavailable without asking again", err)
	}
	l.mu.Lock()
	l.failed = time.Now().Add(-retryAfter - time.Second)
	l.mu.Unlock()
	to, pending, err := l.Start(t.Context())
	if err != nil || to == "" || pending.State == "" {
		t.Errorf("Start once the provider is up: %q %+v %v", to, pending, err)
	}

	if _, err := NewLazy(Config{Issuer: cfg.Issuer, ClientID: "x", ClientSecret: "y", RedirectURL: cfg.RedirectURL}); !errors.Is(err, ErrNoAllowList) {
		t.Errorf("NewLazy without an allow list: %v, want ErrNoAllowList", err)
	}
}
