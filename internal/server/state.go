package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/evidence"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/metrics"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/timeline"
)

// incidentState is what the pages and exports of one incident are made of: the incident, the
// model of what its snapshots hold, the analysis of that model, and the notes.
type incidentState struct {
	incident *incident.Incident
	model    *cluster.Model
	report   analysis.Report
	notes    []incident.Note
	changes  []timeline.Change  // pod and node states the collector saw during the incident
	alerts   []alert.Alert      // the alerts of its cluster overlapping its window
	metrics  []metrics.Answer   // the series its snapshots hold, read once (never changed: states are shared)
	evidence *evidence.Evidence // what the model was made of, for the next load to start from (nil: none)

	tl *madeTimeline // shared by the states of one model, analysis, notes and changes
}

// madeTimeline is an incident's whole timeline, made on first use.
type madeTimeline struct {
	once    sync.Once
	entries []timeline.Entry
}

// timeline returns the incident's whole timeline, made once per state (or once for the states
// that share it). A state may be shared by concurrent requests (the cache): nothing in it is
// changed after it is made.
func (st *incidentState) timeline() []timeline.Entry {
	st.tl.once.Do(func() {
		st.tl.entries = timeline.WithAlerts(timeline.Build(st.model, st.report, st.notes, st.changes...), st.model, st.alerts)
	})
	return st.tl.entries
}

// incident returns an incident; a missing one is a 404 naming it.
func (s *Server) incident(ctx context.Context, id string) (*incident.Incident, error) {
	if err := notAnID(id); err != nil {
		return nil, err
	}
	in, err := s.deps.Incidents.Incident(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errStatus(http.StatusNotFound, fmt.Sprintf("incident %s not found", id))
	}
	return in, err
}

// loadIncident returns an incident's state: from the cache when nothing it is made of has
// changed since it was made (its version says), else made anew. A missing incident is a 404
// naming it.
func (s *Server) loadIncident(ctx context.Context, id string) (*incidentState, error) {
	if err := notAnID(id); err != nil {
		return nil, err
	}
	version, err := s.deps.Objects.IncidentVersion(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errStatus(http.StatusNotFound, fmt.Sprintf("incident %s not found", id))
	}
	if err != nil {
		return nil, err
	}
	return s.states.get(id, version, func(prev *incidentState, same bool) (*incidentState, error) {
		return s.makeIncidentState(ctx, id, prev, same)
	})
}

// makeIncidentState loads and analyses an incident. prev, when not nil, is the state made last:
// when it was made of the same evidence (same: only the incident's row or notes changed) its
// model and analysis are kept; else the load starts from what it was made of (reanalyse).
func (s *Server) makeIncidentState(ctx context.Context, id string, prev *incidentState, same bool) (*incidentState, error) {
	in, err := s.incident(ctx, id)
	if err != nil {
		return nil, err
	}
	notes, err := s.deps.Notes.Notes(ctx, id)
	if err != nil {
		return nil, err
	}
	if prev != nil && same {
		return prev.with(in, notes, prev.evidence), nil
	}
	release, err := s.acquireAnalysis(ctx, id)
	if err != nil {
		return nil, err
	}
	defer release()
	return s.reanalyse(ctx, in, notes, prev)
}

// acquireAnalysis takes the budget share of loading and analysing an incident: memory by its
// objects, as uploads take theirs, by the size the incident had when it was last made.
func (s *Server) acquireAnalysis(ctx context.Context, id string) (release func(), err error) {
	return s.budget.acquire(ctx, costBase+costPerObject*int64(s.states.lastWeight(id)))
}

// buildIncidentState loads and analyses an incident, within a budget share its caller holds.
func (s *Server) buildIncidentState(ctx context.Context, in *incident.Incident, id string) (*incidentState, error) {
	notes, err := s.deps.Notes.Notes(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.reanalyse(ctx, in, notes, nil)
}

// The state cache's bounds: at most stateCacheSize incidents, holding at most
// stateCacheObjects objects (pods, nodes, events, others) in all, about 1 KiB each once
// modelled, and some 200 bytes more for what the next load starts from (the keys of the
// stored rows each object was decoded from: evidence.Evidence), which goes with the state. The
// state used last is always kept, however large.
const (
	stateCacheSize    = 16
	stateCacheObjects = 300_000
)

// stateCache keeps the states last made, by incident and version, so that pages and the API do
// not load and analyse an unchanged incident again. It is per process; as every lookup checks
// the version in the database first, replicas never serve a stale state. Requests for a state
// being made wait for it instead of making it again.
type stateCache struct {
	mu         sync.Mutex
	size, objs int                    // the bounds
	entries    map[string]*cacheEntry // incident id → the entry of its last version
	order      []string               // incident ids, least recently used first
	weights    map[string]int         // incident id → objects when last made, cached or not
}

// maxWeights bounds the incidents whose size the cache remembers.
const maxWeights = 4096

// remember notes the objects of an incident's state, made now; c.mu is held.
func (c *stateCache) remember(id string, objects int) {
	if c.weights == nil || len(c.weights) >= maxWeights {
		c.weights = map[string]int{} // forgetting costs a guess, not a fault
	}
	c.weights[id] = objects
}

// lastWeight is the objects of the incident's state when last made; 0 when unknown.
func (c *stateCache) lastWeight(id string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.weights[id]
}

// has reports whether the cache holds a state of the incident, of any version.
func (c *stateCache) has(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.entries[id]
	return ok
}

// note remembers the objects of an incident's state, made now, in the cache or not.
func (c *stateCache) note(id string, objects int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.remember(id, objects)
}

type cacheEntry struct {
	version store.Version
	st      *incidentState
	err     error
	weight  int // objects of the model, once made
	ready   chan struct{}
}

func newStateCache(size, objs int) *stateCache {
	return &stateCache{size: size, objs: objs, entries: map[string]*cacheEntry{}}
}

// get returns the state of an incident at a version, made by build when the cache has none.
// build is given the state of an earlier version when the cache has one ready, and whether it
// was made of the same evidence (same), so that a note or a new title does not cost a new
// analysis, and new evidence costs only what changed.
func (c *stateCache) get(id string, version store.Version, build func(prev *incidentState, same bool) (*incidentState, error)) (*incidentState, error) {
	c.mu.Lock()
	e, ok := c.entries[id]
	if !ok || e.version != version {
		var (
			prev *incidentState
			same bool
		)
		if ok && isReady(e) && e.err == nil {
			prev, same = e.st, e.version.Evidence == version.Evidence
		}
		e = &cacheEntry{version: version, ready: make(chan struct{})}
		c.entries[id] = e
		c.touch(id)
		c.mu.Unlock()
		e.st, e.err = build(prev, same)
		close(e.ready)
		c.mu.Lock()
		if e.err != nil {
			if c.entries[id] == e {
				delete(c.entries, id)
			}
		} else {
			m := e.st.model
			e.weight = len(m.Pods) + len(m.Nodes) + len(m.Events) + len(m.Others)
			c.evict()
		}
		c.mu.Unlock()
		return e.st, e.err
	}
	c.touch(id)
	c.mu.Unlock()
	<-e.ready
	return e.st, e.err
}

func isReady(e *cacheEntry) bool {
	select {
	case <-e.ready:
		return true
	default:
		return false
	}
}

// touch marks an incident as used last and evicts beyond the bounds; c.mu is held.
func (c *stateCache) touch(id string) {
	if i := slices.Index(c.order, id); i >= 0 {
		c.order = slices.Delete(c.order, i, i+1)
	}
	c.order = append(c.order, id)
	c.evict()
}

// evict drops the least recently used states until the cache is within its bounds, keeping the
// one used last; c.mu is held.
func (c *stateCache) evict() {
	for len(c.order) > 1 {
		total := 0
		for _, id := range c.order {
			if e, ok := c.entries[id]; ok {
				total += e.weight
			}
		}
		if len(c.order) <= c.size && total <= c.objs {
			return
		}
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
}
