package main

import (
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// TestServeWithProviderDown: `rootline serve` with an OpenID Connect issuer that cannot be
// reached starts (it used to exit 1, its token API with it), becomes ready, and answers sign-in
// through the provider with 503 until the provider can be discovered.
func TestServeWithProviderDown(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	issuer := "http://" + ln.Addr().String() + "/oidc"
	_ = ln.Close() // nothing listens there
	// On all interfaces, so that authentication is on (as it is by default off loopback), which
	// sign-in through the provider needs.
	p := startServerEnv(t, filepath.Join(t.TempDir(), "rootline.db"), "0.0.0.0:0",
		"ROOTLINE_OIDC_ISSUER="+issuer, "ROOTLINE_OIDC_CLIENT_ID=rootline", "ROOTLINE_OIDC_CLIENT_SECRET=s3cret-client",
		"ROOTLINE_OIDC_REDIRECT_URL=http://rootline.test/login/oidc/callback", "ROOTLINE_OIDC_ALLOWED_DOMAINS=example.com")
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(p.url + "/login/oidc")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("sign-in through a provider that cannot be reached: %d, want 503", resp.StatusCode)
	}
}

// TestServeMakesTheValueKey: `rootline serve` on a SQLite database makes the installation's
// value key beside it, readable by its owner alone, and keeps it across restarts.
func TestServeMakesTheValueKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "rootline.db")
	p := startServer(t, db, "")
	keyFile := filepath.Join(dir, "rootline-value.key")
	first, err := os.ReadFile(keyFile)
	if err != nil {
		t.Fatalf("no value key beside the database: %v", err)
	}
	if fi, err := os.Stat(keyFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the value key's mode: %v %v, want 0600", fi, err)
	}
	p.stop(t)
	startServer(t, db, "")
	if again, err := os.ReadFile(keyFile); err != nil || string(again) != string(first) {
		t.Errorf("the value key changed across a restart")
	}
}
