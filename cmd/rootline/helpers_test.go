package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// testStore opens and migrates a database for a test, as the commands do: database, or a new
// SQLite file when it is "". It is closed at the end of the test.
func testStore(t *testing.T, database string) *store.Store {
	t.Helper()
	if database == "" {
		database = filepath.Join(t.TempDir(), "rootline.db")
	}
	st, err := openStore(context.Background(), database)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// analyzeJSON runs `rootline analyze --format json` on path and returns what it printed.
func analyzeJSON(t *testing.T, path string) []byte {
	t.Helper()
	var out bytes.Buffer
	root := newRootCmd()
	root.SetOut(&out)
	root.SetErr(io.Discard)
	root.SetArgs([]string{"analyze", "--format", "json", path})
	if err := root.Execute(); err != nil {
		t.Fatalf("analyze %s: %v", path, err)
	}
	return out.Bytes()
}

// run executes the command line as the binary named rootline and returns the exit code.
func run(args []string) int { return runTo(args, os.Stderr) }

// runTo is run, saying why a command failed on stderr.
func runTo(args []string, stderr io.Writer) int { return runAs("rootline", args, stderr) }

// rowCounts counts the rows of every table of the database a command was given.
func rowCounts(t *testing.T, database string) map[string]int64 {
	t.Helper()
	tg, err := store.ParseTarget(database)
	if err != nil {
		t.Fatal(err)
	}
	return storetest.RowCounts(t, tg)
}
