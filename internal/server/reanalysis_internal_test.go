package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestReanalysis: after new evidence an incident is analysed again from the objects it had
// plus what changed, and what the page shows is what a server starting afresh shows. A batch
// of its cluster that does not touch it (an event outside its window) keeps the analysis and
// the timeline; an event within the window, a new sighting of an event its snapshot carried,
// a snapshot whose objects expired and the same files stored again are each seen. Concurrent
// requests after a change share one state.
func TestReanalysis(t *testing.T) {
	t.Parallel()
	pg := storetest.NewPostgres()
	t.Cleanup(pg.Drop)
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		ctx := t.Context()
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		cfg, _ := config.Default(func(string) string { return "" })
		cfg.Auth = "off"
		srv := New(cfg, StoreDeps(st, log))
		t0 := time.Date(2023, 2, 1, 17, 0, 0, 0, time.UTC)
		start, end := t0.Add(-time.Hour), t0.Add(time.Hour)
		if err := st.CreateIncident(ctx, &incident.Incident{ID: "w", Title: "Window", Cluster: "leap", StartedAt: &start, EndedAt: &end}); err != nil {
			t.Fatal(err)
		}
		snapshot := func(digest string) {
			t.Helper()
			w, err := st.BeginSnapshot(ctx, store.SnapshotMeta{Digest: digest, Incident: "w"})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Rollback()
			files := map[string]string{
				"pods.json": `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "hub", "namespace": "prod", "uid": "p1"},
					"spec": {"nodeName": "core-1", "containers": [{"name": "hub"}]}, "status": {"phase": "Running"}}`,
				"events.json": event("ev-snap", "back-off in the snapshot", 1, t0),
			}
			for name, body := range files {
				err := ingest.NewDecoder(ingest.Options{}).Decode(ctx, name, strings.NewReader(body), func(o *cluster.Object) error { return w.Add(ctx, o) })
				if err != nil {
					t.Fatal(err)
				}
			}
			if _, err := w.Commit(ctx, nil); err != nil {
				t.Fatal(err)
			}
		}
		collect := func(body string) {
			t.Helper()
			err := ingest.NewDecoder(ingest.Options{}).Decode(ctx, "batch.json", strings.NewReader(body), func(o *cluster.Object) error {
				_, err := st.StoreCollected(ctx, "leap", []*cluster.Object{o}, time.Now())
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		load := func() *incidentState {
			t.Helper()
			s, err := srv.loadIncident(ctx, "w")
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		// shows reports whether the timeline has a row saying what, and its count.
		shows := func(s *incidentState, what string) (bool, int) {
			for _, e := range s.timeline() {
				if e.Summary == what {
					return true, e.Count
				}
			}
			return false, 0
		}
		// fresh is the state a server that never saw the incident makes of it.
		fresh := func() *incidentState {
			t.Helper()
			s, err := New(cfg, StoreDeps(st, log)).loadIncident(ctx, "w")
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		same := func(step string, got *incidentState) {
			t.Helper()
			want := fresh()
			if g, w := jsonOf(t, got.timeline()), jsonOf(t, want.timeline()); g != w {
				t.Errorf("%s: the timeline differs from a fresh server's:\n got %s\nwant %s", step, g, w)
			}
			if g, w := jsonOf(t, got.report), jsonOf(t, want.report); g != w {
				t.Errorf("%s: the analysis differs from a fresh server's:\n got %s\nwant %s", step, g, w)
			}
		}

		snapshot("s1")
		collect(event("ev-in", "back-off in the window", 1, t0.Add(5*time.Minute)))
		s1 := load()
		if ok, _ := shows(s1, "back-off in the window"); !ok {
			t.Fatalf("first view lacks the collected event: %v", s1.timeline())
		}

		collect(event("ev-out", "back-off outside", 1, t0.Add(3*time.Hour)))
		s2 := load()
		if s2 == s1 {
			t.Fatal("a batch of the incident's cluster: the state of the version before")
		}
		if s2.model != s1.model || s2.tl != s1.tl {
			t.Error("an event outside the window: analysed again, or the timeline made again")
		}
		if ok, _ := shows(s2, "back-off outside"); ok {
			t.Error("an event outside the window is on the timeline")
		}

		collect(event("ev-new", "back-off again in the window", 1, t0.Add(10*time.Minute)))
		s3 := load()
		if s3.model == s2.model {
			t.Error("an event within the window: not analysed again")
		}
		if ok, _ := shows(s3, "back-off again in the window"); !ok {
			t.Error("an event within the window is not on the timeline")
		}
		if len(s3.model.Pods) != 1 || s3.model.Pods[0] != s2.model.Pods[0] {
			t.Error("an event within the window: the snapshot's pod was decoded again")
		}
		same("an event within the window", s3)

		collect(event("ev-snap", "back-off in the snapshot", 7, t0.Add(20*time.Minute)))
		s4 := load()
		if ok, n := shows(s4, "back-off in the snapshot"); !ok || n != 7 {
			t.Errorf("a new sighting of the snapshot's event: shown %v, count %d, want 7", ok, n)
		}
		same("a new sighting of the snapshot's event", s4)

		// Many requests at once after a change: one state, made once.
		collect(event("ev-more", "one more back-off", 1, t0.Add(15*time.Minute)))
		var (
			wg     sync.WaitGroup
			mu     sync.Mutex
			states = map[*incidentState]bool{}
		)
		for range 16 {
			wg.Go(func() {
				s, err := srv.loadIncident(context.Background(), "w")
				if err != nil {
					t.Error(err)
					return
				}
				s.timeline()
				mu.Lock()
				states[s] = true
				mu.Unlock()
			})
		}
		wg.Wait()
		if len(states) != 1 {
			t.Errorf("16 concurrent requests after a change made %d states, want 1", len(states))
		}
		s5 := load()
		same("concurrent requests", s5)

		// The snapshot's objects (and every event) expire; the same files come back.
		if _, err := st.Expire(ctx, time.Now().Add(100*24*time.Hour), 90*24*time.Hour); err != nil {
			t.Fatal(err)
		}
		s6 := load()
		if len(s6.model.Pods) != 0 || len(s6.model.Events) != 0 {
			t.Errorf("after the snapshot expired: %d pods, %d events, want none", len(s6.model.Pods), len(s6.model.Events))
		}
		same("the snapshot expired", s6)
		snapshot("s1")
		s7 := load()
		if ok, _ := shows(s7, "back-off in the snapshot"); !ok || len(s7.model.Pods) != 1 {
			t.Error("the same files stored again: not seen")
		}
		same("the same files stored again", s7)
	})
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// event is a collected Event of pod prod/hub, as JSON.
func event(uid, message string, count int, at time.Time) string {
	return fmt.Sprintf(`{"apiVersion": "v1", "kind": "Event", "metadata": {"name": %[1]q, "namespace": "prod", "uid": %[1]q},
		"involvedObject": {"kind": "Pod", "namespace": "prod", "name": "hub"}, "reason": "BackOff", "type": "Warning", "message": %[2]q,
		"count": %[3]d, "firstTimestamp": %[4]q, "lastTimestamp": %[4]q}`, uid, message, count, at.Format(time.RFC3339))
}
