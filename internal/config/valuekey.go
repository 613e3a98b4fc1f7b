package config

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rootline-dev/rootline/internal/dbtarget"
)

// valueKeyName is the file of the installation's value key beside a SQLite database.
const valueKeyName = "rootline-value.key"

// ValueKeyPath is where the installation's value key is kept when --value-key-file is not
// given: beside the SQLite database (as its own file, out of the database and its dumps), else
// rootline/value.key in the user's configuration folder. Replicas on one PostgreSQL must be
// given the same file.
func ValueKeyPath(c Config) (string, error) {
	if c.ValueKeyFile != "" {
		return c.ValueKeyFile, nil
	}
	if c.Database.Dialect == dbtarget.SQLite {
		return filepath.Join(filepath.Dir(c.Database.Display), valueKeyName), nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("value key: no --value-key-file and no user configuration folder: %w", err)
	}
	return filepath.Join(dir, "rootline", "value.key"), nil
}

// LoadValueKey reads the installation's value key at path (64 hexadecimal digits), making it
// when the file does not exist: 32 random bytes, written readable by its owner alone. The key
// keys the hashes that stand for ConfigMaps' values (change.KeyValues), so that what is stored
// of them cannot be matched against guessed values without it; a new key makes every value
// stored before it look changed once.
func LoadValueKey(path string) (key []byte, created bool, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		key = make([]byte, 32)
		_, _ = rand.Read(key) // crypto/rand never fails
		if err := writeNew(path, hex.EncodeToString(key)+"\n"); errors.Is(err, fs.ErrExist) {
			return LoadValueKey(path) // another process made it first: take its
		} else if err != nil {
			return nil, false, fmt.Errorf("value key %s: %w", path, err)
		}
		return key, true, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("value key %s: %w", path, err)
	}
	key, err = hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(key) < 16 {
		return nil, false, fmt.Errorf("value key %s: want 32 hexadecimal digits or more (openssl rand -hex 32)", path)
	}
	return key, false, nil
}

// writeNew writes a new file at path, readable by its owner alone, whole or not at all: it is
// written beside it and linked into place, so that a process starting beside this one never
// reads it half written; fs.ErrExist when path exists.
func writeNew(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	_, werr := tmp.WriteString(text)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return werr
	}
	return os.Link(tmp.Name(), path) // fails with fs.ErrExist rather than replace
}
