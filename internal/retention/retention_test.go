package retention

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/store"
)

type fakeExpirer struct {
	mu    sync.Mutex
	calls []time.Duration
	errs  []error
	n     store.Expired
	ran   chan struct{}
}

func (f *fakeExpirer) Expire(_ context.Context, _ time.Time, age time.Duration) (store.Expired, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, age)
	var err error
	if len(f.errs) > 0 {
		err, f.errs = f.errs[0], f.errs[1:]
	}
	select {
	case f.ran <- struct{}{}:
	default:
	}
	return f.n, err
}

// TestLoop: the loop expires at start and then again, logs what went and what failed, goes on
// after a failure, and stops with its context.
func TestLoop(t *testing.T) {
	f := &fakeExpirer{errs: []error{errors.New("database away")}, n: store.Expired{Snapshots: 2}, ran: make(chan struct{}, 10)}
	var logs bytes.Buffer
	var mu sync.Mutex
	log := slog.New(slog.NewTextHandler(&lockedWriter{w: &logs, mu: &mu}, nil))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		Loop{Expirer: f, Age: 90 * 24 * time.Hour, Every: 10 * time.Millisecond, Log: log}.Run(ctx)
		close(done)
	}()
	for range 3 {
		select {
		case <-f.ran:
		case <-time.After(10 * time.Second):
			t.Fatal("the loop did not run again")
		}
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the loop did not stop with its context")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, age := range f.calls {
		if age != 90*24*time.Hour {
			t.Errorf("expired with age %v", age)
		}
	}
	mu.Lock()
	out := logs.String()
	mu.Unlock()
	for _, want := range []string{"expiry failed", "database away", "expired raw evidence", "snapshots=2"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
