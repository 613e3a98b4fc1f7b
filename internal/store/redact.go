package store

import "github.com/rootline-dev/rootline/internal/dbtarget"

// RedactDatabase hides the passwords in a database string, for logs and messages
// (dbtarget.Redact).
func RedactDatabase(s string) string { return dbtarget.Redact(s) }

// redactedError is an error whose text has the database passwords hidden; errors.Is and As
// still see the error it wraps.
type redactedError struct{ err error }

func (e redactedError) Error() string { return RedactDatabase(e.err.Error()) }
func (e redactedError) Unwrap() error { return e.err }
