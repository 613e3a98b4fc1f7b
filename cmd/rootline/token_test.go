package main

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/store"
)

// TestTokenCommands: create prints the secret once (and stores only its hash), a name is
// taken once, list shows scope and revocation, revoke refuses the token from then on.
func TestTokenCommands(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "rootline.db")
	cli := func(args ...string) (string, string, error) {
		root := newRootCmd()
		var out, errb bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&errb)
		root.SetArgs(append(args, "--database", db))
		err := root.Execute()
		return out.String(), errb.String(), err
	}
	out, msg, err := cli("token", "create", "--name", "ci", "--scope", "write")
	secret := strings.TrimSpace(out)
	if err != nil || !strings.HasPrefix(secret, "rl_") || !strings.Contains(msg, "shown only now") {
		t.Fatalf("create: %q %q %v", out, msg, err)
	}
	if _, _, err := cli("token", "create", "--name", "ci"); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("a second token named ci: %v", err)
	}
	if _, _, err := cli("token", "create", "--name", "x", "--scope", "root"); !isUsage(err) {
		t.Errorf("scope root: %v, want a usage error", err)
	}
	if _, _, err := cli("token", "create", "--name", "has space"); !isUsage(err) {
		t.Errorf("a name with a space: %v, want a usage error", err)
	}
	out, _, err = cli("token", "list")
	if err != nil || !strings.Contains(out, "ci    write") || strings.Contains(out, secret) {
		t.Errorf("list:\n%s%v", out, err)
	}
	if _, _, err := cli("token", "revoke", "ci"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := cli("token", "revoke", "nope"); err == nil || !strings.Contains(err.Error(), "no token is named nope") {
		t.Errorf("revoke nope: %v", err)
	}
	st := testStore(t, db)
	tok, err := st.TokenFor(t.Context(), secret)
	if !errors.Is(err, store.ErrTokenRevoked) || tok.Name != "ci" {
		t.Errorf("the revoked token: %+v, %v", tok, err)
	}
	if n, err := st.ActiveTokens(t.Context()); err != nil || n != 0 {
		t.Errorf("active tokens: %d, %v", n, err)
	}
}

// TestServeNeedsAToken: beyond loopback, serve refuses to start with neither the server's
// token nor any token in the database.
func TestServeNeedsAToken(t *testing.T) {
	t.Setenv("ROOTLINE_API_TOKEN", "")
	db := filepath.Join(t.TempDir(), "rootline.db")
	got, stderr := runCaptured(t, "serve", "--addr", "0.0.0.0:0", "--database", db)
	if got != exitUsage || !strings.Contains(stderr, "--auth on needs a way in") {
		t.Errorf("exit code %d, stderr %q; want %d and what would let people in", got, stderr, exitUsage)
	}
}
