package timeline

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/rules"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/fixtures"
)

// at is a time of the afternoon of 2023-02-01, in minutes and seconds after 17:00.
func at(min, sec int) time.Time {
	return time.Date(2023, 2, 1, 17, min, sec, 0, time.UTC)
}

func nodeAdded(t time.Time, name, pool string) Entry {
	return Entry{At: t, Type: TypeNode, Kind: "NodeAdded", Severity: SeverityInfo, Node: name, Pool: pool,
		Object: "Node " + name, Summary: "node " + name + " added to pool " + pool}
}

func podEvent(t time.Time, reason, pod, pool string) Entry {
	return Entry{At: t, Type: TypeEvent, Kind: reason, Severity: SeverityInfo, Namespace: "prod", Pool: pool,
		Object: "Pod prod/" + pod, Summary: reason + " " + pod, Count: 1}
}

func symptom(t time.Time, id string) Entry {
	return Entry{At: t, Type: TypeSymptom, Kind: "pod_evicted", Severity: SeverityCritical, Ref: id, Summary: "hub evicted"}
}

// notReady is a node's Ready condition going false, cited by the symptoms or causes ids.
func notReady(t time.Time, name, pool string, ids ...string) Entry {
	return Entry{At: t, Type: TypeNode, Kind: "NodeNotReady", Severity: SeverityWarning, Node: name, Pool: pool,
		Object: "Node " + name, Summary: "node " + name + " not ready", Links: ids}
}

// symptomOf is a symptom of a kind.
func symptomOf(t time.Time, id, kind, summary string) Entry {
	return Entry{At: t, Type: TypeSymptom, Kind: kind, Severity: SeverityCritical, Ref: id, Summary: summary}
}

// row is what a test checks of a row: its summary, or for a collapsed row its summary and size.
func rows(es []Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Summary
		if e.Members > 0 {
			out[i] += " [" + e.Ref + "]"
		}
	}
	return out
}

// folds reports whether a folded row may stand for a row: a burst for routine rows only (no
// symptom, evidence or warning), a symptom's or cause's fold for the rows that cite it first.
func folds(r, m Entry) bool {
	if strings.HasPrefix(r.Ref, BurstPrefix) {
		return len(m.Links) == 0 && m.Severity == SeverityInfo && m.Type != TypeSymptom && m.Type != TypeCause
	}
	return len(m.Links) > 0 && m.Links[0] == r.Ref && (m.Type == TypeEvent || m.Type == TypeNode)
}

// TestCollapse runs the collapse rules over small timelines: what folds, what never does, and
// how a folded row reads.
func TestCollapse(t *testing.T) {
	late := func(day, h, m int) time.Time { return time.Date(2023, 2, day, h, m, 0, 0, time.UTC) }
	evidence := podEvent(at(2, 0), "Started", "hub-1", "core")
	evidence.Links = []string{"S1"}
	warning := podEvent(at(2, 30), "Killing", "hub-2", "core")
	warning.Severity = SeverityWarning
	tests := []struct {
		name    string
		entries []Entry
		want    []string
	}{
		{"a burst of nodes added is one row", []Entry{
			nodeAdded(at(0, 10), "n1", "user"), nodeAdded(at(1, 0), "n2", "user"), nodeAdded(at(2, 0), "n3", "user"), nodeAdded(at(4, 5), "n4", "user"),
		}, []string{"+4 nodes in pool user, 17:00–17:04 [burst-nodes-user-20230201T170010Z]"}},
		{"pod events fold by pool, counting kinds and pods", []Entry{
			podEvent(at(0, 0), "Scheduled", "a", "user"), podEvent(at(0, 1), "Pulled", "a", "user"), podEvent(at(0, 2), "Created", "a", "user"),
			podEvent(at(0, 3), "Started", "a", "user"), podEvent(at(1, 0), "Scheduled", "b", "dask"), podEvent(at(1, 1), "Started", "b", "user"),
		}, []string{"5 routine pod events of 2 pods in pool user (Started 2, Created 1, Pulled 1, Scheduled 1), 17:00–17:01 [burst-pods-user-20230201T170000Z]",
			"Scheduled b"}},
		{"a symptom, evidence and a warning inside the burst stay visible", []Entry{
			podEvent(at(0, 0), "Scheduled", "a", "core"), podEvent(at(1, 0), "Pulled", "a", "core"), evidence, symptom(at(2, 10), "S1"),
			warning, podEvent(at(3, 0), "Started", "a", "core"),
		}, []string{"3 routine pod events of 1 pod in pool core (Pulled 1, Scheduled 1, Started 1), 17:00–17:03 [burst-pods-core-20230201T170000Z]",
			"Started hub-1", "hub evicted", "Killing hub-2"}},
		{"fewer than three routine rows stay as they are", []Entry{
			nodeAdded(at(0, 0), "n1", "user"), nodeAdded(at(0, 30), "n2", "user"),
		}, []string{"node n1 added to pool user", "node n2 added to pool user"}},
		{"while the story goes on, a gap starts a new burst", []Entry{
			nodeAdded(at(0, 0), "n1", "user"), nodeAdded(at(1, 0), "n2", "user"), nodeAdded(at(2, 0), "n3", "user"), symptom(at(5, 0), "S1"),
			nodeAdded(at(20, 0), "n4", "user"), nodeAdded(at(21, 0), "n5", "user"), nodeAdded(at(22, 0), "n6", "user"),
		}, []string{"+3 nodes in pool user, 17:00–17:02 [burst-nodes-user-20230201T170000Z]", "hub evicted",
			"+3 nodes in pool user, 17:20–17:22 [burst-nodes-user-20230201T172000Z]"}},
		{"through a quiet stretch a burst goes on", []Entry{
			nodeAdded(late(1, 9, 0), "n1", "core"), nodeAdded(late(1, 12, 0), "n2", "core"), nodeAdded(late(1, 16, 0), "n3", "core"),
			symptom(late(1, 17, 0), "S1"),
		}, []string{"+3 nodes in pool core, 09:00–16:00 [burst-nodes-core-20230201T090000Z]", "hub evicted"}},
		{"while the story goes on, a burst spans at most 15 minutes", []Entry{
			nodeAdded(at(0, 0), "n1", "user"), symptom(at(0, 1), "S1"), nodeAdded(at(4, 0), "n2", "user"), symptom(at(4, 1), "S2"),
			nodeAdded(at(8, 0), "n3", "user"), symptom(at(8, 1), "S3"), nodeAdded(at(12, 0), "n4", "user"), symptom(at(12, 1), "S4"),
			nodeAdded(at(16, 0), "n5", "user"), symptom(at(16, 1), "S5"),
		}, []string{"+4 nodes in pool user, 17:00–17:12 [burst-nodes-user-20230201T170000Z]", "hub evicted", "hub evicted", "hub evicted", "hub evicted",
			"node n5 added to pool user", "hub evicted"}},
		{"the rows cited by a symptom fold under it", []Entry{
			notReady(at(1, 10), "d1", "dask", "S4"), symptomOf(at(1, 10), "S4", "node_not_ready", "4 nodes not ready"),
			notReady(at(1, 20), "d2", "dask", "S4"), notReady(at(1, 30), "d3", "dask", "S4"),
			{At: at(1, 31), Type: TypeEvent, Kind: "NodeNotReady", Severity: SeverityInfo, Node: "d3", Pool: "dask", Object: "Node d3",
				Summary: "Node d3 status is now: NodeNotReady", Count: 2, Links: []string{"S4"}},
			notReady(at(2, 5), "d4", "dask", "S4"),
		}, []string{"Node not ready: 4 nodes in pool dask (NodeNotReady 6), 17:01–17:02 [S4]", "4 nodes not ready"}},
		{"two rows of evidence stay as they are", []Entry{
			notReady(at(1, 10), "d1", "dask", "S4"), notReady(at(1, 20), "d2", "dask", "S4"), symptomOf(at(1, 10), "S4", "node_not_ready", "2 nodes not ready"),
		}, []string{"node d1 not ready", "node d2 not ready", "2 nodes not ready"}},
		{"a row cited by a symptom and a cause folds under the symptom, across pools", []Entry{
			notReady(at(1, 0), "c1", "core", "S1", "C1"), notReady(at(1, 1), "u1", "user", "S1"), notReady(at(1, 2), "u2", "user", "C1", "S1"),
			notReady(at(1, 3), "u3", "user", "S1"), symptomOf(at(1, 4), "S1", "no_such_kind", "nodes down"),
		}, []string{"no_such_kind: 3 nodes (NodeNotReady 3), 17:01 [S1]", "node u2 not ready", "nodes down"}},
		{"a burst goes on around folded evidence", []Entry{
			nodeAdded(at(0, 0), "n1", "user"), notReady(at(0, 1), "n1", "user", "S1"), nodeAdded(at(0, 2), "n2", "user"),
			notReady(at(0, 3), "n2", "user", "S1"), nodeAdded(at(0, 4), "n3", "user"), notReady(at(0, 5), "n3", "user", "S1"),
		}, []string{"+3 nodes in pool user, 17:00 [burst-nodes-user-20230201T170000Z]", "S1: 3 nodes in pool user (NodeNotReady 3), 17:00 [S1]"}},
		{"the dates of a burst across midnight", []Entry{
			nodeAdded(late(1, 23, 58), "n1", "user"), nodeAdded(late(1, 23, 59), "n2", "user"), nodeAdded(late(2, 0, 3), "n3", "user"),
		}, []string{"+3 nodes in pool user, 2023-02-01 23:58–2023-02-02 00:03 [burst-nodes-user-20230201T235800Z]"}},
		{"no date on one day of a timeline that spans days", []Entry{
			nodeAdded(late(1, 17, 0), "n1", "user"), nodeAdded(late(1, 17, 1), "n2", "user"), nodeAdded(late(1, 17, 4), "n3", "user"),
			symptom(late(2, 9, 0), "S1"),
		}, []string{"+3 nodes in pool user, 17:00–17:04 [burst-nodes-user-20230201T170000Z]", "hub evicted"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, total := Apply(tt.entries, Filter{Collapse: true})
			if diff := cmp.Diff(tt.want, rows(got)); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			if total != len(got) {
				t.Errorf("total %d, %d rows", total, len(got))
			}
			// Every row folded is there when its row is expanded, and the counts add up.
			seen := 0
			for _, r := range got {
				if r.At.IsZero() {
					t.Errorf("row %q has no time", r.Summary)
				}
				if r.Members == 0 {
					seen++
					continue
				}
				members, n := Apply(tt.entries, Filter{Collapse: true, Expand: r.Ref})
				if n != r.Members || len(members) != n {
					t.Errorf("%s: %d members listed (total %d), the row says %d", r.Ref, len(members), n, r.Members)
				}
				sum := 0
				for _, m := range members {
					sum += max(m.Count, 1)
					if !folds(r, m) {
						t.Errorf("%s folded %q", r.Ref, m.Summary)
					}
				}
				if sum != r.Count || r.Last == nil && !members[len(members)-1].At.Equal(r.At) {
					t.Errorf("%s: count %d, members sum to %d; last %v", r.Ref, r.Count, sum, r.Last)
				}
				seen += n
			}
			if seen != len(tt.entries) {
				t.Errorf("%d entries shown or reachable, of %d", seen, len(tt.entries))
			}
		})
	}
}

// TestCollapseFilters: filters select before folding (a burst of one kind or one node), paging
// counts folded rows, a grouping replaces the folding, and collapse off shows every row.
func TestCollapseFilters(t *testing.T) {
	var es []Entry
	for i := range 30 {
		pool := "user"
		if i%3 == 0 {
			pool = "dask"
		}
		es = append(es, nodeAdded(at(i/10, i%10), "n"+string(rune('a'+i)), pool))
	}
	es = append(es, symptom(at(3, 0), "S1"))
	tests := []struct {
		name  string
		f     Filter
		want  []string
		total int
	}{
		{"collapsed", Filter{Collapse: true}, []string{"+10 nodes in pool dask, 17:00–17:02 [burst-nodes-dask-20230201T170000Z]",
			"+20 nodes in pool user, 17:00–17:02 [burst-nodes-user-20230201T170001Z]", "hub evicted"}, 3},
		{"one node", Filter{Collapse: true, Node: "na"}, []string{"node na added to pool dask"}, 1},
		{"paged", Filter{Collapse: true, Offset: 1, Limit: 1}, []string{"+20 nodes in pool user, 17:00–17:02 [burst-nodes-user-20230201T170001Z]"}, 3},
		{"expanded and paged", Filter{Collapse: true, Expand: "burst-nodes-dask-20230201T170000Z", Offset: 8},
			[]string{"node ny added to pool dask", "node n| added to pool dask"}, 10},
		{"unknown row to expand", Filter{Collapse: true, Expand: "burst-nodes-core-20230201T170000Z"}, []string{}, 0},
		{"symptoms only", Filter{Collapse: true, Types: []string{TypeSymptom}}, []string{"hub evicted"}, 1},
		{"not collapsed", Filter{Limit: 2}, []string{"node na added to pool dask", "node nb added to pool user"}, 31},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, total := Apply(es, tt.f)
			if diff := cmp.Diff(tt.want, rows(got)); diff != "" || total != tt.total {
				t.Errorf("total %d, want %d; rows (-want +got):\n%s", total, tt.total, diff)
			}
		})
	}
}

// TestExpandGroup: a symptom group's members are rows of their own, listed only when the group
// is expanded; a filter matching a member selects its group.
func TestExpandGroup(t *testing.T) {
	g := symptom(at(1, 0), "S1")
	g.Members, g.Count = 2, 2
	m1, m2 := symptom(at(1, 0), "S1.1"), symptom(at(2, 0), "S1.2")
	m1.Parent, m2.Parent = "S1", "S1"
	m1.Node, m2.Node = "core-1", "core-2"
	es := []Entry{g, m1, m2, nodeAdded(at(3, 0), "x", "user")}
	for _, tt := range []struct {
		name string
		f    Filter
		want []string
	}{
		{"the group alone", Filter{Collapse: true}, []string{"hub evicted [S1]", "node x added to pool user"}},
		{"its members", Filter{Expand: "S1"}, []string{"hub evicted", "hub evicted"}},
		{"a member on a node selects the group", Filter{Node: "core-2"}, []string{"hub evicted [S1]"}},
		{"the member on that node", Filter{Node: "core-2", Expand: "S1"}, []string{"hub evicted"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := Apply(es, tt.f)
			if diff := cmp.Diff(tt.want, rows(got)); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSpanAndThousands(t *testing.T) {
	for _, tt := range []struct {
		from, to time.Time
		want     string
	}{
		{at(0, 10), at(4, 59), "17:00–17:04"},
		{at(0, 10), at(0, 50), "17:00"},
		{at(0, 0), at(0, 0).Add(24 * time.Hour), "2023-02-01 17:00–2023-02-02 17:00"},
		{at(0, 0).Add(6*time.Hour + 58*time.Minute), at(0, 0).Add(7*time.Hour + 3*time.Minute), "2023-02-01 23:58–2023-02-02 00:03"},
	} {
		if got := Span(tt.from, tt.to); got != tt.want {
			t.Errorf("Span(%s, %s) = %q, want %q", tt.from, tt.to, got, tt.want)
		}
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1204: "1,204", 1234567: "1,234,567", -1204: "-1,204"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestFoldEvidence: the row a symptom's evidence folds into is as alarming as the most alarming
// of them, links to everything they are evidence of, and expands (by the symptom's id) into them
// and the symptom's members, filtered by the same view.
func TestFoldEvidence(t *testing.T) {
	g := symptomOf(at(1, 0), "S4", "node_not_ready", "nodes not ready")
	g.Members, g.Count = 1, 1
	member := symptomOf(at(1, 0), "S4.1", "node_not_ready", "d1 not ready")
	member.Parent, member.Node = "S4", "d1"
	quiet := notReady(at(1, 40), "d3", "dask", "S4")
	quiet.Severity = SeverityInfo
	es := []Entry{notReady(at(1, 0), "d1", "dask", "S4", "C6"), g, member, notReady(at(1, 30), "d2", "dask", "S4"), quiet,
		nodeAdded(at(2, 0), "x", "user")}
	got, total := Apply(es, Filter{Collapse: true})
	if total != 3 || got[0].Ref != "S4" || got[0].Members != 3 || got[0].Severity != SeverityWarning || !linksAre(got[0].Links, "S4", "C6") ||
		got[0].Last == nil || !got[0].Last.Equal(at(1, 40)) || got[0].Node != "" || got[0].Pool != "dask" {
		t.Fatalf("rows %q; the fold: %+v", rows(got), got[0])
	}
	for _, tt := range []struct {
		name string
		f    Filter
		want []string
	}{
		{"its member and its evidence", Filter{Expand: "S4"}, []string{"node d1 not ready", "d1 not ready", "node d2 not ready", "node d3 not ready"}},
		{"on one node", Filter{Expand: "S4", Node: "d2"}, []string{"node d2 not ready"}},
		{"warnings only", Filter{Expand: "S4", Severity: SeverityWarning, Types: []string{TypeNode}}, []string{"node d1 not ready", "node d2 not ready"}},
		{"not under a cause it cites second", Filter{Expand: "C6"}, []string{}},
		{"a filter selects before folding", Filter{Collapse: true, Node: "d1"}, []string{"node d1 not ready", "nodes not ready [S4]"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := Apply(es, tt.f)
			if diff := cmp.Diff(tt.want, rows(got)); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGroupKeepsFolds: grouping events by node or namespace groups the rows left unfolded;
// bursts and evidence stay folded as in the view without it. With collapse off, it groups alone.
func TestGroupKeepsFolds(t *testing.T) {
	var es []Entry
	for i := range 6 {
		es = append(es, nodeAdded(at(0, i), fmt.Sprintf("n%d", i), "user"), notReady(at(0, i), fmt.Sprintf("n%d", i), "user", "S4"))
	}
	for i := range 4 {
		e := podEvent(at(1, i), "FailedMount", fmt.Sprintf("p%d", i), "user")
		e.Severity, e.Node = SeverityWarning, "n"+strconv.Itoa(i%2)
		es = append(es, e)
	}
	es = append(es, symptomOf(at(2, 0), "S4", "node_not_ready", "nodes not ready"))
	want := []string{"+6 nodes in pool user, 17:00 [burst-nodes-user-20230201T170000Z]",
		"Node not ready: 6 nodes in pool user (NodeNotReady 6), 17:00 [S4]", "FailedMount p0", "FailedMount p1", "nodes not ready"}
	for _, by := range []string{"node", "namespace"} {
		got, total := Apply(es, Filter{Collapse: true, GroupBy: by})
		if by == "namespace" {
			want = slices.Delete(slices.Clone(want), 3, 4) // one namespace: the four events are one row
		}
		if diff := cmp.Diff(want, rows(got)); diff != "" || total != len(want) {
			t.Errorf("group=%s: %d rows (-want +got):\n%s", by, total, diff)
		}
		for _, r := range got {
			if r.Kind == "FailedMount" && r.Count != 4/(len(want)-3) {
				t.Errorf("group=%s: %q counts %d", by, r.Summary, r.Count)
			}
			if r.Members > 0 {
				if members, n := Apply(es, Filter{Collapse: true, GroupBy: by, Expand: r.Ref}); n != r.Members || len(members) != n {
					t.Errorf("group=%s: %s lists %d of %d", by, r.Ref, n, r.Members)
				}
			}
		}
	}
	if _, total := Apply(es, Filter{GroupBy: "node"}); total != 6+6+2+1 {
		t.Errorf("group=node, collapse off: %d rows, want every node row, the events grouped by node", total)
	}
}

// TestExpandEveryOfferedRow runs views of both readings of IL-0070: the evicted one's timeline
// is at most 40 rows, none of its 96 nodes not ready a row of its own; in every view, every
// row that stands for others lists exactly them when expanded (a burst its routine rows, a
// symptom or cause its members and evidence), and the rows shown and listed add up to the rows
// of the same view unfolded.
func TestExpandEveryOfferedRow(t *testing.T) {
	views := []Filter{{}, {GroupBy: "node"}, {GroupBy: "namespace"}, {Types: []string{TypeNode}}, {Types: []string{TypeEvent}},
		{Severity: SeverityWarning}, {Namespace: "prod"}, {Kind: "NodeNotReady"}, {Node: "gke-leap-core-pool-b3f2e0a1-c7eo"},
		{From: at(1, 0), To: at(3, 0)}, {Types: []string{TypeSymptom, TypeCause}}}
	for _, variant := range []string{"evicted", "liveness"} {
		m := cluster.NewModel(nil, fixtures.Decode(t, fixtures.IL0070VariantDir(variant), fixtures.IL0070Files()...))
		entries := Build(m, rules.Run(m, analysis.Options{}), nil)
		if variant == "evicted" {
			got, total := Apply(entries, Filter{Collapse: true})
			if total > 40 {
				t.Errorf("evicted: %d rows folded, want at most 40", total)
			}
			for _, r := range got {
				if r.Kind == "NodeNotReady" && r.Members == 0 {
					t.Errorf("evicted: a node not ready is a row of its own: %q", r.Summary)
				}
			}
		}
		for _, v := range views {
			v.Collapse = true
			name := fmt.Sprintf("%s %+v", variant, v)
			got, _ := Apply(entries, v)
			unfolded := v
			unfolded.Collapse = false
			if v.GroupBy == "" {
				_, want := Apply(entries, unfolded)
				shown := 0
				for _, r := range got {
					if r.Type == TypeSymptom || r.Type == TypeCause {
						shown++ // a group's members are not rows of the view unfolded either
					} else {
						shown += max(r.Members, 1)
					}
				}
				if shown != want {
					t.Errorf("%s: %d rows shown or folded, %d rows unfolded", name, shown, want)
				}
			}
			for _, r := range got {
				if r.Members == 0 {
					continue
				}
				e := v
				e.Expand = r.Ref
				members, n := Apply(entries, e)
				if n == 0 || len(members) != n {
					t.Errorf("%s: %s (%q) expands into %d rows", name, r.Ref, r.Summary, n)
				}
				if r.Type == TypeSymptom || r.Type == TypeCause {
					continue // its members, and the rows of its evidence (the fold beside it)
				}
				if n != r.Members {
					t.Errorf("%s: %s stands for %d rows and lists %d", name, r.Ref, r.Members, n)
				}
				for _, mr := range members {
					if !folds(r, mr) {
						t.Errorf("%s: %s lists %q", name, r.Ref, mr.Summary)
					}
				}
			}
		}
	}
}
