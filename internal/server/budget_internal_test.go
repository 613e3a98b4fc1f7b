package server

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/inputsize"
)

// TestBudgetAdmits: requests take their cost from the budget; one that does not fit waits,
// and is answered 503 when nothing frees room within the wait; one larger than the whole
// budget runs alone; the memory is handed back when the last one ends.
func TestBudgetAdmits(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

// TestPastedTextCost: a large paste of kubectl text is charged as the objects it becomes,
// TextGrowth times its size, as `rootline analyze` estimates it, not as its bytes: a table
// row of 100 bytes becomes a whole pod. Before one estimator served both, the server charged
// the text's size and let many large pastes decode at once past the budget.
func TestPastedTextCost(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	row := "app-7c9d8f-x2k4p   0/1     CrashLoopBackOff   12 (3m ago)   41m\n"
	text := []byte("NAME                READY   STATUS             RESTARTS      AGE\n" + strings.Repeat(row, 40000))
	path := filepath.Join(dir, "upload")
	if err := os.WriteFile(path, text, 0o600); err != nil {
		t.Fatal(err)
	}
	sp := &spool{files: []spooledFile{{name: "pods.txt", path: path, size: int64(len(text))}}}
	if got, want := sp.cost(1<<30), int64(costBase+costPerByte*inputsize.TextGrowth*len(text)); got < want {
		t.Errorf("a %d-byte paste costs %d, less than the %d its objects take (%d per byte of text)", len(text), got, want, costPerByte*inputsize.TextGrowth)
	}
}
