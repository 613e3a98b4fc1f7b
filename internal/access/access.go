// Package access says who may do what: API tokens, their scopes, and what a request needs.
// A token is a random secret shown once; only its SHA-256 is stored, which is enough for a
// secret of 256 random bits (no password stretching needed: there is nothing to guess).
package access

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
)

// Scope is what a token may do. Each scope allows what the ones before it allow.
type Scope string

// The scopes.
const (
	Read  Scope = "read"  // read incidents, analyses, timelines, the library
	Write Scope = "write" // also upload, create and edit incidents, notes, signatures; collect
	Admin Scope = "admin" // also manage tokens
)

var rank = map[Scope]int{Read: 1, Write: 2, Admin: 3}

// ParseScope reads a scope's name.
func ParseScope(s string) (Scope, error) {
	if _, ok := rank[Scope(s)]; !ok {
		return "", fmt.Errorf("scope %q: use read, write or admin", s)
	}
	return Scope(s), nil
}

// Allows reports whether a token of scope s may do what needs scope need.
func (s Scope) Allows(need Scope) bool { return rank[s] > 0 && rank[s] >= rank[need] }

// Needed is the scope a request needs: reading for safe methods, writing for the others.
func Needed(method string) Scope {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return Read
	}
	return Write
}

// tokenPrefix marks Rootline's tokens, so that scanners for leaked secrets can find them.
const tokenPrefix = "rl_"

// NewToken returns a new random token and its hash, the only part to store.
func NewToken() (token, hash string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", fmt.Errorf("access: new token: %w", err)
	}
	token = tokenPrefix + base64.RawURLEncoding.EncodeToString(b)
	return token, Hash(token), nil
}

// Hash is what is stored of a token.
func Hash(token string) string {
	h := sha256.Sum256([]byte(strings.TrimSpace(token)))
	return hex.EncodeToString(h[:])
}

// ValidName checks a token's name: 1 to 64 letters, digits, '-', '_' or '.'.
func ValidName(name string) error {
	if name == "" || len(name) > 64 {
		return fmt.Errorf("token name %q: 1 to 64 characters", name)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return fmt.Errorf("token name %q: only letters, digits, '-', '_' and '.'", name)
		}
	}
	return nil
}
