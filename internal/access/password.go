package access

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Passwords of local accounts are stored as argon2id hashes in the PHC string format
// ($argon2id$v=19$m=…,t=…,p=…$salt$hash), with the parameters OWASP recommends for argon2id:
// 19 MiB, two passes, one lane. The parameters travel with each hash, so they can be raised
// later without making the stored ones unreadable.
const (
	argonMemory  = 19 * 1024 // KiB
	argonTime    = 2
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16

	// MinPasswordLen and MaxPasswordLen bound a password, in characters.
	MinPasswordLen = 12
	MaxPasswordLen = 256
)

// ErrBadHash is returned for a stored hash that is not one HashPassword writes.
var ErrBadHash = errors.New("not an argon2id password hash")

// ValidPassword checks a new password's length.
func ValidPassword(pw string) error {
	n := utf8.RuneCountInString(pw)
	switch {
	case n < MinPasswordLen:
		return fmt.Errorf("password too short: at least %d characters", MinPasswordLen)
	case n > MaxPasswordLen:
		return fmt.Errorf("password too long: at most %d characters", MaxPasswordLen)
	}
	return nil
}

// HashPassword returns the hash to store for a password.
func HashPassword(pw string) (string, error) {
	if err := ValidPassword(pw); err != nil {
		return "", err
	}
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("access: salt: %w", err)
	}
	key := argon2.IDKey([]byte(pw), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// CheckPassword reports whether pw is the password of hash, in time that does not depend on
// how much of it matches.
func CheckPassword(hash, pw string) (bool, error) {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return false, ErrBadHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, ErrBadHash
	}
	var mem, passes uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &mem, &passes, &threads); err != nil ||
		mem == 0 || mem > 1<<20 || passes == 0 || passes > 10 || threads == 0 {
		return false, ErrBadHash
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil || len(salt) < 8 {
		return false, ErrBadHash
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) < 16 || len(want) > 64 {
		return false, ErrBadHash
	}
	if utf8.RuneCountInString(pw) > MaxPasswordLen {
		return false, nil
	}
	got := argon2.IDKey([]byte(pw), salt, passes, mem, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// dummyHash is checked when a name has no account, so that an unknown name takes as long to
// refuse as a wrong password.
var dummyHash = sync.OnceValue(func() string {
	h, err := HashPassword("not the password of anyone")
	if err != nil {
		panic(err)
	}
	return h
})

// WasteTime spends the time a password check takes, for a sign-in with an unknown name.
func WasteTime(pw string) { _, _ = CheckPassword(dummyHash(), pw) }
