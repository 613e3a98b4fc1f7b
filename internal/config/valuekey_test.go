package config

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestLoadValueKey: a missing key file is made (32 bytes, owner-only), then read back the same;
// a file that is not a key is refused with its path.
func TestLoadValueKey(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sub", "value.key")
	key, created, err := LoadValueKey(path)
	if err != nil || !created || len(key) != 32 {
		t.Fatalf("first load: %d bytes, created %v, %v", len(key), created, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the key file: %v, %v; want mode 0600", fi, err)
	}
	again, created, err := LoadValueKey(path)
	if err != nil || created || string(again) != string(key) {
		t.Errorf("second load: created %v, %v, same key %v", created, err, string(again) == string(key))
	}
	bad := filepath.Join(t.TempDir(), "bad.key")
	if err := os.WriteFile(bad, []byte("hunter2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadValueKey(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("a file that is not a key: %v", err)
	}
}

// TestLoadValueKeyConcurrent: processes starting together on one missing key file all take the
// same key, none a half-written file.
func TestLoadValueKeyConcurrent(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "value.key")
	keys := make([][]byte, 16)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() {
			key, _, err := LoadValueKey(path)
			if err != nil {
				t.Error(err)
			}
			keys[i] = key
		})
	}
	wg.Wait()
	for i, k := range keys {
		if string(k) != string(keys[0]) {
			t.Errorf("process %d took another key", i)
		}
	}
}
