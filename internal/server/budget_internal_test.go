package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// TestBudgetAdmits: requests take their cost from the budget; one that does not fit waits,
// and is answered 503 when nothing frees room within the wait; one larger than the whole
// budget runs alone; the memory is handed back when the last one ends.
func TestBudgetAdmits(t *testing.T) {
	b := newBudget(100, 4, 50*time.Millisecond)
	var freed atomic.Int32
	b.freeOS = func() { freed.Add(1) }
	ctx := t.Context()
	r1, err := b.acquire(ctx, 60)
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.acquire(ctx, 60)
	var he *httpError
	if !errors.As(err, &he) || he.Status != http.StatusServiceUnavailable {
		t.Fatalf("a second 60 of 100: %v, want 503", err)
	}
	got := make(chan error, 1)
	b.wait = 5 * time.Second
	go func() {
		r, err := b.acquire(ctx, 1000) // larger than the budget: takes all of it, once free
		if err == nil {
			r()
		}
		got <- err
	}()
	time.Sleep(20 * time.Millisecond)
	select {
	case err := <-got:
		t.Fatalf("the whole budget was taken while 60 was held: %v", err)
	default:
	}
	r1()
	if err := <-got; err != nil {
		t.Fatalf("after the release: %v", err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for freed.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if freed.Load() == 0 {
		t.Error("the memory was not handed back once nothing ran")
	}
	cctx, cancel := context.WithCancel(ctx)
	hold, _ := b.acquire(ctx, 100)
	cancel()
	if _, err := b.acquire(cctx, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("a client gone while waiting: %v, want context.Canceled", err)
	}
	hold()
}

// TestBudgetSlots: no more requests run at once than there are worker slots, whatever their
// cost.
func TestBudgetSlots(t *testing.T) {
	b := newBudget(1<<30, 2, 30*time.Millisecond)
	r1, _ := b.acquire(t.Context(), 1)
	r2, _ := b.acquire(t.Context(), 1)
	if _, err := b.acquire(t.Context(), 1); err == nil {
		t.Fatal("a third request ran with two slots")
	}
	r1()
	r3, err := b.acquire(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	r2()
	r3()
}

// TestDecodedSize: a gzip file is costed by the size it says it unpacks to, capped by the
// decoding limit; other files by their size.
func TestDecodedSize(t *testing.T) {
	dir := t.TempDir()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(make([]byte, 10<<20))
	zw.Close()
	gz := filepath.Join(dir, "z.gz")
	os.WriteFile(gz, b.Bytes(), 0o600)
	plain := filepath.Join(dir, "p.json")
	os.WriteFile(plain, make([]byte, 1000), 0o600)
	for _, tc := range []struct {
		path        string
		size, limit int64
		want        int64
	}{
		{gz, int64(b.Len()), 1 << 30, 10 << 20},
		{gz, int64(b.Len()), 1 << 20, 1 << 20},
		{plain, 1000, 1 << 30, 1000},
	} {
		if got := decodedSize(tc.path, tc.size, tc.limit); got != tc.want {
			t.Errorf("%s limit %d: %d, want %d", filepath.Base(tc.path), tc.limit, got, tc.want)
		}
	}
}
