package store

import (
	"context"
	"time"

	"github.com/rootline-dev/rootline/internal/access"
)

// Session is a person signed in to the pages.
type Session struct {
	Person    string       // an account's name, or "oidc:" and the address of someone signed in by OpenID Connect
	Scope     access.Scope // what the person may do
	CreatedAt time.Time
	ExpiresAt time.Time
}

type sessionRow struct {
	Hash      string `gorm:"primaryKey"`
	Person    string
	Scope     string
	CreatedAt time.Time
	ExpiresAt time.Time
}

func (sessionRow) TableName() string { return "sessions" }

// CreateSession starts a session for a person, lasting ttl, and returns the secret for its
// cookie: only its hash is stored. Sessions that have expired are deleted on the way.
func (s *Store) CreateSession(ctx context.Context, person string, scope access.Scope, ttl time.Duration) (string, Session, error) {
	if _, err := access.ParseScope(string(scope)); err != nil {
		return "", Session{}, err
	}
	secret, hash, err := access.NewToken()
	if err != nil {
		return "", Session{}, err
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	row := sessionRow{Hash: hash, Person: person, Scope: string(scope), CreatedAt: now, ExpiresAt: now.Add(ttl)}
	db := s.db.WithContext(ctx)
	if err := db.Where("expires_at < ?", now).Delete(&sessionRow{}).Error; err != nil {
		return "", Session{}, wrap(err, "delete expired sessions")
	}
	if err := db.Create(&row).Error; err != nil {
		return "", Session{}, wrap(err, "create session")
	}
	return secret, row.session(), nil
}

func (r sessionRow) session() Session {
	return Session{Person: r.Person, Scope: access.Scope(r.Scope), CreatedAt: r.CreatedAt.UTC(), ExpiresAt: r.ExpiresAt.UTC()}
}

// SessionFor returns the session a cookie's secret is; ErrNotFound when there is none or it
// expired.
func (s *Store) SessionFor(ctx context.Context, secret string) (Session, error) {
	var rows []sessionRow
	err := s.db.WithContext(ctx).Where("hash = ? AND expires_at > ?", access.Hash(secret), time.Now().UTC()).Limit(1).Find(&rows).Error
	if err != nil {
		return Session{}, wrap(err, "find session")
	}
	if len(rows) == 0 {
		return Session{}, wrap(ErrNotFound, "find session")
	}
	return rows[0].session(), nil
}

// EndSession deletes the session of a cookie's secret; ending one that does not exist is no
// error.
func (s *Store) EndSession(ctx context.Context, secret string) error {
	err := s.db.WithContext(ctx).Where("hash = ?", access.Hash(secret)).Delete(&sessionRow{}).Error
	if err != nil {
		return wrap(err, "end session")
	}
	return nil
}
