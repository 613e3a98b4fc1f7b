package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rootline-dev/rootline/internal/testenv"
)

// TestFilePages: the RssFile line of /proc/PID/status is read in bytes, and a status without
// one, or with a value that is not a number, reads as nothing.
func TestFilePages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []struct {
		name, status string
		want         int64
		ok           bool
	}{
		{"kernel's", "Name:\trootline\nVmHWM:\t  202608 kB\nRssAnon:\t  154780 kB\nRssFile:\t   47532 kB\nRssShmem:\t       0 kB\n", 47532 << 10, true},
		{"none", "Name:\trootline\nVmHWM:\t  202608 kB\n", 0, false},
		{"not a number", "RssFile:\t  lots kB\n", 0, false},
	} {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.status), 0o600); err != nil {
			t.Fatal(err)
		}
		got, ok := filePages(path)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: %d, %v; want %d, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// TestWatchFilePagesOfThisProcess: watching a live process (this test's own) reads its file
// pages, its binary's code at least, until told to stop.
func TestWatchFilePagesOfThisProcess(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/status"); err != nil {
		testenv.Missing(t, "no /proc here: %v", err)
	}
	done := make(chan struct{})
	close(done)
	if got := watchFilePages(os.Getpid(), done); got <= 0 {
		t.Errorf("file pages of a running process: %d", got)
	}
}
