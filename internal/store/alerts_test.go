package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/evidence"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// testAlert is a firing alert of pod prod/hub that started at start.
func testAlert(fp string, start time.Time) alert.Alert {
	return alert.Alert{Fingerprint: fp, Status: alert.Firing, StartsAt: start,
		Labels:      map[string]string{"alertname": "KubePodCrashLooping", "namespace": "prod", "pod": "hub", "severity": "critical"},
		Annotations: map[string]string{"summary": "hub is crash looping"}}
}

// resolvedAt is a copy of a, resolved at end.
func resolvedAt(a alert.Alert, end time.Time) alert.Alert {
	a.Status, a.EndsAt = alert.Resolved, end
	return a
}

// TestStoreAlerts: a payload stores each firing once, a payload delivered again changes nothing
// (not even the cluster's generation), a resolved notification closes the row and bumps the
// generation (so that the incidents of the cluster are analysed again), a late firing does not
// open it again, and the window reads what overlaps it.
func TestStoreAlerts(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := context.Background()
		t0 := time.Date(2026, 3, 1, 10, 0, 0, 123456000, time.UTC) // microseconds, as both backends keep them
		start, end := t0.Add(-time.Hour), t0.Add(time.Hour)
		if err := st.CreateIncident(ctx, testIncident("alerted", "leap", start, end)); err != nil {
			t.Fatal(err)
		}
		version := func() store.Version {
			t.Helper()
			v, err := st.IncidentVersion(ctx, "alerted")
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		v0 := version()
		crash, other := testAlert("5a1d2c3b4e5f6a7b", t0), testAlert("00000000000000ff", t0.Add(10*time.Minute))
		n, err := st.StoreAlerts(ctx, "leap", []alert.Alert{crash, other}, time.Now())
		if err != nil || n != (store.AlertCounts{New: 2}) {
			t.Fatalf("first payload: %+v, %v", n, err)
		}
		v1 := version()
		if v1 == v0 {
			t.Error("storing alerts left the incident's version as it was")
		}
		rows := storetest.RowCounts(t, b.Target)
		n, err = st.StoreAlerts(ctx, "leap", []alert.Alert{other, crash}, time.Now())
		if err != nil || n != (store.AlertCounts{Known: 2}) {
			t.Errorf("the same payload again: %+v, %v", n, err)
		}
		again := storetest.RowCounts(t, b.Target)
		if diff := cmp.Diff(rows, again); diff != "" {
			t.Errorf("a payload delivered twice changed rows:\n%s", diff)
		}
		if version() != v1 {
			t.Error("a payload delivered twice changed the incident's version")
		}

		// A later firing notification whose annotations changed (a value in the description
		// that grew) updates them, and the incident is analysed again.
		grown := other
		grown.Annotations = map[string]string{"summary": "hub-1 restarted 7 times"}
		if n, err = st.StoreAlerts(ctx, "leap", []alert.Alert{grown}, time.Now()); err != nil || n != (store.AlertCounts{Updated: 1}) {
			t.Errorf("annotations changed: %+v, %v", n, err)
		}
		if v := version(); v == v1 {
			t.Error("new annotations left the incident's version as it was")
		}
		if n, err = st.StoreAlerts(ctx, "leap", []alert.Alert{grown}, time.Now()); err != nil || n != (store.AlertCounts{Known: 1}) {
			t.Errorf("the same annotations again: %+v, %v", n, err)
		}
		other = grown
		v1 = version()

		closed := resolvedAt(crash, t0.Add(5*time.Minute))
		n, err = st.StoreAlerts(ctx, "leap", []alert.Alert{closed, other}, time.Now())
		if err != nil || n != (store.AlertCounts{Resolved: 1, Known: 1}) {
			t.Errorf("resolved: %+v, %v", n, err)
		}
		v2 := version()
		if v2 == v1 {
			t.Error("resolving an alert left the incident's version as it was")
		}
		// A late firing notification of the same firing does not open it again, and the
		// resolved one delivered again changes nothing.
		if n, err = st.StoreAlerts(ctx, "leap", []alert.Alert{crash}, time.Now()); err != nil || n != (store.AlertCounts{Known: 1}) {
			t.Errorf("late firing: %+v, %v", n, err)
		}
		if n, err = st.StoreAlerts(ctx, "leap", []alert.Alert{closed}, time.Now()); err != nil || n != (store.AlertCounts{Known: 1}) {
			t.Errorf("resolved again: %+v, %v", n, err)
		}
		if version() != v2 {
			t.Error("a late firing notification changed the incident's version")
		}

		want := []alert.Alert{closed, other}
		got, err := st.ClusterAlerts(ctx, "leap", start, end)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("alerts of the window (-want +got):\n%s", diff)
		}
		windows := []struct {
			name     string
			from, to time.Time
			want     int
		}{
			{"before both", start, t0.Add(-time.Minute), 0},
			{"after the resolved one", t0.Add(6 * time.Minute), t0.Add(7 * time.Minute), 0},
			{"the firing one, later", t0.Add(24 * time.Hour), t0.Add(25 * time.Hour), 1},
			{"the resolved one's end", t0.Add(5 * time.Minute), t0.Add(5 * time.Minute), 1},
		}
		for _, w := range windows {
			got, err := st.ClusterAlerts(ctx, "leap", w.from, w.to)
			if err != nil || len(got) != w.want {
				t.Errorf("%s: %d alerts (%v), want %d", w.name, len(got), err, w.want)
			}
		}
		if got, err := st.ClusterAlerts(ctx, "elsewhere", start, end); err != nil || len(got) != 0 {
			t.Errorf("another cluster: %v, %v", got, err)
		}
	})
}

// TestStoreAlertsAtomic: a payload that fails part way stores none of its alerts, and leaves the
// cluster's generation as it was.
func TestStoreAlertsAtomic(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := context.Background()
		t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
		if err := st.CreateIncident(ctx, testIncident("atomic", "leap", t0.Add(-time.Hour), t0.Add(time.Hour))); err != nil {
			t.Fatal(err)
		}
		v0, err := st.IncidentVersion(ctx, "atomic")
		if err != nil {
			t.Fatal(err)
		}
		storetest.Fault(t, b.Target, "alerts", 1)
		_, err = st.StoreAlerts(ctx, "leap", []alert.Alert{testAlert("aa", t0), testAlert("bb", t0)}, time.Now())
		if err == nil || !strings.Contains(err.Error(), "test fault in alerts") {
			t.Fatalf("StoreAlerts with a fault on the second alert: %v", err)
		}
		rows := storetest.RowCounts(t, b.Target)
		if rows["alerts"] != 0 {
			t.Errorf("%d alerts stored by a payload that failed", rows["alerts"])
		}
		if v, _ := st.IncidentVersion(ctx, "atomic"); v != v0 {
			t.Error("a payload that failed changed the incident's version")
		}
	})
}

// testIncident is an incident of a cluster over [start, end].
func testIncident(id, clusterName string, start, end time.Time) *incident.Incident {
	return &incident.Incident{ID: id, Title: "Alerted", Cluster: clusterName, StartedAt: &start, EndedAt: &end}
}

// TestEvidenceAlerts: an incident's evidence holds the alerts of its cluster that overlap its
// window, on the full load and on the load from the one before (evidence.Load), and is not the
// Same as before once an alert resolved.
func TestEvidenceAlerts(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := context.Background()
		t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
		if err := st.CreateIncident(ctx, testIncident("ev", "leap", t0.Add(-time.Hour), t0.Add(time.Hour))); err != nil {
			t.Fatal(err)
		}
		inside, outside := testAlert("aa", t0), testAlert("bb", t0.Add(2*time.Hour))
		if _, err := st.StoreAlerts(ctx, "leap", []alert.Alert{inside, outside}, time.Now()); err != nil {
			t.Fatal(err)
		}
		first, err := evidence.Load(ctx, st, "ev", nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]alert.Alert{inside}, first.Alerts); diff != "" {
			t.Errorf("alerts of the full load (-want +got):\n%s", diff)
		}
		again, err := evidence.Load(ctx, st, "ev", first)
		if err != nil || !again.Same(first) {
			t.Errorf("nothing changed, yet the evidence is not the same (%v)", err)
		}
		closed := resolvedAt(inside, t0.Add(time.Minute))
		if _, err := st.StoreAlerts(ctx, "leap", []alert.Alert{closed}, time.Now()); err != nil {
			t.Fatal(err)
		}
		since, err := evidence.Load(ctx, st, "ev", again)
		if err != nil {
			t.Fatal(err)
		}
		if since.Same(again) {
			t.Error("an alert resolved, yet the evidence is the same")
		}
		if diff := cmp.Diff([]alert.Alert{closed}, since.Alerts); diff != "" {
			t.Errorf("alerts of the load from the one before (-want +got):\n%s", diff)
		}
		full, err := evidence.Load(ctx, st, "ev", nil)
		if err != nil || !cmp.Equal(full.Alerts, since.Alerts) {
			t.Errorf("the full load reads %v, the load from the one before %v (%v)", full.Alerts, since.Alerts, err)
		}
	})
}
