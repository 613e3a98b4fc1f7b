package store_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/access"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestAccounts: a password is checked and never stored; a wrong password and an unknown name
// look alike; a disabled account is refused and loses its sessions; a new password ends the
// sessions too.
func TestAccounts(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		const pw = "a long enough password"
		a, err := st.CreateAccount(ctx, "alice", access.Write, pw)
		if err != nil || a.Name != "alice" || a.Scope != access.Write || a.DisabledAt != nil {
			t.Fatalf("CreateAccount: %+v, %v", a, err)
		}
		_, err = st.CreateAccount(ctx, "alice", access.Read, pw)
		wantErr(t, "a second account named alice", err, store.ErrExists)
		if _, err := st.CreateAccount(ctx, "bob", access.Read, "short"); err == nil {
			t.Error("a short password was accepted")
		}
		if _, err := st.CreateAccount(ctx, "bob", "root", pw); err == nil {
			t.Error("scope root was accepted")
		}
		var hashes []string
		if err := st.DB().Table("accounts").Pluck("password_hash", &hashes).Error; err != nil {
			t.Fatal(err)
		}
		if len(hashes) != 1 || strings.Contains(hashes[0], pw) || !strings.HasPrefix(hashes[0], "$argon2id$") {
			t.Errorf("stored %v", hashes)
		}

		if got, err := st.CheckAccount(ctx, "alice", pw); err != nil || got.Name != "alice" {
			t.Errorf("CheckAccount(right) = %+v, %v", got, err)
		}
		_, err = st.CheckAccount(ctx, "alice", pw+"!")
		wantErr(t, "a wrong password", err, store.ErrWrongPassword)
		_, err = st.CheckAccount(ctx, "nobody", pw)
		wantErr(t, "an unknown name", err, store.ErrWrongPassword)

		secret, sess, err := st.CreateSession(ctx, "alice", access.Write, time.Hour)
		if err != nil || sess.Person != "alice" {
			t.Fatalf("CreateSession: %+v, %v", sess, err)
		}
		if got, err := st.SessionFor(ctx, secret); err != nil || got.Person != "alice" || got.Scope != access.Write {
			t.Errorf("SessionFor = %+v, %v", got, err)
		}
		if err := st.DB().Table("sessions").Pluck("hash", &hashes).Error; err != nil {
			t.Fatal(err)
		}
		if len(hashes) != 1 || hashes[0] != access.Hash(secret) {
			t.Errorf("sessions stored %v for the secret %s: want its hash only", hashes, secret)
		}
		if _, err := st.SessionFor(ctx, access.Hash(secret)); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("SessionFor(the stored hash) = %v, want ErrNotFound", err)
		}
		expired, _, err := st.CreateSession(ctx, "alice", access.Write, -time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.SessionFor(ctx, expired); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("SessionFor(expired) = %v, want ErrNotFound", err)
		}

		// A new password ends the sessions.
		if err := st.SetPassword(ctx, "alice", pw+" two"); err != nil {
			t.Fatal(err)
		}
		if _, err := st.SessionFor(ctx, secret); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a session survived a new password: %v", err)
		}
		wantErr(t, "the old password", func() error { _, err := st.CheckAccount(ctx, "alice", pw); return err }(), store.ErrWrongPassword)
		wantErr(t, "SetPassword of nobody", st.SetPassword(ctx, "nobody", pw), store.ErrNotFound)

		// Disabled: refused once the password is right, and its sessions end.
		secret, _, _ = st.CreateSession(ctx, "alice", access.Write, time.Hour)
		if err := st.SetAccountDisabled(ctx, "alice", true); err != nil {
			t.Fatal(err)
		}
		_, err = st.CheckAccount(ctx, "alice", pw+" two")
		wantErr(t, "a disabled account", err, store.ErrAccountDisabled)
		_, err = st.CheckAccount(ctx, "alice", "wrong password here")
		wantErr(t, "a disabled account, wrong password", err, store.ErrWrongPassword)
		if _, err := st.SessionFor(ctx, secret); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a session survived disabling: %v", err)
		}
		if n, err := st.ActiveAccounts(ctx); err != nil || n != 0 {
			t.Errorf("ActiveAccounts = %d, %v", n, err)
		}
		if err := st.SetAccountDisabled(ctx, "alice", false); err != nil {
			t.Fatal(err)
		}
		if _, err := st.CheckAccount(ctx, "alice", pw+" two"); err != nil {
			t.Errorf("enabled again: %v", err)
		}
		wantErr(t, "disable nobody", st.SetAccountDisabled(ctx, "nobody", true), store.ErrNotFound)

		// Ending a session.
		secret, _, _ = st.CreateSession(ctx, "oidc:carol@example.com", access.Read, time.Hour)
		if err := st.EndSession(ctx, secret); err != nil {
			t.Fatal(err)
		}
		if _, err := st.SessionFor(ctx, secret); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("an ended session: %v", err)
		}
		if err := st.EndSession(ctx, secret); err != nil {
			t.Errorf("ending it again: %v", err)
		}
		list, err := st.Accounts(ctx)
		if err != nil || len(list) != 1 || list[0].Name != "alice" {
			t.Errorf("Accounts = %+v, %v", list, err)
		}
	})
}
