package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// budgetProbe is the incident store of a server under test that, whenever an incident's
// evidence is read (within the budget share of its load), notes how much of the budget is held.
type budgetProbe struct {
	ObjectStore
	b    *budget
	held []int64
}

// IncidentScope is the first question of each load of an incident's evidence.
func (p *budgetProbe) IncidentScope(ctx context.Context, id string) (store.Scope, error) {
	p.held = append(p.held, p.b.total-freeOf(p.b))
	return p.ObjectStore.IncidentScope(ctx, id)
}

// freeOf is the part of the budget no one holds: the most that can be taken at once.
func freeOf(b *budget) int64 {
	lo, hi := int64(0), b.total // TryAcquire(lo) succeeds; TryAcquire(hi+1) does not
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if b.sem.TryAcquire(mid) {
			b.sem.Release(mid)
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// TestBudgetChargesAnIncidentLoadByItsObjects: loading and analysing an incident for a page
// takes its share of the memory budget by the incident's size, as an upload takes its share by
// its bytes: the fixed part an upload is charged, plus about 12 KiB (the peak of `rootline
// analyze` on a generated 20,000-pod cluster was about 280 MB) for each object the incident held
// when it was last made; the fixed part alone the first time, when its size is not known yet.
// So a large incident waits for room in the budget instead of taking memory past it beside the
// uploads running, and when no room comes within the wait the page is answered 503. The share is
// given back once the state is made.
func TestBudgetChargesAnIncidentLoadByItsObjects(t *testing.T) {
	t.Parallel()
	pg := storetest.NewPostgres()
	t.Cleanup(pg.Drop)
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		ctx := t.Context()
		srv := New(offConfig(), quietDeps(st))
		srv.budget = newBudget(1<<30, 4, 50*time.Millisecond)
		probe := &budgetProbe{ObjectStore: srv.deps.Objects, b: srv.budget}
		srv.deps.Objects = probe

		if err := st.CreateIncident(ctx, &incident.Incident{ID: "big", Title: "Big", Cluster: "leap"}); err != nil {
			t.Fatal(err)
		}
		// snapshot stores pods of their own names, from a pod list as kubectl writes it.
		snapshot := func(digest string, pods ...string) {
			t.Helper()
			w, err := st.BeginSnapshot(ctx, store.SnapshotMeta{Digest: digest, Incident: "big"})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Rollback()
			items := make([]string, len(pods))
			for i, name := range pods {
				items[i] = fmt.Sprintf(`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": %[1]q, "namespace": "prod", "uid": "uid-%[1]s"},
					"spec": {"nodeName": "core-1", "containers": [{"name": "app"}]}, "status": {"phase": "Running"}}`, name)
			}
			body := `{"apiVersion": "v1", "kind": "List", "items": [` + strings.Join(items, ",") + `]}`
			err = ingest.NewDecoder(ingest.Options{}).Decode(ctx, "pods.json", strings.NewReader(body), func(o *cluster.Object) error { return w.Add(ctx, o) })
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Commit(ctx, nil); err != nil {
				t.Fatal(err)
			}
		}
		const pods = 200
		names := make([]string, pods)
		for i := range names {
			names[i] = fmt.Sprintf("app-%03d", i)
		}
		snapshot("s1", names...)

		fixed := (&spool{}).cost(1 << 30) // what an upload of nothing is charged
		s1, err := srv.loadIncident(ctx, "big")
		if err != nil {
			t.Fatal(err)
		}
		if len(probe.held) != 1 {
			t.Fatalf("the first view read the evidence %d times, want once", len(probe.held))
		}
		if got := probe.held[0]; got != fixed {
			t.Errorf("the first load of an incident of unknown size held %d of the budget, want the fixed part %d", got, fixed)
		}
		objects := len(s1.model.Pods) + len(s1.model.Nodes) + len(s1.model.Events) + len(s1.model.Others)
		if objects != pods {
			t.Fatalf("the incident was made of %d objects, want the %d pods stored", objects, pods)
		}
		if free := freeOf(srv.budget); free != srv.budget.total {
			t.Errorf("after the load %d of the budget is still held", srv.budget.total-free)
		}

		// New evidence: the incident is loaded again, charged by the size it had when last made.
		snapshot("s2", "late-pod")
		if _, err := srv.loadIncident(ctx, "big"); err != nil {
			t.Fatal(err)
		}
		if len(probe.held) != 2 {
			t.Fatalf("the view after new evidence read the evidence %d times in all, want twice", len(probe.held))
		}
		charge := probe.held[1]
		perObject := float64(charge-fixed) / pods
		if perObject < 8<<10 || perObject > 16<<10 {
			t.Errorf("loading an incident last made of %d objects held %d of the budget: %.0f bytes an object above the fixed part %d, want about 12 KiB (8 to 16)",
				pods, charge, perObject, fixed)
		}

		// A budget with less room than that charge left: the load waits, then is answered 503.
		hold := func(n int64) func() {
			t.Helper()
			r, err := srv.budget.acquire(ctx, n)
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		snapshot("s3", "later-pod")
		grown := charge + costPerObject // the incident grew by one object
		r := hold(srv.budget.total - grown + 1)
		_, err = srv.loadIncident(ctx, "big")
		var he *httpError
		if !errors.As(err, &he) || he.Status != http.StatusServiceUnavailable {
			t.Errorf("a load of %d objects with %d of the budget free: %v, want 503", pods+1, grown-1, err)
		}
		r()
		r = hold(srv.budget.total - grown)
		if _, err := srv.loadIncident(ctx, "big"); err != nil {
			t.Errorf("a load of %d objects with exactly its charge free: %v", pods+1, err)
		}
		r()
	})
}
