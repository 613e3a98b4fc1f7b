package store_test

import (
	"bytes"
	"compress/gzip"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/evidence"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestEventsAcrossDays: an event seen on two days (on PostgreSQL, two rows in two partitions)
// reads as one event with the merged count and time span; expiring the first day keeps what
// the second day saw.
func TestEventsAcrossDays(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		t0 := time.Date(2026, 1, 10, 9, 0, 0, 0, time.UTC)
		day1, day2 := time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC), time.Date(2026, 1, 11, 12, 0, 0, 0, time.UTC)
		other := collectedEvent(1, t0, t0)
		other.UID, other.Event.UID, other.Name, other.Event.Name = "ev-2", "ev-2", "hub.2", "hub.2"
		if _, err := st.StoreCollected(ctx, "leap", []*cluster.Object{collectedEvent(1, t0.Add(5*time.Minute), t0.Add(5*time.Minute)), other}, day1); err != nil {
			t.Fatal(err)
		}
		n, err := st.StoreCollected(ctx, "leap", []*cluster.Object{collectedEvent(3, t0.Add(5*time.Minute), t0.Add(7*time.Minute))}, day2)
		if err != nil || n.Events != 1 {
			t.Fatalf("the second day's sighting: %+v, %v", n, err)
		}
		rows := int64(2)
		if b.Name == "postgres" {
			rows = 3 // one row per event and day
		}
		if got := counts(t, b.Target, "events")["events"]; got != rows {
			t.Errorf("event rows = %d, want %d", got, rows)
		}
		check := func(when string, want map[string]int32) {
			t.Helper()
			evs, err := st.ClusterEvents(ctx, "leap")
			if err != nil {
				t.Fatal(err)
			}
			if len(evs) != len(want) {
				t.Errorf("%s: %d events, want %d", when, len(evs), len(want))
			}
			got := map[string]int32{}
			for _, e := range evs {
				got[string(e.UID)] = e.Count
				if e.UID == "ev-1" && (!e.FirstTimestamp.Time().Equal(t0.Add(5*time.Minute)) || !e.LastTimestamp.Time().Equal(t0.Add(7*time.Minute))) {
					t.Errorf("%s: ev-1 spans %v to %v", when, e.FirstTimestamp, e.LastTimestamp)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: counts by uid (-want +got):\n%s", when, diff)
			}
		}
		check("both days", map[string]int32{"ev-1": 3, "ev-2": 1})
		// An incident on the window reads the events merged too.
		start, end := t0, t0.Add(time.Hour)
		if err := st.CreateIncident(ctx, &incident.Incident{ID: "w", Title: "Window", Cluster: "leap", StartedAt: &start, EndedAt: &end}); err != nil {
			t.Fatal(err)
		}
		_, objs, err := evidence.Objects(ctx, st, "w")
		if err != nil {
			t.Fatal(err)
		}
		if m := cluster.NewModel(nil, objs); len(m.Events) != 2 {
			t.Errorf("the window's events: %d, want 2", len(m.Events))
		}
		for _, o := range objs {
			if o.UID == "ev-1" && o.Event.Count != 3 {
				t.Errorf("the window's ev-1: count %d, want 3", o.Event.Count)
			}
		}

		// 30 days after the second day's morning: the first day has expired.
		x, err := st.Expire(ctx, day2.Add(30*24*time.Hour-6*time.Hour), 30*24*time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if x.EventDays+int(x.Events) == 0 {
			t.Errorf("Expire removed no events: %+v", x)
		}
		check("after the first day expired", map[string]int32{"ev-1": 3})
	})
}

// TestExpire: past the age, a snapshot's objects, the events and the collected states go;
// the snapshot row stays, marked expired; each object's newest state stays unless it says
// the object went away; and the same files uploaded again are stored anew.
func TestExpire(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		createIncident(t, st, "inc-1", "leap")
		ins := fixtures(t, "pods-list.json", "nodes.yaml", "events.jsonl")
		m := metaFor("inc-1", "leap", ins)
		storeSnapshot(t, st, m, ins)
		stored := counts(t, b.Target, snapshotTables...)

		t0 := time.Now().Add(-24 * time.Hour)
		done := collectedPod("7", "Succeeded", "", t0)
		done.UID, done.Pod.UID, done.Name, done.Pod.Name = "pod-2", "pod-2", "job", "job"
		batch := []*cluster.Object{collectedPod("10", "Running", "", t0), collectedPod("11", "Running", "", t0.Add(time.Minute)), done}
		if _, err := st.StoreCollected(ctx, "leap", batch, time.Now()); err != nil {
			t.Fatal(err)
		}

		now, age := time.Now().Add(100*24*time.Hour), 90*24*time.Hour
		x, err := st.Expire(ctx, now, age)
		if err != nil {
			t.Fatal(err)
		}
		if x.Snapshots != 1 || x.States != 2 || x.EventDays+int(x.Events) == 0 {
			t.Errorf("Expire = %+v, want 1 snapshot, 2 states and the events", x)
		}
		want := map[string]int64{"snapshots": 1, "incident_snapshots": 1, "pods": 0, "pod_containers": 0, "nodes": 0,
			"objects": 0, "events": 0, "snapshot_events": 0, "object_states": 1}
		if diff := cmp.Diff(want, counts(t, b.Target, append(snapshotTables, "object_states")...)); diff != "" {
			t.Errorf("rows after Expire (-want +got):\n%s", diff)
		}
		states, err := st.ClusterStates(ctx, "leap", t0.Add(-time.Hour), time.Now())
		if err != nil || len(states) != 1 || states[0].Name != "hub" {
			t.Errorf("states kept: %+v, %v", states, err)
		}
		var expired int64
		if err := st.DB().Table("snapshots").Where("expired_at IS NOT NULL").Count(&expired).Error; err != nil || expired != 1 {
			t.Errorf("snapshots marked expired: %d, %v", expired, err)
		}
		_, err = st.AttachSnapshot(ctx, m.Digest, "inc-1")
		wantErr(t, "AttachSnapshot of an expired snapshot", err, store.ErrNotFound)
		if _, objs, err := evidence.Objects(ctx, st, "inc-1"); err != nil || len(objs) != 0 {
			t.Errorf("objects of the expired snapshot: %d, %v", len(objs), err)
		}
		if again, err := st.Expire(ctx, now, age); err != nil || again.Snapshots != 0 || again.States != 0 || again.Events != 0 {
			t.Errorf("Expire again = %+v, %v; want nothing", again, err)
		}

		// The same files again: stored anew, under the same snapshot.
		storeSnapshot(t, st, m, ins)
		if err := st.DB().Table("snapshots").Where("expired_at IS NOT NULL").Count(&expired).Error; err != nil || expired != 0 {
			t.Errorf("snapshots marked expired after storing the files again: %d, %v", expired, err)
		}
		if diff := cmp.Diff(stored, counts(t, b.Target, snapshotTables...)); diff != "" {
			t.Errorf("rows after storing the files again (-want +got):\n%s", diff)
		}
		if _, objs, err := evidence.Objects(ctx, st, "inc-1"); err != nil || len(objs) == 0 {
			t.Errorf("objects after storing the files again: %d, %v", len(objs), err)
		}
	})
}

// TestPartitionsConcurrently: servers creating the same day's partition at once all succeed.
func TestPartitionsConcurrently(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		day := time.Date(2031, 5, 4, 10, 0, 0, 0, time.UTC)
		errs := make(chan error, 4)
		for range 4 {
			go func() {
				other, err := store.Open(ctx, b.Target, nil)
				if err != nil {
					errs <- err
					return
				}
				defer other.Close()
				_, err = other.StoreCollected(ctx, "leap", []*cluster.Object{collectedEvent(1, day, day)}, day)
				errs <- err
			}()
		}
		for range 4 {
			if err := <-errs; err != nil {
				t.Error(err)
			}
		}
		if got := counts(t, b.Target, "events")["events"]; got != 1 {
			t.Errorf("event rows = %d, want 1", got)
		}
	})
}

// TestEventsAfterUpgrade: migration 7 keeps the events stored before it (on PostgreSQL,
// moving them into the partitioned table) and the store goes on writing them.
func TestEventsAfterUpgrade(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, _ *store.Store, b storetest.Backend) {
		ctx := t.Context()
		st, err := store.Open(ctx, mustTarget(t, storetest.Fresh(t, b)), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if err := st.MigrateTo(ctx, 6); err != nil {
			t.Fatal(err)
		}
		var raw bytes.Buffer
		zw := gzip.NewWriter(&raw)
		_, _ = zw.Write([]byte(`{"metadata":{"name":"hub.1","namespace":"prod","uid":"ev-1"},"reason":"Evicted"}`))
		_ = zw.Close()
		db := st.DB()
		if err := db.Exec("INSERT INTO clusters (id, name, created_at) VALUES (1, 'leap', '2023-02-01 00:00:00')").Error; err != nil {
			t.Fatal(err)
		}
		if err := db.Exec(`INSERT INTO events (id, cluster_id, identity, api_version, uid, namespace, name, involved_kind, involved_namespace,
			involved_name, involved_uid, involved_field_path, reason, message, type, count, source_component, source_host,
			reporting_controller, reporting_instance, action, raw) VALUES (?, 1, 'uid:ev-1', 'v1', 'ev-1', 'prod', 'hub.1', 'Pod', 'prod',
			'hub', '', '', 'Evicted', '', 'Warning', 2, '', '', '', '', '', ?)`, store.EventID(1, "uid:ev-1"), raw.Bytes()).Error; err != nil {
			t.Fatal(err)
		}
		if err := st.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		evs, err := st.ClusterEvents(ctx, "leap")
		if err != nil || len(evs) != 1 || evs[0].Count != 2 || evs[0].Reason != "Evicted" {
			t.Fatalf("events after the upgrade: %+v, %v", evs, err)
		}
		if _, err := st.StoreCollected(ctx, "leap", []*cluster.Object{collectedEvent(5, time.Now(), time.Now())}, time.Now()); err != nil {
			t.Fatal(err)
		}
		if evs, err := st.ClusterEvents(ctx, "leap"); err != nil || len(evs) != 1 || evs[0].Count != 5 {
			t.Errorf("events after a new sighting: %+v, %v", evs, err)
		}
	})
}

// TestExpireAlerts: alerts expire by when they were last received, not by when they fired:
// resolved ones received before the cutoff go, as do those still firing received four
// retention periods back; an alert received just now stays however long ago it fired or
// ended (Expire right after the answer counted it new deletes nothing), and so does one whose
// resolution came recently; the incident's version changes, so that its cached analysis is
// made again.
func TestExpireAlerts(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		now, age := time.Date(2031, 6, 1, 0, 0, 0, 0, time.UTC), 30*24*time.Hour
		fired := func(fp string, start, end time.Time) alert.Alert {
			a := alert.Alert{Fingerprint: fp, Status: alert.Firing, Labels: map[string]string{"alertname": "KubePodCrashLooping"},
				Annotations: map[string]string{}, StartsAt: start}
			if !end.IsZero() {
				a.Status, a.EndsAt = alert.Resolved, end
			}
			return a
		}
		day := 24 * time.Hour
		received := []struct {
			at     time.Time
			alerts []alert.Alert
		}{
			{now.Add(-40 * day), []alert.Alert{
				fired("0000000000000001", now.Add(-50*day), now.Add(-40*day)), // resolved, received before the cutoff: goes
				fired("0000000000000005", now.Add(-45*day), time.Time{}),      // firing, received within four periods: stays
				fired("0000000000000006", now.Add(-45*day), time.Time{}),      // firing then, its resolution received lately: stays
			}},
			{now.Add(-130 * day), []alert.Alert{
				fired("0000000000000003", now.Add(-200*day), time.Time{}), // firing, received four periods back: goes
			}},
			{now.Add(-time.Minute), []alert.Alert{
				fired("0000000000000002", now.Add(-50*day), now.Add(-40*day)), // ended long ago, received just now: stays
				fired("0000000000000004", now.Add(-200*day), time.Time{}),     // fired long ago, received just now: stays
				fired("0000000000000006", now.Add(-45*day), now.Add(-44*day)),
			}},
		}
		for _, r := range received {
			n, err := st.StoreAlerts(ctx, "leap", r.alerts, r.at)
			if err != nil {
				t.Fatal(err)
			}
			if r.at.Equal(now.Add(-time.Minute)) && n != (store.AlertCounts{New: 2, Resolved: 1}) {
				t.Fatalf("the payload received just now: %+v, want 2 new and 1 resolved", n)
			}
		}
		start := now.Add(-300 * day)
		if err := st.CreateIncident(ctx, &incident.Incident{ID: "old", Title: "Old", Cluster: "leap", StartedAt: &start}); err != nil {
			t.Fatal(err)
		}
		before, err := st.IncidentVersion(ctx, "old")
		if err != nil {
			t.Fatal(err)
		}
		x, err := st.Expire(ctx, now, age)
		if err != nil || x.Alerts != 2 {
			t.Fatalf("Expire = %+v, %v; want 2 alerts", x, err)
		}
		left, err := st.ClusterAlerts(ctx, "leap", now.Add(-400*day), now)
		if err != nil {
			t.Fatal(err)
		}
		var fps []string
		for _, a := range left {
			fps = append(fps, a.Fingerprint)
		}
		slices.Sort(fps)
		if d := cmp.Diff([]string{"0000000000000002", "0000000000000004", "0000000000000005", "0000000000000006"}, fps); d != "" {
			t.Errorf("alerts left (-want +got):\n%s", d)
		}
		if after, err := st.IncidentVersion(ctx, "old"); err != nil || after == before {
			t.Errorf("the incident's version after alerts expired: %v (was %v), %v", after, before, err)
		}
	})
}
