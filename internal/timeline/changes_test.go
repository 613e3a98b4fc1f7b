package timeline

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// TestChangeRows: each change the analysis read is a row at the end of its window (else its
// start), with its diff, linked to the recent_change cause standing on it and the symptoms that
// cause explains; the cause links back; a change of no known time is left out; change rows
// are never folded, and the type filter selects them.
func TestChangeRows(t *testing.T) {
	t1, t2 := time.Date(2023, 2, 1, 16, 40, 0, 0, time.UTC), time.Date(2023, 2, 1, 16, 50, 0, 0, time.UTC)
	at := t2.Add(time.Minute)
	const field = "spec.template.spec.containers[hub].image"
	rep := analysis.Report{
		Changes: []analysis.Change{
			{ID: "X1", Change: change.Change{Kind: "Deployment", Namespace: "prod", Name: "hub", Field: field, Before: "hub:3.0.0", After: "hub:3.0.1-typo",
				Path: change.Path{Attr: change.Image, Template: true, Container: "hub"}, Since: t1, Until: t2, Source: cluster.Source{File: "deploy.json", Line: 3}}},
			{ID: "X2", Change: change.Change{Kind: "Node", Name: "core-1", Field: "spec.taints", Path: change.Path{Attr: change.Taints}, Before: "", After: "gpu:NoSchedule", Since: t1}},
			{ID: "X3", Change: change.Change{Kind: "ConfigMap", Namespace: "prod", Name: "hub-config", Field: "data[a]", Before: "x", After: "y"}},
		},
		Symptoms: []analysis.Symptom{{ID: "S1", Kind: analysis.ImagePullFailed, At: &at, Summary: "hub cannot pull",
			Objects: []analysis.ObjectRef{{Kind: "Pod", Namespace: "prod", Name: "hub-2-x"}}}},
		Causes: []analysis.Cause{{ID: "C1", Kind: analysis.RecentChange, Role: analysis.Root, Explains: []string{"S1"}, Changes: []string{"X1"},
			Summary: "the image changed"}},
	}
	entries := Build(cluster.NewModel(nil, nil), rep, nil)
	rows := map[string]Entry{}
	for _, e := range entries {
		rows[e.Ref] = e
	}
	if _, ok := rows["X3"]; ok {
		t.Errorf("a change of no known time is on the timeline: %+v", rows["X3"])
	}
	x1 := rows["X1"]
	since, until := t1, t2
	want := Entry{At: t2, Type: TypeChange, Kind: "image", Severity: SeverityWarning, Namespace: "prod", Object: "Deployment prod/hub", Ref: "X1",
		Of:      analysis.ObjectRef{Kind: "Deployment", Namespace: "prod", Name: "hub"},
		Summary: "Deployment prod/hub " + field + ": hub:3.0.0 → hub:3.0.1-typo (between 2023-02-01T16:40:00Z and 2023-02-01T16:50:00Z)",
		Links:   []string{"C1", "S1"}, Source: "deploy.json:3",
		Diff: &Diff{Field: field, Before: "hub:3.0.0", After: "hub:3.0.1-typo", Since: &since, Until: &until}}
	if d := cmp.Diff(want, x1); d != "" {
		t.Errorf("the change row (-want +got):\n%s", d)
	}
	x2 := rows["X2"]
	if !x2.At.Equal(t1) || x2.Severity != SeverityInfo || x2.Node != "core-1" || len(x2.Links) != 0 || x2.Kind != "taints" || x2.Diff.Until != nil {
		t.Errorf("a change known only to have started: %+v", x2)
	}
	if c1 := rows["C1"]; !cmp.Equal(c1.Links, []string{"S1", "X1"}) {
		t.Errorf("the cause links %v, want its symptom and its change", c1.Links)
	}
	if !cmp.Equal(rep.Causes[0].Explains, []string{"S1"}) {
		t.Errorf("the report's cause was changed: explains %v", rep.Causes[0].Explains)
	}
	// At one instant a change comes before what followed it.
	for i, e := range entries {
		if e.Ref == "S1" && i > 0 && entries[i-1].Ref == "X1" && !entries[i-1].At.Before(e.At) {
			t.Errorf("order at one instant: %v", entries)
		}
	}
	for _, tt := range []struct {
		name string
		f    Filter
		want []string
	}{
		{"collapsed", Filter{Collapse: true, Types: []string{TypeChange}}, []string{"X2", "X1"}},
		{"by node", Filter{GroupBy: "node", Types: []string{TypeChange}}, []string{"X2", "X1"}},
		{"kind", Filter{Kind: "image"}, []string{"X1"}},
		{"warnings", Filter{Severity: SeverityWarning, Types: []string{TypeChange}}, []string{"X1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			page, _ := Apply(entries, tt.f)
			var got []string
			for _, e := range page {
				got = append(got, e.Ref)
			}
			if !cmp.Equal(got, tt.want) {
				t.Errorf("rows %v, want %v", got, tt.want)
			}
		})
	}
}

func TestChangeKind(t *testing.T) {
	for _, tt := range []struct {
		c    change.Change
		want string
	}{
		{change.Change{Field: "spec.template.spec.containers[hub].resources.limits.memory",
			Path: change.Path{Attr: change.Limits, Template: true, Container: "hub", Resource: "memory"}}, "limits.memory"},
		{change.Change{Field: "spec.template.spec.initContainers[init].image",
			Path: change.Path{Attr: change.Image, Template: true, Container: "init", Init: true}}, "image"},
		{change.Change{Field: "spec.template.spec.nodeSelector", Path: change.Path{Attr: change.NodeSelector, Template: true}}, "nodeSelector"},
		{change.Change{Field: "spec.replicas", Path: change.Path{Attr: change.Replicas}}, "replicas"},
		{change.Change{Field: "data[hub.conf]", Path: change.Path{Attr: change.Data, Key: "hub.conf"}}, "data[hub.conf]"},
		// The kind is read from the values, never from the text made for people.
		{change.Change{Field: "spec.replicas", Path: change.Path{Attr: change.Suspend}}, "suspend"},
		{change.Change{Before: change.Absent, After: "Deployment hub", Was: change.Value{Absent: true}}, "created"},
		{change.Change{Before: "x", After: change.Absent, Is: change.Value{Absent: true}}, "deleted"},
		{change.Change{Before: "x", After: "y"}, "changed"},
	} {
		if got := ChangeKind(tt.c); got != tt.want {
			t.Errorf("ChangeKind(%+v) = %q, want %q", tt.c, got, tt.want)
		}
	}
}
