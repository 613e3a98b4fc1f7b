package store_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// The uids of the events in events.jsonl.
const (
	evictedUID    = "e0000000-0000-4000-8000-000000000001" // core/v1
	schedulingUID = "e0000000-0000-4000-8000-000000000002" // events.k8s.io/v1 with a series
	pvcUID        = "e0000000-0000-4000-8000-000000000003" // events.k8s.io/v1beta1 with deprecated fields
)

const evictedMessage = "The node was low on resource: memory. Threshold quantity: 100Mi, available: 67412Ki. " +
	"Container hub was using 1043212Ki, request is 512Mi, has larger consumption of memory. "

// eventRecord is what an events row says about an event's identity and history.
type eventRecord struct {
	Cluster    string
	UID        string
	APIVersion string
	Reason     string
	Message    string
	Count      int32
	FirstAt    *time.Time
	LastAt     *time.Time
}

// fixtureEvents is events.jsonl as stored for a cluster.
func fixtureEvents(t *testing.T, clusterName string) []eventRecord {
	return []eventRecord{
		{clusterName, evictedUID, "v1", "Evicted", evictedMessage, 1,
			ptr(ts(t, "2023-02-01T17:06:00Z")), ptr(ts(t, "2023-02-01T17:06:00Z"))},
		// The series gives the count and the last time; eventTime the first.
		{clusterName, schedulingUID, "events.k8s.io/v1", "FailedScheduling",
			"0/126 nodes are available: 23 Insufficient cpu, 96 node(s) had untolerated taint {node.kubernetes.io/not-ready: }.", 4,
			ptr(ts(t, "2023-02-01T17:00:30Z")), ptr(ts(t, "2023-02-01T17:03:30Z"))},
		{clusterName, pvcUID, "events.k8s.io/v1beta1", "FailedScheduling",
			"0/1 nodes are available: 1 node(s) didn't find available persistent volumes to bind.", 25,
			ptr(ts(t, "2020-01-17T04:41:19Z")), ptr(ts(t, "2020-01-17T04:41:48Z"))},
	}
}

// readEvents returns the events table, by cluster and uid.
func readEvents(t *testing.T, st *store.Store) []eventRecord {
	t.Helper()
	var rows []eventRecord
	err := st.DB().WithContext(t.Context()).Table("events").
		Select("clusters.name AS cluster, events.uid, events.api_version, events.reason, events.message, events.count, events.first_at, events.last_at").
		Joins("JOIN clusters ON clusters.id = events.cluster_id").
		Order("clusters.name, events.uid").Scan(&rows).Error
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		for _, p := range []**time.Time{&rows[i].FirstAt, &rows[i].LastAt} {
			if *p != nil {
				*p = ptr((*p).UTC())
			}
		}
	}
	return rows
}

// eventLink is a snapshot_events row.
type eventLink struct {
	Digest     string
	UID        string
	SourceFile string
	SourceLine int
}

func readLinks(t *testing.T, st *store.Store) []eventLink {
	t.Helper()
	var rows []eventLink
	err := st.DB().WithContext(t.Context()).Table("snapshot_events").
		Select("snapshots.digest, events.uid, snapshot_events.source_file, snapshot_events.source_line").
		Joins("JOIN snapshots ON snapshots.id = snapshot_events.snapshot_id").
		Joins("JOIN events ON events.id = snapshot_events.event_id").
		Order("snapshots.digest, events.uid").Scan(&rows).Error
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// sighting is one way of seeing the Evicted event of events.jsonl; empty times are left out.
type sighting struct {
	count       int
	first, last string
	message     string
}

// jsonl renders the sighting as a core/v1 Event line.
func (s sighting) jsonl(t *testing.T) []byte {
	t.Helper()
	ev := map[string]any{
		"apiVersion": "v1", "kind": "Event",
		"metadata":       map[string]any{"name": "hub-7c9f8d6b5-x2x7k.1740a1b2c3d4e5f6", "namespace": "prod", "uid": evictedUID},
		"involvedObject": map[string]any{"kind": "Pod", "namespace": "prod", "name": "hub-7c9f8d6b5-x2x7k"},
		"reason":         "Evicted", "message": s.message, "type": "Warning", "count": s.count,
	}
	if s.first != "" {
		ev["firstTimestamp"] = s.first
	}
	if s.last != "" {
		ev["lastTimestamp"] = s.last
	}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

func TestEventsStored(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		createIncident(t, st, "inc-1", "leap")
		ins := fixtures(t, "events.jsonl")
		m := metaFor("inc-1", "", ins)
		storeSnapshot(t, st, m, ins)
		if diff := cmp.Diff(fixtureEvents(t, "leap"), readEvents(t, st)); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
		want := []eventLink{
			{m.Digest, evictedUID, "events.jsonl", 1},
			{m.Digest, schedulingUID, "events.jsonl", 2},
			{m.Digest, pvcUID, "events.jsonl", 4}, // after a blank line
		}
		if diff := cmp.Diff(want, readLinks(t, st)); diff != "" {
			t.Errorf("snapshot_events (-want +got):\n%s", diff)
		}
	})
}

// TestEventUpsert stores snapshot after snapshot, each carrying the Evicted event of
// events.jsonl again: its row converges to the highest count, the widest span, and the
// message of the latest sighting, whatever order the sightings arrive in.
func TestEventUpsert(t *testing.T) {
	t.Parallel()
	first := ts(t, "2023-02-01T17:06:00Z")
	steps := []struct {
		name string
		s    sighting
		want eventRecord
	}{
		{
			name: "later and more often",
			s:    sighting{3, "2023-02-01T17:06:30Z", "2023-02-01T17:20:00Z", "evicted again"},
			want: eventRecord{Count: 3, FirstAt: &first, LastAt: ptr(ts(t, "2023-02-01T17:20:00Z")), Message: "evicted again"},
		},
		{
			name: "stale copy",
			s:    sighting{2, "2023-02-01T17:05:00Z", "2023-02-01T17:10:00Z", "stale"},
			// The span widens to the earlier first time; count, last time and message stay.
			want: eventRecord{Count: 3, FirstAt: ptr(ts(t, "2023-02-01T17:05:00Z")), LastAt: ptr(ts(t, "2023-02-01T17:20:00Z")), Message: "evicted again"},
		},
		{
			name: "same time, higher count",
			s:    sighting{7, "2023-02-01T17:06:00Z", "2023-02-01T17:20:00Z", "counted on"},
			want: eventRecord{Count: 7, FirstAt: ptr(ts(t, "2023-02-01T17:05:00Z")), LastAt: ptr(ts(t, "2023-02-01T17:20:00Z")), Message: "counted on"},
		},
		{
			name: "same time, lower count",
			s:    sighting{5, "2023-02-01T17:06:00Z", "2023-02-01T17:20:00Z", "counted less"},
			want: eventRecord{Count: 7, FirstAt: ptr(ts(t, "2023-02-01T17:05:00Z")), LastAt: ptr(ts(t, "2023-02-01T17:20:00Z")), Message: "counted on"},
		},
		{
			name: "a fraction of a second later",
			s:    sighting{1, "2023-02-01T17:06:00Z", "2023-02-01T17:20:00.5Z", "half a second on"},
			want: eventRecord{Count: 7, FirstAt: ptr(ts(t, "2023-02-01T17:05:00Z")), LastAt: ptr(ts(t, "2023-02-01T17:20:00.5Z")), Message: "half a second on"},
		},
	}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		createIncident(t, st, "inc-1", "leap")
		ins := fixtures(t, "events.jsonl")
		storeSnapshot(t, st, metaFor("inc-1", "", ins), ins)
		want := fixtureEvents(t, "leap")
		for i, step := range steps {
			t.Run(step.name, func(t *testing.T) {
				in := []input{{name: "events.jsonl", data: step.s.jsonl(t)}}
				storeSnapshot(t, st, metaFor("inc-1", "", in), in)
				step.want.Cluster, step.want.UID, step.want.APIVersion, step.want.Reason = "leap", evictedUID, "v1", "Evicted"
				want[0] = step.want
				if diff := cmp.Diff(want, readEvents(t, st)); diff != "" {
					t.Errorf("events (-want +got):\n%s", diff)
				}
				wantRows := map[string]int64{"snapshots": int64(i + 2), "events": 3, "snapshot_events": int64(3 + i + 1)}
				if diff := cmp.Diff(wantRows, counts(t, b.Target, "snapshots", "events", "snapshot_events")); diff != "" {
					t.Errorf("rows (-want +got):\n%s", diff)
				}
			})
		}
	})
}

// TestEventWithoutTimes: a sighting with no time at all is older than any with one.
func TestEventWithoutTimes(t *testing.T) {
	t.Parallel()
	untimed := sighting{count: 9, message: "no times"}
	timed := sighting{2, "2023-02-01T17:06:00Z", "2023-02-01T17:07:00Z", "timed"}
	tests := []struct {
		name  string
		order []sighting
	}{
		{"untimed first", []sighting{untimed, timed}},
		{"untimed last", []sighting{timed, untimed}},
	}
	want := []eventRecord{{"leap", evictedUID, "v1", "Evicted", "timed", 9,
		ptr(ts(t, "2023-02-01T17:06:00Z")), ptr(ts(t, "2023-02-01T17:07:00Z"))}}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		for i, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				id := fmt.Sprintf("inc-%d", i)
				createIncident(t, st, id, "leap")
				t.Cleanup(func() { clearSnapshots(t, st) })
				for _, s := range tt.order {
					in := []input{{name: id + ".jsonl", data: s.jsonl(t)}}
					storeSnapshot(t, st, metaFor(id, "", in), in)
				}
				if diff := cmp.Diff(want, readEvents(t, st)); diff != "" {
					t.Errorf("events (-want +got):\n%s", diff)
				}
			})
		}
	})
}

// TestEventTwiceInOneSnapshot: files of one snapshot may overlap; the event is stored once,
// merged, and linked to the snapshot once, at its first sighting.
func TestEventTwiceInOneSnapshot(t *testing.T) {
	t.Parallel()
	newer := sighting{5, "2023-02-01T17:06:00Z", "2023-02-01T17:30:00Z", "evicted five times"}
	merged := eventRecord{"leap", evictedUID, "v1", "Evicted", "evicted five times", 5,
		ptr(ts(t, "2023-02-01T17:06:00Z")), ptr(ts(t, "2023-02-01T17:30:00Z"))}
	tests := []struct {
		name      string
		between   int // generated pods and events between the two files, to flush a batch
		newerLast bool
	}{
		{"older file first", 0, true},
		{"newer file first", 0, false},
		{"a batch between", 450, true},
	}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		for i, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				id := fmt.Sprintf("inc-%d", i)
				createIncident(t, st, id, "leap")
				t.Cleanup(func() { clearSnapshots(t, st) })
				one, two := fixture(t, "events.jsonl"), input{data: newer.jsonl(t)}
				if !tt.newerLast {
					one, two = two, one
				}
				one.name, two.name = "a/events.jsonl", "b/events.jsonl"
				objs, _ := decode(t, []input{one})
				objs = append(objs, generated(tt.between)...)
				more, _ := decode(t, []input{two})
				objs = append(objs, more...)
				m := metaFor(id, "", []input{one, two})
				snap := storeObjects(t, st, m, objs, nil)

				want := fixtureEvents(t, "leap")
				want[0] = merged
				got := readEvents(t, st)
				if len(got) > 3 {
					got = got[:3] // the generated events sort after the fixture's
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("events (-want +got):\n%s", diff)
				}
				links := readLinks(t, st)
				var evicted []eventLink
				for _, l := range links {
					if l.UID == evictedUID {
						evicted = append(evicted, l)
					}
				}
				if diff := cmp.Diff([]eventLink{{m.Digest, evictedUID, "a/events.jsonl", 1}}, evicted); diff != "" {
					t.Errorf("links of the Evicted event (-want +got):\n%s", diff)
				}
				wantRows := map[string]int64{"events": int64(3 + tt.between), "snapshot_events": int64(3 + tt.between)}
				if diff := cmp.Diff(wantRows, counts(t, b.Target, "events", "snapshot_events")); diff != "" {
					t.Errorf("rows (-want +got):\n%s", diff)
				}
				// Objects counts distinct events: the one met twice counts once.
				if got := snap.Objects["Event"]; got != 3+tt.between {
					t.Errorf("Objects[Event] = %d, want %d", got, 3+tt.between)
				}
			})
		}
	})
}

// TestEventsPerCluster: the same event uid on two clusters is two events.
func TestEventsPerCluster(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		createIncident(t, st, "inc-1", "leap")
		createIncident(t, st, "inc-2", "other")
		ins := fixtures(t, "events.jsonl")
		storeSnapshot(t, st, metaFor("inc-1", "", ins), ins)
		// The same events in other bytes, so in another snapshot.
		ins[0].data = append(ins[0].data, '\n')
		storeSnapshot(t, st, metaFor("inc-2", "", ins), ins)
		want := append(fixtureEvents(t, "leap"), fixtureEvents(t, "other")...)
		if diff := cmp.Diff(want, readEvents(t, st)); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(map[string]int64{"events": 6, "snapshot_events": 6}, counts(t, b.Target, "events", "snapshot_events")); diff != "" {
			t.Errorf("rows (-want +got):\n%s", diff)
		}
	})
}
