package store_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/evidence"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// il0070 reads the evidence of IL-0070's evicted variant: events from 16:59:00 to 17:06:30 on
// Feb 1 2023, pods and nodes.
func il0070(t *testing.T) []input {
	t.Helper()
	var out []input
	for _, name := range []string{"events.json", "nodes.json", "pods.json"} {
		data, err := os.ReadFile(filepath.Join("../analysis/testdata/il0070/evicted", name))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, input{name: name, data: data})
	}
	return out
}

// fingerprints are the fingerprints of alerts, in their order.
func fingerprints(alerts []alert.Alert) []string {
	out := []string{}
	for _, a := range alerts {
		out = append(out, a.Fingerprint)
	}
	return out
}

// TestEvidenceWindow: an incident of a cluster without a start reads its cluster's alerts,
// collected events and states over the span of its uploaded evidence (IL-0070: 16:59 to
// 17:06:30), on the full load and on the load from the one before; its start and end, when
// set, are its window instead; without any evidence it has none.
func TestEvidenceWindow(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		t0 := time.Date(2023, 2, 1, 17, 0, 0, 0, time.UTC)
		createIncident(t, st, "unstarted", "leap")
		alerts := []alert.Alert{
			resolvedAt(testAlert("00000000000000a1", t0.Add(6*time.Minute)), t0.Add(8*time.Minute)),     // 17:06 to 17:08: inside
			testAlert("00000000000000a2", t0.Add(30*time.Minute)),                                       // fires at 17:30: after
			resolvedAt(testAlert("00000000000000a3", t0.Add(-20*time.Minute)), t0.Add(-10*time.Minute)), // 16:40 to 16:50: before
			testAlert("00000000000000a4", t0.Add(-time.Hour)),                                           // fires from 16:00 on: overlaps
		}
		if _, err := st.StoreAlerts(ctx, "leap", alerts, time.Now()); err != nil {
			t.Fatal(err)
		}
		if ev, err := evidence.Load(ctx, st, "unstarted", nil); err != nil || len(ev.Alerts) != 0 {
			t.Fatalf("alerts of an incident without start or evidence: %v, %v", ev, err)
		}
		ins := il0070(t)
		storeSnapshot(t, st, metaFor("unstarted", "leap", ins), ins)
		later := collectedEvent(1, t0.Add(time.Hour), t0.Add(time.Hour))
		later.UID, later.Event.UID, later.Name, later.Event.Name = "ev-late", "ev-late", "hub.late", "hub.late"
		collected := []*cluster.Object{collectedPod("10", "Failed", "Evicted", t0.Add(5*time.Minute)), collectedEvent(1, t0.Add(3*time.Minute), t0.Add(3*time.Minute)), later}
		if _, err := st.StoreCollected(ctx, "leap", collected, time.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := st.StoreCollected(ctx, "leap", []*cluster.Object{collectedPod("11", "Running", "", t0.Add(time.Hour))}, time.Now()); err != nil {
			t.Fatal(err)
		}
		check := func(what string, ev *evidence.Evidence, wantAlerts []string) {
			t.Helper()
			if diff := cmp.Diff(wantAlerts, fingerprints(ev.Alerts)); diff != "" {
				t.Errorf("%s: alerts (-want +got):\n%s", what, diff)
			}
			var events []string
			for _, o := range ev.Objects {
				if o.Event != nil && o.Source.File == store.CollectedFile {
					events = append(events, o.Name)
				}
			}
			if diff := cmp.Diff([]string{"hub.1"}, events); diff != "" {
				t.Errorf("%s: collected events (-want +got):\n%s", what, diff)
			}
			var states []string
			for _, s := range ev.States {
				states = append(states, s.At.Format("15:04")+" "+s.State)
			}
			if len(states) != 1 || states[0] != "17:05 Failed (Evicted); on core-1" {
				t.Errorf("%s: collected states %q, want the one of 17:05", what, states)
			}
		}
		first, err := evidence.Load(ctx, st, "unstarted", nil)
		if err != nil {
			t.Fatal(err)
		}
		check("the full load", first, []string{"00000000000000a4", "00000000000000a1"})
		if states, err := loadStates(t, st, "unstarted"); err != nil || len(states) != 1 {
			t.Errorf("IncidentStates: %+v, %v; want the state of 17:05", states, err)
		}
		// A resolution changes the cluster's generation: the next load reads what changed since.
		if _, err := st.StoreAlerts(ctx, "leap", []alert.Alert{resolvedAt(alerts[3], t0.Add(2*time.Minute))}, time.Now()); err != nil {
			t.Fatal(err)
		}
		since, err := evidence.Load(ctx, st, "unstarted", first)
		if err != nil {
			t.Fatal(err)
		}
		if !since.Incremental() {
			t.Error("the second load read everything again")
		}
		check("the load from the one before", since, []string{"00000000000000a4", "00000000000000a1"})

		// A start and an end set are the window, whatever the evidence spans.
		start, end := t0.Add(25*time.Minute), t0.Add(35*time.Minute)
		if err := st.CreateIncident(ctx, &incident.Incident{ID: "started", Title: "Started", Cluster: "leap", StartedAt: &start, EndedAt: &end}); err != nil {
			t.Fatal(err)
		}
		if _, err := st.AttachSnapshot(ctx, digest(ins), "started"); err != nil {
			t.Fatal(err)
		}
		ev, err := evidence.Load(ctx, st, "started", nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"00000000000000a2"}, fingerprints(ev.Alerts)); diff != "" {
			t.Errorf("alerts of the incident with a start and an end (-want +got):\n%s", diff)
		}
	})
}

// TestSnapshotSpan: a snapshot keeps the span of the times its evidence records: its events'
// first and last sightings, not the times of a part dropped; its pods' starts when it has no
// events; none when it records no time.
func TestSnapshotSpan(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		t0 := time.Date(2023, 2, 1, 17, 0, 0, 0, time.UTC)
		createIncident(t, st, "spans", "leap")
		pod := func(name string, start time.Time) *cluster.Object {
			p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "prod", UID: types.UID("uid-" + name)},
				Status: corev1.PodStatus{Phase: corev1.PodRunning, StartTime: &metav1.Time{Time: start}}}
			return &cluster.Object{APIVersion: "v1", Kind: cluster.KindPod, Namespace: "prod", Name: name, UID: "uid-" + name, Pod: cluster.PodOf(p)}
		}
		event := func(uid string, first, last time.Time) *cluster.Object {
			o := collectedEvent(1, first, last)
			o.UID, o.Event.UID, o.Name, o.Event.Name = uid, types.UID(uid), "hub."+uid, "hub."+uid
			return o
		}
		write := func(digest string, fill func(w *store.SnapshotWriter)) (from, to *time.Time) {
			t.Helper()
			w, err := st.BeginSnapshot(ctx, store.SnapshotMeta{Digest: digest, Incident: "spans", Cluster: "leap"})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Rollback()
			fill(w)
			if _, err := w.Commit(ctx, nil); err != nil {
				t.Fatal(err)
			}
			if from, to, err = st.SnapshotSpan(ctx, digest); err != nil {
				t.Fatal(err)
			}
			return from, to
		}
		span := func(from, to *time.Time) string {
			if from == nil || to == nil {
				return "none"
			}
			return from.Format("15:04:05") + "–" + to.Format("15:04:05")
		}
		got := span(write("events", func(w *store.SnapshotWriter) {
			addAll(t, ctx, w, []*cluster.Object{pod("old", t0.Add(-48*time.Hour)), event("e1", t0.Add(2*time.Minute), t0.Add(4*time.Minute))})
			if err := w.Mark(ctx); err != nil {
				t.Fatal(err)
			}
			addAll(t, ctx, w, []*cluster.Object{event("dropped", t0.Add(-5*time.Hour), t0.Add(5*time.Hour))})
			if err := w.Drop(ctx); err != nil {
				t.Fatal(err)
			}
			if err := w.Mark(ctx); err != nil {
				t.Fatal(err)
			}
			addAll(t, ctx, w, []*cluster.Object{event("kept", t0.Add(time.Minute), t0.Add(time.Minute))})
			if err := w.Keep(ctx); err != nil {
				t.Fatal(err)
			}
		}))
		if got != "17:01:00–17:04:00" {
			t.Errorf("span of a snapshot with events: %s, want 17:01:00–17:04:00 (its events', not its pods' or a dropped part's)", got)
		}
		got = span(write("pods", func(w *store.SnapshotWriter) {
			addAll(t, ctx, w, []*cluster.Object{pod("a", t0.Add(-time.Hour)), pod("b", t0.Add(time.Hour)), pod("c", t0)})
		}))
		if got != "16:00:00–18:00:00" {
			t.Errorf("span of a snapshot of pods: %s, want their starts, 16:00:00–18:00:00", got)
		}
		if got = span(write("none", func(*store.SnapshotWriter) {})); got != "none" {
			t.Errorf("span of a snapshot recording no time: %s", got)
		}
	})
}

// TestEvidenceSpanAfterUpgrade: migration 18 dates the snapshots stored before it from what
// they stored (their events' sightings, else their pods' starts), so that an incident without
// a start uploaded before the upgrade reads the alerts of its evidence's span after it.
func TestEvidenceSpanAfterUpgrade(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, _ *store.Store, b storetest.Backend) {
		ctx := t.Context()
		st, err := store.Open(ctx, mustTarget(t, storetest.Fresh(t, b)), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if err := st.MigrateTo(ctx, 17); err != nil {
			t.Fatal(err)
		}
		t0 := time.Date(2023, 2, 1, 17, 0, 0, 0, time.UTC)
		now := time.Now().UTC().Truncate(time.Microsecond)
		if err := st.EnsureEventDays(ctx, now); err != nil {
			t.Fatal(err)
		}
		var raw bytes.Buffer
		zw := gzip.NewWriter(&raw)
		_, _ = zw.Write([]byte(`{}`))
		_ = zw.Close()
		db := st.DB()
		for _, q := range []struct {
			sql  string
			args []any
		}{
			{"INSERT INTO clusters (id, name, created_at) VALUES (1, 'leap', ?)", []any{now}},
			{"INSERT INTO incidents (id, title, org, report_date, own_date, cluster_id, created_at, updated_at) VALUES ('old', 'Old', '', '2023-02-01', '', 1, ?, ?)", []any{now, now}},
			{"INSERT INTO snapshots (id, digest, cluster_id, bytes, files, objects, skipped, created_at) VALUES (1, 'with-events', 1, 0, '[]', '{}', '[]', ?), (2, 'with-pods', 1, 0, '[]', '{}', '[]', ?), (3, 'bare', 1, 0, '[]', '{}', '[]', ?)", []any{now, now, now}},
			{"INSERT INTO incident_snapshots (incident_id, snapshot_id, attached_at) VALUES ('old', 1, ?)", []any{now}},
		} {
			if err := db.Exec(q.sql, q.args...).Error; err != nil {
				t.Fatalf("%s: %v", q.sql, err)
			}
		}
		for i, span := range [][2]time.Time{{t0.Add(-time.Minute), t0.Add(2 * time.Minute)}, {t0.Add(time.Minute), t0.Add(6*time.Minute + 30*time.Second)}} {
			id := store.EventID(1, "uid:ev-"+string(rune('1'+i)))
			if err := db.Exec(`INSERT INTO events (id, cluster_id, identity, api_version, uid, namespace, name, involved_kind, involved_namespace,
				involved_name, involved_uid, involved_field_path, reason, message, type, count, first_at, last_at, source_component, source_host,
				reporting_controller, reporting_instance, action, raw, stored_on) VALUES (?, 1, ?, 'v1', ?, 'prod', ?, 'Pod', 'prod',
				'hub', '', '', 'Evicted', '', 'Warning', 1, ?, ?, '', '', '', '', '', ?, ?)`, id, "uid:ev-"+string(rune('1'+i)), "ev-"+string(rune('1'+i)),
				"hub."+string(rune('1'+i)), span[0], span[1], raw.Bytes(), now.Format(time.DateOnly)).Error; err != nil {
				t.Fatal(err)
			}
			if err := db.Exec("INSERT INTO snapshot_events (snapshot_id, event_id, source_file, source_line) VALUES (1, ?, 'events.json', 1)", id).Error; err != nil {
				t.Fatal(err)
			}
		}
		for i, start := range []time.Time{t0.Add(-3 * time.Hour), t0.Add(-2 * time.Hour)} {
			if err := db.Exec(`INSERT INTO pods (snapshot_id, namespace, name, uid, node_name, phase, reason, message, qos_class, priority_class,
				owner_kind, owner_name, started_at, source_file, source_line, raw) VALUES (2, 'prod', ?, '', '', 'Running', '', '', '', '', '', '', ?, 'pods.json', 1, ?)`,
				"p"+string(rune('1'+i)), start, raw.Bytes()).Error; err != nil {
				t.Fatal(err)
			}
		}
		if err := st.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, digest := range []string{"with-events", "with-pods", "bare"} {
			from, to, err := st.SnapshotSpan(ctx, digest)
			switch {
			case err != nil:
				t.Fatal(err)
			case from == nil || to == nil:
				got[digest] = "none"
			default:
				got[digest] = from.Format("15:04:05") + "–" + to.Format("15:04:05")
			}
		}
		want := map[string]string{"with-events": "16:59:00–17:06:30", "with-pods": "14:00:00–15:00:00", "bare": "none"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("spans after the upgrade (-want +got):\n%s", diff)
		}
		if _, err := st.StoreAlerts(ctx, "leap", []alert.Alert{testAlert("00000000000000a1", t0.Add(6*time.Minute)), testAlert("00000000000000a2", t0.Add(time.Hour))}, now); err != nil {
			t.Fatal(err)
		}
		ev, err := evidence.Load(ctx, st, "old", nil)
		if err != nil {
			t.Fatal(err)
		}
		if fps := fingerprints(ev.Alerts); !slices.Equal(fps, []string{"00000000000000a1"}) {
			t.Errorf("alerts of the incident stored before the upgrade: %v, want the one firing at 17:06", fps)
		}
	})
}

// TestEvidenceWindowBounded: the window the evidence of an incident without a start makes is
// at most MaxEvidenceWindow long, ending at the last time it records: pods started ten days
// apart do not make it read ten days of its cluster.
func TestEvidenceWindowBounded(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		t0 := time.Date(2023, 2, 1, 17, 0, 0, 0, time.UTC)
		createIncident(t, st, "pods-only", "leap")
		var objs []*cluster.Object
		for i, start := range []time.Time{t0.Add(-10 * 24 * time.Hour), t0} {
			name := "p" + string(rune('1'+i))
			objs = append(objs, &cluster.Object{APIVersion: "v1", Kind: cluster.KindPod, Namespace: "prod", Name: name, UID: name,
				Pod: cluster.PodOf(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "prod", UID: types.UID(name)},
					Status: corev1.PodStatus{Phase: corev1.PodRunning, StartTime: &metav1.Time{Time: start}}})})
		}
		storeObjects(t, st, store.SnapshotMeta{Digest: "pods-only", Incident: "pods-only", Cluster: "leap"}, objs, nil)
		alerts := []alert.Alert{
			resolvedAt(testAlert("00000000000000b1", t0.Add(-5*24*time.Hour)), t0.Add(-5*24*time.Hour+time.Hour)), // five days before: outside
			resolvedAt(testAlert("00000000000000b2", t0.Add(-2*time.Hour)), t0.Add(-time.Hour)),                   // two hours before: inside
		}
		if _, err := st.StoreAlerts(ctx, "leap", alerts, time.Now()); err != nil {
			t.Fatal(err)
		}
		ev, err := evidence.Load(ctx, st, "pods-only", nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"00000000000000b2"}, fingerprints(ev.Alerts)); diff != "" {
			t.Errorf("alerts of a window of pods started ten days apart (-want +got):\n%s", diff)
		}
	})
}
