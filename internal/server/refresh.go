package server

import (
	"context"
	"runtime"
	"sync"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// refreshSignature asks for the signature of an incident's analysis to be recorded after its
// snapshots changed, so that it takes part in related-incident search, with the first time of
// its evidence, which dates it, and returns at once: the upload that asked is stored, and its
// client gets its answer without waiting for an analysis of the whole incident. What reads
// signatures or evidence times (the library's lists and counts, related incidents, the
// signature page, an export) first waits, through Settle, for the refreshes asked for before
// it, so that a client reads what its own uploads changed. A failure is logged: the upload
// that asked has been stored.
//
// An upload that stored new objects gives them (add, from storeSnapshotAdding): the refresh
// analyses those alone and adds what they show to the signature the incident had
// (refreshAdded; issue 30), without reading the incident back; the incident's full analysis
// runs when a page or the API asks for it, and the related-incident lookup stores what it
// says. Without add (a snapshot stored before and attached again, a Prometheus read, whose
// series are read against the incident's pods) the whole incident is analysed again
// (refreshOnce).
//
// Refreshes of one incident run one round at a time, and a round covers every upload stored
// before it started: uploads that end while a round runs are covered by the next round, one
// for all of them. So a burst of uploads to an incident costs a few analyses, not one each,
// and nothing runs once the rounds asked for are done. The state made is kept in the cache
// only when the incident is there already (someone is looking at it): a burst of uploads
// nobody views leaves no state behind. Close waits for the rounds running.
func (s *Server) refreshSignature(ctx context.Context, id string, add *addition) {
	ctx = context.WithoutCancel(ctx) // the request's values (for the log), not its end
	s.refreshes.queue(id, add)
	s.refreshes.start(id, func() {
		adds, whole := s.refreshes.take(id)
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(s.background, cancel)() // Close gave up waiting
		switch {
		case whole:
			for _, a := range adds {
				a.done() // the whole incident's analysis covers them
			}
			s.refreshOnce(ctx, id)
		case len(adds) > 0:
			s.refreshAdded(ctx, id, adds)
		}
	})
}

// addition is what an upload added to an incident: the objects it stored, as analysis reads
// them, and the names of the files they came from. It holds the upload's budget share
// (release) until done.
type addition struct {
	files   []string
	objects []*cluster.Object
	release func()
}

// done drops the objects and hands the budget share back.
func (a *addition) done() {
	a.files, a.objects = nil, nil
	if a.release != nil {
		a.release()
		a.release = nil
	}
}

// Settle waits until every signature refresh asked for before it was called has been made
// (those of the requests answered so far), or ctx ends: then the store holds all that those
// requests changed. Handlers that read signatures or evidence dates call it first.
func (s *Server) Settle(ctx context.Context) error { return s.refreshes.settle(ctx) }

// StartLayout starts the engine that lays out the causal chain, which otherwise starts on the
// first incident page (picture.Layouter.Start).
func (s *Server) StartLayout(ctx context.Context) error { return s.chains.Start(ctx) }

// Close waits for the signature refreshes running to finish, and cancels them when ctx ends
// first (returning its error); then it stops the Graphviz runtime that lays out the causal
// chains. Call it once no request runs.
func (s *Server) Close(ctx context.Context) error {
	defer func() {
		if err := s.chains.Close(); err != nil {
			s.log.Warn("closing the chain layouter", "error", err)
		}
	}()
	defer s.stopBackground()
	done := make(chan struct{})
	go func() { s.refreshes.running.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		s.stopBackground()
		<-done
		return ctx.Err()
	}
}

// refreshes are the rounds of signature refreshes, by incident, run in the background.
type refreshes struct {
	mu      sync.Mutex
	work    map[string]*refreshWork // what the next round of an incident is to cover
	cond    *sync.Cond
	rounds  map[string]*refreshRounds
	slots   chan struct{} // a slot for each round that may run at once, over every incident
	running sync.WaitGroup
}

// refreshRounds are an incident's: the last round asked for, started and finished, and
// whether a goroutine runs them. A waiter keeps the pointer after the incident's entry is
// dropped, so it reads done from it still.
type refreshRounds struct {
	wanted, started, done int
	running               bool
}

func (r *refreshes) init() {
	if r.rounds == nil {
		r.rounds, r.cond = map[string]*refreshRounds{}, sync.NewCond(&r.mu)
		r.slots = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	}
}

// refreshWork is what the next round of an incident covers: the additions of the uploads that
// gave theirs, and whether the whole incident is to be analysed again.
type refreshWork struct {
	adds  []*addition
	whole bool
}

// queue records what the next round of id is to cover: add, or the whole incident when add is nil.
func (r *refreshes) queue(id string, add *addition) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.work == nil {
		r.work = map[string]*refreshWork{}
	}
	w := r.work[id]
	if w == nil {
		w = &refreshWork{}
		r.work[id] = w
	}
	if add == nil {
		w.whole = true
	} else {
		w.adds = append(w.adds, add)
	}
}

// take returns what was queued for id's rounds since the last take, and forgets it: a round
// that starts after a queue takes it, and one that finds nothing (its work taken by the round
// before) does nothing.
func (r *refreshes) take(id string) (adds []*addition, whole bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	w := r.work[id]
	if w == nil {
		return nil, false
	}
	delete(r.work, id)
	return w.adds, w.whole
}

// start asks for a round of run for id that starts after start was called, and returns: a
// goroutine runs the incident's rounds until none is wanted, one at a time.
func (r *refreshes) start(id string, run func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.init()
	st := r.rounds[id]
	if st == nil {
		st = &refreshRounds{}
		r.rounds[id] = st
	}
	st.wanted = st.started + 1 // a round running began before this call: the next one covers it
	if st.running {
		return
	}
	st.running = true
	r.running.Add(1)
	go r.run(id, st, run)
}

// run runs the rounds of id wanted, each in a slot.
func (r *refreshes) run(id string, st *refreshRounds, run func()) {
	defer r.running.Done()
	r.mu.Lock()
	defer r.mu.Unlock()
	for st.done < st.wanted {
		st.started++
		round := st.started
		r.mu.Unlock()
		r.slots <- struct{}{}
		run()
		<-r.slots
		r.mu.Lock()
		st.done = round
		r.cond.Broadcast()
	}
	st.running = false
	delete(r.rounds, id)
}

// settle returns once every round wanted when it was called has finished, or ctx ends.
func (r *refreshes) settle(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.rounds) == 0 {
		return nil
	}
	type want struct {
		st *refreshRounds
		n  int
	}
	wants := make([]want, 0, len(r.rounds))
	for _, st := range r.rounds {
		wants = append(wants, want{st, st.wanted})
	}
	defer context.AfterFunc(ctx, func() {
		r.mu.Lock()
		r.cond.Broadcast()
		r.mu.Unlock()
	})()
	for _, w := range wants {
		for w.st.done < w.n {
			if err := ctx.Err(); err != nil {
				return err
			}
			r.cond.Wait()
		}
	}
	return nil
}
