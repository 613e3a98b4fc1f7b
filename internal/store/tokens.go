package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/rootline-dev/rootline/internal/access"
)

// Token is an API token as stored: never the secret itself.
type Token struct {
	Name      string
	Scope     access.Scope
	CreatedAt time.Time
	RevokedAt *time.Time
}

type tokenRow struct {
	Name      string `gorm:"primaryKey"`
	Scope     string
	Hash      string
	CreatedAt time.Time
	RevokedAt *time.Time
}

func (tokenRow) TableName() string { return "api_tokens" }

func (r tokenRow) token() Token {
	t := Token{Name: r.Name, Scope: access.Scope(r.Scope), CreatedAt: r.CreatedAt.UTC()}
	if r.RevokedAt != nil {
		at := r.RevokedAt.UTC()
		t.RevokedAt = &at
	}
	return t
}

// ErrTokenRevoked is returned for a token that was revoked.
var ErrTokenRevoked = errors.New("token revoked")

// CreateToken makes a token of a scope under a name, and returns its secret: the only time it
// is known. ErrExists when a token (even revoked) has that name.
func (s *Store) CreateToken(ctx context.Context, name string, scope access.Scope) (string, Token, error) {
	if err := access.ValidName(name); err != nil {
		return "", Token{}, err
	}
	if _, err := access.ParseScope(string(scope)); err != nil {
		return "", Token{}, err
	}
	secret, hash, err := access.NewToken()
	if err != nil {
		return "", Token{}, err
	}
	row := tokenRow{Name: name, Scope: string(scope), Hash: hash, CreatedAt: time.Now().UTC().Truncate(time.Microsecond)}
	if err := s.insertNamed(ctx, "token", name, &row); err != nil {
		return "", Token{}, err
	}
	return secret, row.token(), nil
}

// insertNamed inserts the row of a token or an account, whose primary key is its name: ErrExists
// when one (even revoked or disabled) has it.
func (s *Store) insertNamed(ctx context.Context, what, name string, row any) error {
	article := "a"
	if strings.ContainsAny(what[:1], "aeiou") {
		article = "an"
	}
	taken := fmt.Errorf("%s %s named %s exists already: %w", article, what, name, ErrExists)
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(row).Where("name = ?", name).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return taken
		}
		return tx.Create(row).Error
	})
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		err = taken
	}
	return wrap(err, "create %s", what)
}

// Tokens lists the tokens, revoked ones too, by name.
func (s *Store) Tokens(ctx context.Context) ([]Token, error) {
	var rows []tokenRow
	if err := s.db.WithContext(ctx).Order("name").Find(&rows).Error; err != nil {
		return nil, wrap(err, "list tokens")
	}
	out := make([]Token, len(rows))
	for i, r := range rows {
		out[i] = r.token()
	}
	return out, nil
}

// RevokeToken revokes a token by name; ErrNotFound when there is none. Revoking a revoked
// token changes nothing.
func (s *Store) RevokeToken(ctx context.Context, name string) error {
	res := s.db.WithContext(ctx).Model(&tokenRow{}).Where("name = ?", name).
		UpdateColumn("revoked_at", gorm.Expr("coalesce(revoked_at, ?)", time.Now().UTC().Truncate(time.Microsecond)))
	if res.Error != nil {
		return wrap(res.Error, "revoke token %s", name)
	}
	if res.RowsAffected == 0 {
		return wrap(ErrNotFound, "revoke token %s", name)
	}
	return nil
}

// TokenFor returns the token a secret is; ErrNotFound for no token, ErrTokenRevoked (with
// the token) for a revoked one.
func (s *Store) TokenFor(ctx context.Context, secret string) (Token, error) {
	var rows []tokenRow
	if err := s.db.WithContext(ctx).Where("hash = ?", access.Hash(secret)).Limit(1).Find(&rows).Error; err != nil {
		return Token{}, wrap(err, "find token")
	}
	if len(rows) == 0 {
		return Token{}, wrap(ErrNotFound, "find token")
	}
	t := rows[0].token()
	if t.RevokedAt != nil {
		return t, ErrTokenRevoked
	}
	return t, nil
}

// ActiveTokens counts the tokens not revoked.
func (s *Store) ActiveTokens(ctx context.Context) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Model(&tokenRow{}).Where("revoked_at IS NULL").Count(&n).Error
	return n, wrap(err, "count tokens")
}
