package main

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/store"
)

// TestUserCommands: add reads the password from standard input and stores only its hash; a
// name is taken once; a short password is a usage error; password and disable end the
// account's sessions; list shows scope and disabling; serve starts with only a person.
func TestUserCommands(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "rootline.db")
	cli := func(stdin string, args ...string) (string, string, error) {
		root := newRootCmd()
		var out, errb bytes.Buffer
		root.SetIn(strings.NewReader(stdin))
		root.SetOut(&out)
		root.SetErr(&errb)
		root.SetArgs(append(args, "--database", db))
		err := root.Execute()
		return out.String(), errb.String(), err
	}
	const pw = "correct horse battery"
	if _, msg, err := cli(pw+"\n", "user", "add", "alice", "--scope", "admin"); err != nil || !strings.Contains(msg, "added alice (admin)") {
		t.Fatalf("add: %q %v", msg, err)
	}
	if _, _, err := cli(pw+"\n", "user", "add", "alice"); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("a second alice: %v", err)
	}
	if _, _, err := cli("short\n", "user", "add", "bob"); !isUsage(err) || !strings.Contains(err.Error(), "too short") {
		t.Errorf("a short password: %v, want a usage error", err)
	}
	if _, _, err := cli("", "user", "add", "bob"); !isUsage(err) {
		t.Errorf("no password: %v, want a usage error", err)
	}
	if _, _, err := cli(pw+"\n", "user", "add", "bob", "--scope", "root"); !isUsage(err) {
		t.Errorf("scope root: %v, want a usage error", err)
	}
	st := testStore(t, db)
	ctx := t.Context()
	if _, err := st.CheckAccount(ctx, "alice", pw); err != nil {
		t.Fatalf("alice's password: %v", err)
	}
	secret, _, err := st.CreateSession(ctx, "alice", "admin", 3600e9)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := cli(pw+" two\n", "user", "password", "alice"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.SessionFor(ctx, secret); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a session survived a new password: %v", err)
	}
	if _, err := st.CheckAccount(ctx, "alice", pw+" two"); err != nil {
		t.Errorf("the new password: %v", err)
	}
	if _, _, err := cli("", "user", "disable", "alice"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.CheckAccount(ctx, "alice", pw+" two"); !errors.Is(err, store.ErrAccountDisabled) {
		t.Errorf("disabled alice: %v", err)
	}
	if _, _, err := cli("", "user", "disable", "nobody"); err == nil || !strings.Contains(err.Error(), "no account is named nobody") {
		t.Errorf("disable nobody: %v", err)
	}
	out, _, err := cli("", "user", "list")
	if err != nil || !strings.Contains(out, "alice  admin") || strings.Contains(out, "argon2") || strings.Contains(out, "  -\n") {
		t.Errorf("list:\n%s%v", out, err)
	}
	if _, _, err := cli("", "user", "enable", "alice"); err != nil {
		t.Fatal(err)
	}
	out, _, _ = cli("", "user", "list")
	if !strings.HasSuffix(strings.TrimSpace(out), "-") {
		t.Errorf("list after enable:\n%s", out)
	}
}
