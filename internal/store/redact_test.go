package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDatabasePasswordsHidden: a database string's password appears in no error and no
// display, whatever its form, and a libpq keyword string is PostgreSQL, not a file name.
func TestDatabasePasswordsHidden(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in      string
		dialect Dialect // "" when ParseTarget refuses it
	}{
		{"postgres://postgres:hun%zzter2@127.0.0.1:5432/db", ""},
		{"postgresql://app:hunter2@db/rootline?sslmode=disable", Postgres},
		{"postgres://app@db/rootline?password=hunter2", Postgres},
		{"host=127.0.0.1 user=postgres password=hunter2 dbname=rootline", Postgres},
		{"password='hunter2 x' host=db", Postgres},
		{"mysql://root:hunter2@db/x", ""},
	} {
		tg, err := ParseTarget(tc.in)
		text := tg.Display
		if err != nil {
			text = err.Error()
		}
		if strings.Contains(text, "hunter2") || strings.Contains(text, "hun%zzter2") || strings.Contains(text, "zzter") {
			t.Errorf("%q: the password shows: %s", tc.in, text)
		}
		if tg.Dialect != tc.dialect {
			t.Errorf("%q: dialect %q (error %v), want %q", tc.in, tg.Dialect, err, tc.dialect)
		}
	}
	if got := RedactDatabase(`cannot parse "postgres://u:s3cret@h/db": bad`); strings.Contains(got, "s3cret") || !strings.Contains(got, "postgres://u:xxxxx@h/db") {
		t.Errorf("RedactDatabase: %s", got)
	}
}

// TestKeywordDSNIsNotAFile: a libpq keyword string that cannot connect fails as PostgreSQL,
// without its password, and leaves no file of its name behind.
func TestKeywordDSNIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	dsn := "host=127.0.0.1 port=1 user=postgres password=hunter2 dbname=none connect_timeout=1"
	tg, err := ParseTarget(dsn)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(context.Background(), tg, nil)
	if err == nil {
		t.Fatal("connected to port 1")
	}
	if strings.Contains(err.Error(), "hunter2") {
		t.Errorf("the error shows the password: %v", err)
	}
	var re redactedError
	if !errors.As(err, &re) {
		t.Errorf("the error does not wrap its cause: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		t.Errorf("a file was made: %s", filepath.Join(dir, e.Name()))
	}
}
