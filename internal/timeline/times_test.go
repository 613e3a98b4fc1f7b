package timeline

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/incident"
)

// timesModel is a small cluster: an event with both times, one with only its last, one with
// none, an evicted pod whose DisruptionTarget condition says when, and a node of pool core.
func timesModel() *cluster.Model {
	event := func(name string, line int, first, last time.Time) *cluster.Object {
		e := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Namespace: "prod", Name: name}, Reason: "Evicted", Type: corev1.EventTypeWarning,
			Message: name, InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "prod", Name: "hub-1"},
			FirstTimestamp: metav1.NewTime(first), LastTimestamp: metav1.NewTime(last)}
		return &cluster.Object{Kind: cluster.KindEvent, Namespace: "prod", Name: name, Source: cluster.Source{File: "events.json", Line: int32(line)}, Event: cluster.EventOf(e)}
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "prod", Name: "hub-1", CreationTimestamp: metav1.NewTime(at(-60, 0))},
		Spec: corev1.PodSpec{NodeName: "core-1"},
		Status: corev1.PodStatus{Phase: corev1.PodFailed, Reason: "Evicted", Conditions: []corev1.PodCondition{
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(at(-59, 0))},
			{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(at(6, 0))}}}}
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "core-1", CreationTimestamp: metav1.NewTime(at(-90, 0)),
		Labels: map[string]string{"cloud.google.com/gke-nodepool": "core"}}}
	return cluster.NewModel(nil, []*cluster.Object{
		event("hub-1.a", 12, at(5, 30), at(5, 40)),
		event("hub-1.b", 30, time.Time{}, at(7, 0)),
		event("hub-1.c", 40, time.Time{}, time.Time{}),
		{Kind: cluster.KindPod, Namespace: "prod", Name: "hub-1", Source: cluster.Source{File: "pods.json", Line: 5}, Pod: cluster.PodOf(pod)},
		{Kind: cluster.KindNode, Name: "core-1", Source: cluster.Source{File: "nodes.json", Line: 2}, Node: node},
	})
}

// TestBuildTimes: no row without a real time. Each symptom or cause without a time of its own
// borrows one (from its evidence (the condition it cites, of a pod), its first member, its group, the first symptom it explains)
// and says where from, in at_from and in its summary; what has nothing to borrow is left out.
func TestBuildTimes(t *testing.T) {
	ptr := func(t time.Time) *time.Time { return &t }
	ev := func(file string, line int, o analysis.ObjectRef, field string) []analysis.Evidence {
		return []analysis.Evidence{{File: file, Line: line, Object: o, Ref: o.String(), Field: field}}
	}
	rep := analysis.Report{
		Symptoms: []analysis.Symptom{
			{ID: "S1", Kind: analysis.PodEvicted, At: ptr(at(5, 30)), Summary: "own time", Evidence: ev("events.json", 12, analysis.ObjectRef{Kind: "Event", Namespace: "prod", Name: "hub-1.a"}, "reason")},
			{ID: "S2", Kind: analysis.PodEvicted, Summary: "from an event", Evidence: ev("events.json", 30, analysis.ObjectRef{Kind: "Event", Namespace: "prod", Name: "hub-1.b"}, "reason")},
			{ID: "S3", Kind: analysis.EvictedPodsLingering, Summary: "from the pod", Evidence: []analysis.Evidence{{File: "pods.json", Line: 5, Object: analysis.ObjectRef{Kind: "Pod", Namespace: "prod", Name: "hub-1"},
				Ref: "Pod prod/hub-1", Field: "status.conditions[DisruptionTarget]", Condition: "DisruptionTarget"}}},
			{ID: "S7", Kind: analysis.PodPending, Summary: "from a condition", Evidence: []analysis.Evidence{{File: "pods.json", Line: 5,
				Object: analysis.ObjectRef{Kind: "Pod", Namespace: "prod", Name: "hub-1"}, Ref: "Pod prod/hub-1", Field: "status.conditions[PodScheduled]", Condition: "PodScheduled"}}},
			{ID: "S4", Kind: analysis.PodPending, Summary: "nothing to go by", Evidence: ev("notes.md", 3, analysis.ObjectRef{Kind: "Pod", Namespace: "prod", Name: "gone"}, "")},
			{ID: "S5", Kind: analysis.PodEvicted, At: ptr(at(8, 0)), Summary: "borrowed by the analysis", Details: analysis.Details{AtFrom: "pods.json:5 status"},
				Evidence: ev("pods.json", 5, analysis.ObjectRef{Kind: "Pod", Namespace: "prod", Name: "hub-1"}, "status.reason")},
			{ID: "S6", Kind: analysis.OOMKilled, Summary: "a group", Count: 3, Members: []analysis.Symptom{
				{ID: "S6.1", Kind: analysis.OOMKilled, At: ptr(at(9, 0)), Summary: "first"},
				{ID: "S6.2", Kind: analysis.OOMKilled, At: ptr(at(8, 30)), Summary: "earlier"},
				{ID: "S6.3", Kind: analysis.OOMKilled, Summary: "undated"},
			}},
		},
		Causes: []analysis.Cause{
			{ID: "C1", Kind: analysis.CapacityExhaustion, Role: analysis.Root, Summary: "root", Explains: []string{"S3", "S2"}},
			{ID: "C2", Kind: analysis.MemoryOverRequest, Summary: "explains nothing dated", Explains: []string{"S4"}},
			{ID: "C3", Kind: analysis.MemoryOverRequest, Summary: "by its evidence", Explains: []string{"S4"}, Evidence: ev("events.json", 12, analysis.ObjectRef{Kind: "Event", Namespace: "prod", Name: "hub-1.a"}, "")},
		},
	}
	notes := []incident.Note{{ID: 1, At: at(20, 0), Body: "dated"}, {ID: 2, Body: "undated"}}
	entries := Build(timesModel(), rep, notes)

	type row struct{ At, Ref, AtFrom, Summary, Parent string }
	var got []row
	for _, e := range entries {
		if e.At.IsZero() {
			t.Errorf("%s %q has no time", e.Type, e.Summary)
		}
		if e.Type == TypeNode || (e.AtFrom != "") != strings.Contains(e.Summary, "(time from "+e.AtFrom+")") {
			if e.Type != TypeNode {
				t.Errorf("%s: at_from %q, summary %q: the summary must say it", e.Ref, e.AtFrom, e.Summary)
			}
			continue
		}
		got = append(got, row{e.At.Format("15:04:05"), e.Ref, e.AtFrom, e.Summary, e.Parent})
	}
	want := []row{
		{"16:01:00", "S7", "evidence pods.json:5 Pod prod/hub-1", "from a condition (time from evidence pods.json:5 Pod prod/hub-1)", ""},
		{"17:05:30", "", "", "hub-1.a", ""},
		{"17:05:30", "S1", "", "own time", ""},
		{"17:05:30", "C3", "evidence events.json:12 Event prod/hub-1.a", "by its evidence (time from evidence events.json:12 Event prod/hub-1.a)", ""},
		{"17:06:00", "S3", "evidence pods.json:5 Pod prod/hub-1", "from the pod (time from evidence pods.json:5 Pod prod/hub-1)", ""},
		{"17:06:00", "C1", "symptom S3", "root (time from symptom S3)", ""},
		{"17:07:00", "", "", "hub-1.b", ""},
		{"17:07:00", "S2", "evidence events.json:30 Event prod/hub-1.b", "from an event (time from evidence events.json:30 Event prod/hub-1.b)", ""},
		{"17:08:00", "S5", "pods.json:5 status", "borrowed by the analysis (time from pods.json:5 status)", ""},
		{"17:08:30", "S6", "member S6.2", "a group (time from member S6.2)", ""},
		{"17:08:30", "S6.2", "", "earlier", "S6"},
		{"17:08:30", "S6.3", "group S6", "undated (time from group S6)", "S6"},
		{"17:09:00", "S6.1", "", "first", "S6"},
		{"17:20:00", "note-1", "", "dated", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	for _, e := range entries {
		if e.Ref == "S6" && (e.Members != 3 || e.Count != 3) {
			t.Errorf("group S6: %d members, count %d; want 3", e.Members, e.Count)
		}
		if e.Ref == "" && e.Type == TypeEvent && !linksAre(e.Links, "S1", "C3") && !linksAre(e.Links, "S2") {
			t.Errorf("event %q links %v: it is the evidence of S1 and C3, or of S2", e.Summary, e.Links)
		}
		if e.Type == TypeNode && e.Pool != "core" {
			t.Errorf("node row %q: pool %q", e.Summary, e.Pool)
		}
		if e.Type == TypeEvent && e.Pool != "core" {
			t.Errorf("event %q on node %q: pool %q", e.Summary, e.Node, e.Pool)
		}
	}
}

func linksAre(got []string, want ...string) bool { return cmp.Equal(got, want) }

// TestCitedRowsStay: a node added that a symptom cites (its creation time) is evidence, links to
// the symptom and is never folded with the others.
func TestCitedRowsStay(t *testing.T) {
	var objs []*cluster.Object
	for i, name := range []string{"n1", "n2", "n3", "n4"} {
		n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, CreationTimestamp: metav1.NewTime(at(i, 0)),
			Labels: map[string]string{"cloud.google.com/gke-nodepool": "user"}}}
		objs = append(objs, &cluster.Object{Kind: cluster.KindNode, Name: name, Source: cluster.Source{File: "nodes.json", Line: int32(i + 1)}, Node: n})
	}
	rep := analysis.Report{Symptoms: []analysis.Symptom{{ID: "S1", Kind: analysis.ScaleUp, Summary: "scale-up",
		Evidence: []analysis.Evidence{{File: "nodes.json", Line: 3, Object: analysis.ObjectRef{Kind: "Node", Name: "n3"}, Ref: "Node n3", Field: "metadata.creationTimestamp"}}}}}
	got, _ := Apply(Build(cluster.NewModel(nil, objs), rep, nil), Filter{Collapse: true})
	want := []string{"+3 nodes in pool user, 17:00–17:03 [burst-nodes-user-20230201T170000Z]", "node n3 added to pool user",
		"scale-up (time from evidence nodes.json:3 Node n3)"}
	if diff := cmp.Diff(want, rows(got)); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if !linksAre(got[1].Links, "S1") {
		t.Errorf("the cited node row links %v, want S1", got[1].Links)
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("node n-1 had 394% of its CPU requested; ", 20)
	got := clip(long)
	if len([]rune(got)) > maxSummary+2 || !strings.HasSuffix(got, "requested …") || !strings.HasPrefix(long, strings.TrimSuffix(got, " …")) {
		t.Errorf("clip = %q", got)
	}
	if short := "one clause"; clip(short) != short {
		t.Errorf("clip(%q) = %q", short, clip(short))
	}
}
