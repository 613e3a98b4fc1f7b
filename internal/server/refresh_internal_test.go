package server

import (
	"sync"
	"testing"
	"time"
)

// TestRefreshRounds: callers that come while a round runs share the next round, run by one of
// them; every caller returns only once a round that started after it came has finished; nothing
// is left behind.
func TestRefreshRounds(t *testing.T) {
	var r refreshes
	release := make(chan struct{})
	var mu sync.Mutex
	rounds := 0
	run := func() {
		mu.Lock()
		rounds++
		first := rounds == 1
		mu.Unlock()
		if first {
			<-release // the first round runs until every caller has come
		}
	}
	waiting := func() int {
		r.mu.Lock()
		defer r.mu.Unlock()
		if st := r.rounds["a"]; st != nil {
			return st.waiting
		}
		return 0
	}
	var wg sync.WaitGroup
	returned := make(chan int, 40)
	wg.Go(func() { r.wait("a", run); returned <- 0 })
	for deadline := time.Now().Add(5 * time.Second); waiting() < 1; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the first caller never started its round")
		}
	}
	for i := 1; i < 40; i++ {
		wg.Go(func() { r.wait("a", run); returned <- i })
	}
	for deadline := time.Now().Add(5 * time.Second); waiting() < 40; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d callers waiting, want 40", waiting())
		}
	}
	select {
	case i := <-returned:
		t.Fatalf("caller %d returned while the first round still ran", i)
	default:
	}
	close(release)
	wg.Wait()
	if rounds != 2 {
		t.Errorf("%d rounds, want 2: the first, and one for the 39 that came during it", rounds)
	}
	if len(r.rounds) != 0 {
		t.Errorf("state left behind: %v", r.rounds)
	}
	r.wait("a", run) // alone: runs a round at once
	if rounds != 3 {
		t.Errorf("a caller alone: %d rounds, want 3", rounds)
	}
}
