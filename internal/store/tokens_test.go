package store_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/access"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestTokens: a token is found by its secret and by nothing else; the secret is never stored;
// names are taken once; a revoked token is found as revoked; scopes and names are checked.
func TestTokens(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		secret, tok, err := st.CreateToken(ctx, "ci", access.Write)
		if err != nil || tok.Name != "ci" || tok.Scope != access.Write || tok.RevokedAt != nil {
			t.Fatalf("CreateToken: %+v, %v", tok, err)
		}
		got, err := st.TokenFor(ctx, secret)
		if err != nil || got.Name != "ci" || got.Scope != access.Write {
			t.Errorf("TokenFor(secret) = %+v, %v", got, err)
		}
		for _, wrong := range []string{"", "rl_", secret[:len(secret)-1], strings.ToUpper(secret), access.Hash(secret)} {
			if _, err := st.TokenFor(ctx, wrong); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("TokenFor(%q) = %v, want ErrNotFound", wrong, err)
			}
		}
		var stored []string
		if err := st.DB().Table("api_tokens").Pluck("hash", &stored).Error; err != nil {
			t.Fatal(err)
		}
		if len(stored) != 1 || stored[0] == secret || strings.Contains(stored[0], secret[3:]) {
			t.Errorf("stored %v for the secret %s", stored, secret)
		}
		_, _, err = st.CreateToken(ctx, "ci", access.Read)
		wantErr(t, "a second token named ci", err, store.ErrExists)
		if _, _, err := st.CreateToken(ctx, "x", "root"); err == nil {
			t.Error("scope root was accepted")
		}
		if _, _, err := st.CreateToken(ctx, "no spaces", access.Read); err == nil {
			t.Error("a name with a space was accepted")
		}
		if err := st.RevokeToken(ctx, "ci"); err != nil {
			t.Fatal(err)
		}
		if err := st.RevokeToken(ctx, "ci"); err != nil {
			t.Errorf("revoking again: %v", err)
		}
		wantErr(t, "revoking a token that does not exist", st.RevokeToken(ctx, "nope"), store.ErrNotFound)
		got, err = st.TokenFor(ctx, secret)
		if !errors.Is(err, store.ErrTokenRevoked) || got.Name != "ci" || got.RevokedAt == nil {
			t.Errorf("the revoked token: %+v, %v", got, err)
		}
		list, err := st.Tokens(ctx)
		if err != nil || len(list) != 1 || list[0].RevokedAt == nil {
			t.Errorf("Tokens = %+v, %v", list, err)
		}
		if n, err := st.ActiveTokens(ctx); err != nil || n != 0 {
			t.Errorf("ActiveTokens = %d, %v", n, err)
		}
	})
}
