package server

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestRefreshRounds: callers that come while a round runs share the next round; every caller
// returns only after a round that started after it came; nothing is left running.
func TestRefreshRounds(t *testing.T) {
	var r refreshes
	var rounds atomic.Int32
	var mu sync.Mutex
	var startedAt []time.Time
	run := func() {
		mu.Lock()
		startedAt = append(startedAt, time.Now())
		mu.Unlock()
		rounds.Add(1)
		time.Sleep(30 * time.Millisecond)
	}
	var wg sync.WaitGroup
	for range 40 {
		wg.Go(func() {
			came := time.Now()
			r.wait("a", run)
			mu.Lock()
			defer mu.Unlock()
			covered := false
			for _, s := range startedAt {
				if !s.Before(came) {
					covered = true
				}
			}
			if !covered {
				t.Error("a caller returned before any round that started after it came")
			}
		})
		time.Sleep(2 * time.Millisecond)
	}
	wg.Wait()
	if n := rounds.Load(); n < 2 || n > 10 {
		t.Errorf("%d rounds for 40 callers over about 80 ms of 30 ms rounds", n)
	}
	if len(r.rounds) != 0 {
		t.Errorf("state left behind: %v", r.rounds)
	}
	r.wait("a", run) // alone: runs at once
	if n := rounds.Load(); n < 3 {
		t.Error("a caller alone did not run a round")
	}
}
