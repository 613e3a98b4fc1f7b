package timeline

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/rules"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/incident"
)

func il0070(t *testing.T) (*cluster.Model, analysis.Report) {
	t.Helper()
	m := fixtures.IL0070Model(t)
	return m, rules.Run(m, analysis.Options{})
}

func TestBuild(t *testing.T) {
	m, rep := il0070(t)
	note := incident.Note{ID: 7, At: time.Date(2023, 2, 1, 17, 20, 0, 0, time.UTC), Author: "yuvi", Kind: incident.Hypothesis,
		Body: "Evicted under memory pressure?\nmore", Causes: []string{analysis.CapacityExhaustion}}
	entries := Build(m, rep, []incident.Note{note})

	for i, e := range entries {
		if e.At.IsZero() {
			t.Errorf("entry %d (%s %s %q) has no time", i, e.Type, e.Ref, e.Summary)
		}
		if i > 0 && e.At.Before(entries[i-1].At) {
			t.Fatalf("entry %d (%s) is before entry %d", i, e.At, i-1)
		}
	}
	count := map[string]int{}
	var evicted, root *Entry
	for i, e := range entries {
		if e.Parent == "" { // a group's members are rows of their own, listed when it is expanded
			count[e.Type]++
		}
		if e.Type == TypeSymptom && e.Kind == analysis.PodEvicted {
			evicted = &entries[i]
		}
		if e.Type == TypeCause && e.Kind == analysis.CapacityExhaustion {
			root = &entries[i]
		}
	}
	if count[TypeSymptom] != len(rep.Symptoms) || count[TypeCause] != len(rep.Causes) || count[TypeNote] != 1 {
		t.Errorf("entries by type = %v", count)
	}
	if evicted == nil || root == nil {
		t.Fatalf("no evicted symptom or capacity cause on the timeline")
	}
	if !slices.Contains(evicted.Links, root.Ref) || !slices.Contains(root.Links, evicted.Ref) {
		t.Errorf("symptom %s links %v, cause %s links %v: they should name each other", evicted.Ref, evicted.Links, root.Ref, root.Links)
	}
	if root.Severity != SeverityCritical || evicted.Severity != SeverityCritical || evicted.Source == "" {
		t.Errorf("severities %s/%s, source %q", root.Severity, evicted.Severity, evicted.Source)
	}
	// Events are collapsed: fewer entries than events, and the counts all kept.
	events, occurrences := 0, 0
	for _, e := range entries {
		if e.Type == TypeEvent {
			events++
			occurrences += e.Count
		}
	}
	want := 0
	for _, o := range m.Events {
		c, _, _ := cluster.EventTimes(o.Event)
		want += int(c)
	}
	if events > len(m.Events) || occurrences != want {
		t.Errorf("%d event entries for %d events; %d occurrences, want %d", events, len(m.Events), occurrences, want)
	}
	if count[TypeNode] < 126 {
		t.Errorf("%d node entries, want at least one per node", count[TypeNode])
	}
}

func TestApplyAndBuckets(t *testing.T) {
	m, rep := il0070(t)
	entries := Build(m, rep, nil)
	from := time.Date(2023, 2, 1, 17, 0, 0, 0, time.UTC)
	to := from.Add(10 * time.Minute)
	tests := []struct {
		name  string
		f     Filter
		check func(Entry) bool
	}{
		{"symptoms", Filter{Types: []string{TypeSymptom}}, func(e Entry) bool { return e.Type == TypeSymptom }},
		{"critical", Filter{Severity: SeverityCritical}, func(e Entry) bool { return e.Severity == SeverityCritical }},
		{"namespace", Filter{Namespace: "prod", Types: []string{TypeEvent}}, func(e Entry) bool { return e.Namespace == "prod" }},
		{"window", Filter{From: from, To: to}, func(e Entry) bool { return !e.At.After(to) }},
		{"kind", Filter{Kind: "FailedScheduling"}, func(e Entry) bool { return e.Kind == "FailedScheduling" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page, total := Apply(entries, tt.f)
			if total == 0 || len(page) != total {
				t.Fatalf("page %d of %d", len(page), total)
			}
			for _, e := range page {
				if !tt.check(e) {
					t.Errorf("entry %+v does not match %+v", e, tt.f)
				}
			}
		})
	}
	all, total := Apply(entries, Filter{})
	page, total2 := Apply(entries, Filter{Offset: 10, Limit: 5})
	if total != len(entries) || total2 != total || len(page) != 5 || page[0].Summary != all[10].Summary {
		t.Errorf("paging: total %d/%d, page %d", total, total2, len(page))
	}
	buckets := Buckets(entries, from, to, time.Minute)
	sum, warn := 0, 0
	for _, b := range buckets {
		sum += b.Events
		warn += b.Warnings
	}
	if len(buckets) != 11 || sum == 0 || warn == 0 || warn > sum {
		t.Errorf("buckets: %d, %d events, %d warnings", len(buckets), sum, warn)
	}
}

func TestGroup(t *testing.T) {
	m, rep := il0070(t)
	entries := Build(m, rep, nil)
	plain, _ := Apply(entries, Filter{Types: []string{TypeEvent}, Kind: "FailedScheduling"})
	grouped, total := Apply(entries, Filter{Types: []string{TypeEvent}, Kind: "FailedScheduling", GroupBy: "namespace"})
	if len(plain) < 2 || total != 1 || len(grouped) != 1 {
		t.Fatalf("%d FailedScheduling entries grouped into %d (total %d), want one", len(plain), len(grouped), total)
	}
	sum, objects := 0, map[string]bool{}
	for _, e := range plain {
		sum += e.Count
		objects[e.Object] = true
	}
	if grouped[0].Count != sum || grouped[0].Object != fmt.Sprintf("%d objects", len(objects)) {
		t.Errorf("group = count %d, %q; want %d occurrences of %d objects", grouped[0].Count, grouped[0].Object, sum, len(objects))
	}
	if got := Group(entries, "nonsense"); len(got) != len(entries) {
		t.Errorf("an unknown grouping changed the entries")
	}
}
