// Package dbtarget reads where Rootline's database is (--database, ROOTLINE_DATABASE): a
// PostgreSQL URL or libpq keyword string, or a SQLite file; and hides the passwords such
// strings carry from logs and messages. It sits below both the configuration and the store.
package dbtarget

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// Dialect names the database behind a Store.
type Dialect string

// The two dialects Rootline runs on.
const (
	Postgres Dialect = "postgres"
	SQLite   Dialect = "sqlite"
)

// Target is a parsed database location.
type Target struct {
	Dialect Dialect
	DSN     string // what the driver is given
	Display string // what logs show: the password removed
}

// Parse reads a --database value: a postgres:// or postgresql:// URL, sqlite://PATH, or a
// plain file path (SQLite).
func Parse(database string) (Target, error) {
	switch {
	case database == "":
		return Target{}, errors.New("database: no database given")
	case strings.HasPrefix(database, "postgres://"), strings.HasPrefix(database, "postgresql://"):
		u, err := url.Parse(database)
		if err != nil {
			// url.Error quotes the whole URL, password and all: only its reason is kept.
			var ue *url.Error
			if errors.As(err, &ue) {
				err = ue.Err
			}
			return Target{}, fmt.Errorf("database: database URL %s: %s", Redact(database), Redact(err.Error()))
		}
		if q := u.Query(); q.Has("password") { // libpq and pgx also take the password here
			q.Set("password", "xxxxx")
			u.RawQuery = q.Encode()
		}
		return Target{Dialect: Postgres, DSN: database, Display: u.Redacted()}, nil
	case isKeywordDSN(database): // host=… user=… password=…, as libpq takes it
		return Target{Dialect: Postgres, DSN: database, Display: Redact(database)}, nil
	case strings.Contains(database, "://") && !strings.HasPrefix(database, "sqlite://"):
		return Target{}, fmt.Errorf("database: database %q: use postgres://… or a SQLite file path", Redact(database))
	}
	path := strings.TrimPrefix(database, "sqlite://")
	if path == "" {
		return Target{}, errors.New("database: sqlite:// needs a file path")
	}
	// WAL lets pages read while an upload writes; IMMEDIATE transactions take the write lock
	// up front, so two writers queue (busy_timeout) instead of failing on lock upgrade.
	q := url.Values{}
	for _, p := range []string{"busy_timeout(15000)", "journal_mode(WAL)", "foreign_keys(1)", "synchronous(NORMAL)"} {
		q.Add("_pragma", p)
	}
	// No _time_format: the driver's default is already SQLite's own format, and in this
	// driver version setting it makes the driver ignore _txlock.
	q.Set("_txlock", "immediate")
	return Target{Dialect: SQLite, DSN: "file:" + path + "?" + q.Encode(), Display: path}, nil
}

// URL userinfo (scheme://user:password@) and libpq keyword passwords (password=… or
// password='…'), as they appear in database strings and in the errors that quote them.
var (
	urlPassword     = regexp.MustCompile(`(?i)([a-z][a-z0-9+.-]*://[^:/@\s]*):[^@\s]*@`)
	keywordPassword = regexp.MustCompile(`(?i)\b(password|sslpassword)\s*=\s*('(?:[^'\\]|\\.)*'|[^\s&]*)`)
)

// Redact hides the passwords in a database string (a URL, a libpq keyword string, or
// text quoting either, such as an error), for logs and messages: user and host stay.
func Redact(s string) string {
	s = urlPassword.ReplaceAllString(s, "${1}:xxxxx@")
	return keywordPassword.ReplaceAllString(s, "${1}=xxxxx")
}

// libpqKeywords are the keywords that make a string a libpq connection string
// ("host=db user=app password=… dbname=rootline") rather than a file name.
var libpqKeywords = []string{"host", "hostaddr", "port", "dbname", "user", "password", "sslmode", "service", "connect_timeout", "application_name", "passfile"}

// isKeywordDSN reports whether s is a libpq keyword/value connection string: its first word is
// KEYWORD=… for one of libpq's keywords.
func isKeywordDSN(s string) bool {
	first, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	key, _, ok := strings.Cut(first, "=")
	if !ok {
		return false
	}
	key = strings.ToLower(strings.TrimSpace(key))
	for _, k := range libpqKeywords {
		if key == k {
			return true
		}
	}
	return false
}
