package server

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/rootline-dev/rootline/internal/inputsize"
)

// Memory per decoded byte. Decoding and storing an upload holds its objects (the decoded form
// of a byte of kubectl JSON) and the rows of the current batch: measured at about 3 bytes per
// byte of input for a 34 MiB pod list and 5 for a 5 MiB one (RSS of `rootline serve` above
// idle, one upload at a time, scripts/loadtest --burst). The budget counts 4, plus a fixed
// part for the decoder's buffers and the transaction. On SQLite an upload is charged besides the
// page cache its transaction may fill, memory outside Go's heap, as the store sizes it from the
// decoded bytes (store.BulkCache: some 2 bytes a byte, within what the budget holds beside).
//
// Loading and analysing an incident costs about 12 KiB per object (pods, nodes, events): the
// peak of `rootline analyze` on a generated 20,000-pod cluster was about 280 MB.
//
// A saved Prometheus answer costs more than its bytes say when it holds many small series: each
// is a map of labels while the answer is read (BenchmarkDecodeManySeries in internal/metrics:
// 703 MB allocated for 572,000 one-sample series in 52 MB, some 870 bytes a series beyond the
// bytes' charge). The budget counts 1 KiB a series (inputsize.Series).
const (
	costPerByte   = 4
	costBase      = 16 << 20
	costPerObject = 12 << 10
	costPerSeries = 1 << 10
)

// budget admits the uploads and collector batches that are decoded and stored at once, so that
// the memory they take together stays within the configured budget whatever the number of
// requests: each takes its estimated cost from a weighted semaphore (first come, first served)
// and one of a few worker slots, after it has been received whole into the spool (which costs
// disk, not memory). One that cannot start within the wait is answered 503 with Retry-After,
// having stored nothing; so is one that arrives while too many wait already. When the last
// request in flight ends, the memory the burst used is handed back to the system.
type budget struct {
	total   int64
	sem     *semaphore.Weighted
	slots   chan struct{}
	wait    time.Duration
	waiting atomic.Int64
	maxWait int64 // requests that may wait at once
	running atomic.Int64

	freeMu   sync.Mutex
	lastFree time.Time
	pending  bool // a giveBack is due
	freeGap  time.Duration
	freeOS   func() // debug.FreeOSMemory; replaced in tests
}

func newBudget(total int64, workers int, wait time.Duration) *budget {
	if workers < 1 {
		workers = max(2, runtime.GOMAXPROCS(0))
	}
	return &budget{
		total: total, sem: semaphore.NewWeighted(total), slots: make(chan struct{}, workers), wait: wait,
		maxWait: 256, freeGap: 5 * time.Second, freeOS: debug.FreeOSMemory,
	}
}

// errBusy answers a request that found no room in the budget in time.
func errBusy(why string) error {
	return &httpError{Status: http.StatusServiceUnavailable, Msg: "the server is busy with other uploads (" + why + "); nothing was stored: send it again later"}
}

// acquire waits for a worker slot and cost bytes of the budget (the whole budget at most: a
// request larger than it runs alone). It gives up with 503 after the wait, or with the
// context's error when the client goes. release must be called once it is done.
func (b *budget) acquire(ctx context.Context, cost int64) (release func(), err error) {
	sh, err := b.acquireSplit(ctx, cost, 0)
	if err != nil {
		return nil, err
	}
	return sh.release, nil
}

// acquireSplit is acquire of cost and extra bytes as one share, of which the extra part may be
// given back ahead of the rest (share.releaseExtra): memory a request needs only for a while,
// as the page cache of an upload's transaction on SQLite.
func (b *budget) acquireSplit(ctx context.Context, cost, extra int64) (*share, error) {
	whole := min(max(cost+extra, 1), b.total)
	early := min(max(extra, 0), whole-1) // what stays until release is 1 at least, as for acquire
	if b.waiting.Add(1) > b.maxWait {
		b.waiting.Add(-1)
		return nil, errBusy(fmt.Sprintf("%d requests wait already", b.maxWait))
	}
	defer b.waiting.Add(-1)
	wctx, cancel := context.WithTimeout(ctx, b.wait)
	defer cancel()
	select {
	case b.slots <- struct{}{}:
	case <-wctx.Done():
		return nil, b.waitErr(ctx)
	}
	if err := b.sem.Acquire(wctx, whole); err != nil {
		<-b.slots
		return nil, b.waitErr(ctx)
	}
	b.running.Add(1)
	return &share{b: b, whole: whole, early: early}, nil
}

// share is what a request holds of the budget: bytes, and a worker slot while it works.
type share struct {
	b                 *budget
	whole, early      int64
	extra, slot, done sync.Once
}

// releaseExtra gives back the extra bytes of acquireSplit ahead of the rest.
func (s *share) releaseExtra() { s.extra.Do(func() { s.b.sem.Release(s.early) }) }

// releaseSlot gives back the worker slot and keeps the bytes: a request done with the
// processors whose memory is still in use, as an upload's objects kept for the refresh of its
// incident's signature, which runs in slots of its own. A slot kept until that refresh had
// uploads to one incident wait on each other: the refresh of the incident that covers them,
// when it analyses the whole incident, waits for a slot too.
func (s *share) releaseSlot() { s.slot.Do(func() { <-s.b.slots }) }

// release gives back all that is still held.
func (s *share) release() {
	s.done.Do(func() {
		s.releaseExtra()
		s.b.sem.Release(s.whole - s.early)
		s.releaseSlot()
		if s.b.running.Add(-1) == 0 {
			s.b.giveBack()
		}
	})
}

// reserve waits for cost bytes of the budget, without a worker slot: memory that a request
// keeps while it waits on something else than the CPU (a Prometheus read's series, kept between
// answers that each take a slot of their own to be read). It gives up as acquire does.
func (b *budget) reserve(ctx context.Context, cost int64) (release func(), err error) {
	cost = min(max(cost, 1), b.total)
	wctx, cancel := context.WithTimeout(ctx, b.wait)
	defer cancel()
	if err := b.sem.Acquire(wctx, cost); err != nil {
		return nil, b.waitErr(ctx)
	}
	var once sync.Once
	return func() { once.Do(func() { b.sem.Release(cost) }) }, nil
}

func (b *budget) waitErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err // the client went: no one to answer
	}
	return errBusy(fmt.Sprintf("no room within %s", b.wait))
}

// giveBack returns the heap freed by a burst to the system soon after it ends, instead of over
// the minutes the runtime's scavenger would take: at most once every freeGap, since it costs a
// collection, and then only if nothing started meanwhile (what did gives it back when it ends).
func (b *budget) giveBack() {
	b.freeMu.Lock()
	defer b.freeMu.Unlock()
	if b.pending {
		return
	}
	b.pending = true
	// A second at least: the handler that released its share may still hold what it made
	// (an answer being written, a state being read) for a moment.
	time.AfterFunc(max(b.freeGap-time.Since(b.lastFree), time.Second), func() {
		b.freeMu.Lock()
		b.pending, b.lastFree = false, time.Now()
		b.freeMu.Unlock()
		if b.running.Load() == 0 {
			b.freeOS()
		}
	})
}

// cost is the budget a spooled upload takes while it is decoded and stored: its files by the
// size of what they are once read (decoded), saved Prometheus answers by their series too
// (inputsize.Series). On SQLite an upload stored as a snapshot takes its page cache besides
// (storeSnapshotAdding).
func (sp *spool) cost(limit int64) int64 {
	n := costBase + costPerByte*sp.decoded(limit)
	for _, f := range sp.files {
		n += costPerSeries * inputsize.Series(f.path, limit)
	}
	return n
}

// decoded is what the spooled files are once read, in bytes (inputsize.Decoded): a gzip file by
// what it unpacks to, at most limit a file, pasted text by the objects it becomes.
func (sp *spool) decoded(limit int64) int64 {
	var n int64
	for _, f := range sp.files {
		n += inputsize.Decoded(f.path, f.name, f.size, limit)
	}
	return n
}
