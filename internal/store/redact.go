package store

import (
	"regexp"
	"strings"
)

// URL userinfo (scheme://user:password@) and libpq keyword passwords (password=… or
// password='…'), as they appear in database strings and in the errors that quote them.
var (
	urlPassword     = regexp.MustCompile(`(?i)([a-z][a-z0-9+.-]*://[^:/@\s]*):[^@\s]*@`)
	keywordPassword = regexp.MustCompile(`(?i)\b(password|sslpassword)\s*=\s*('(?:[^'\\]|\\.)*'|[^\s&]*)`)
)

// RedactDatabase hides the passwords in a database string (a URL, a libpq keyword string, or
// text quoting either, such as an error), for logs and messages: user and host stay.
func RedactDatabase(s string) string {
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

// redactedError is an error whose text has the database passwords hidden; errors.Is and As
// still see the error it wraps.
type redactedError struct{ err error }

func (e redactedError) Error() string { return RedactDatabase(e.err.Error()) }
func (e redactedError) Unwrap() error { return e.err }
