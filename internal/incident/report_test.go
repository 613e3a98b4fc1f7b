package incident

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var (
	symptomKinds = []string{"pod_evicted", "pod_pending"}
	causeKinds   = []string{"capacity_exhaustion", "shared_node_pool", "shared_prometheus"}
)

const il0070 = `---
id: IL-0070
title: Hub restart during a large node scale-up
org: 2i2c
date: 2023-02-01
tags: [kubernetes, observability]
symptoms: [pod_evicted, pod_pending]
root_cause: capacity_exhaustion
causes: [capacity_exhaustion, shared_node_pool, shared_prometheus]
components: [{kind: NodePool, name: core}, {kind: Prometheus, name: support-prometheus-server}]
ticket: freshdesk-414
---
Free text: what happened, how it was detected, lessons.
`

func TestParseReportRoundTrip(t *testing.T) {
	r, err := ParseReport("IL-0070.md", []byte(il0070), symptomKinds, causeKinds)
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != "IL-0070" || r.Org != "2i2c" || r.RootCause != "capacity_exhaustion" || len(r.Components) != 2 ||
		string(r.Extra["ticket"]) != `"freshdesk-414"` || r.Body != "Free text: what happened, how it was detected, lessons." {
		t.Fatalf("parsed %+v", r)
	}
	var b bytes.Buffer
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	again, err := ParseReport("IL-0070.md", b.Bytes(), symptomKinds, causeKinds)
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if diff := cmp.Diff(r, again); diff != "" {
		t.Errorf("round trip (-first +second):\n%s", diff)
	}
}

func TestParseReportVariants(t *testing.T) {
	r, err := ParseReport("notes/IL-0099.md", []byte("# DNS outage\n\nCoreDNS was OOM-killed."), symptomKinds, causeKinds)
	if err != nil || r.ID != "IL-0099" || r.Title != "DNS outage" || !strings.Contains(r.Body, "OOM-killed") {
		t.Errorf("without front matter: %+v, %v", r, err)
	}
	r, err = ParseReport("x.md", []byte("---\nid: x\ntitle: t\ncauses: [shared_prometheus, capacity_exhaustion]\n---\n"), symptomKinds, causeKinds)
	if err != nil || r.RootCause != "shared_prometheus" {
		t.Errorf("root cause defaults to the first cause: %+v, %v", r, err)
	}
	tests := []struct {
		name, doc string
		line      int
		msg       string
	}{
		{"bad yaml", "---\nid: x\ntitle: [unclosed\n---\n", 3, "front matter"},
		{"unknown symptom", "---\nid: x\ntitle: t\nsymptoms: [gremlins]\n---\n", 4, `symptom "gremlins"`},
		{"unknown cause", "---\nid: x\ntitle: t\ncauses: [bad_luck]\n---\n", 4, `cause "bad_luck"`},
		{"bad date", "---\nid: x\ntitle: t\ndate: 1 Feb 2023\n---\n", 4, "YYYY-MM-DD"},
		{"no title", "---\nid: x\n---\n", 2, "title"},
		{"wrong type", "---\nid: x\ntitle: t\ntags: 7\n---\n", 4, "tags"},
		{"bad id from name", "# title\n", 1, "file name"},
		{"empty", " \n", 1, "empty report"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := "bad.md"
			if tt.name == "bad id from name" {
				name = "../weird name.md"
			}
			_, err := ParseReport(name, []byte(tt.doc), symptomKinds, causeKinds)
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != tt.line || !strings.Contains(pe.Msg, tt.msg) || pe.File != name {
				t.Errorf("err = %v (%+v), want line %d about %q", err, pe, tt.line, tt.msg)
			}
		})
	}
}

// TestReportRoundTripEverything: a report with every field an incident has (its window,
// cluster, a person's signature, notes whose text is hostile to YAML and to the front matter's
// fences) writes and reads back the same, and writes the same bytes twice.
func TestReportRoundTripEverything(t *testing.T) {
	start := time.Date(2023, 2, 1, 16, 59, 0, 0, time.UTC)
	end := start.Add(40 * time.Minute)
	r := Report{ID: "IL-0070", Title: "Hub restart: a title with a colon", Org: "2i2c", Date: "2023-02-01", StartedAt: &start, EndedAt: &end,
		Cluster: "leap", Tags: []string{"kubernetes"}, Symptoms: []string{"pod_evicted"}, RootCause: "capacity_exhaustion",
		Causes: []string{"capacity_exhaustion", "shared_prometheus"}, Components: []Component{{"NodePool", "core"}},
		Edited: &Signature{Symptoms: []string{}, RootCause: "shared_prometheus", Causes: []string{"shared_prometheus"}},
		Extra:  map[string]json.RawMessage{"source": json.RawMessage(`"https://example.org/x"`), "ticket": json.RawMessage(`414`), "yes": json.RawMessage(`"yes"`)},
		Notes: []ReportNote{
			{At: start.Add(21 * time.Minute), Author: "yuvi", Kind: Hypothesis, Causes: []string{"capacity_exhaustion"}, Body: "Evicted under **memory pressure**?\n\n---\nnot: front matter\n  indented line\n- item: x"},
			{At: start.Add(30*time.Minute + 123456*time.Microsecond), Kind: Observation, Body: "trailing spaces   \n\ttab, \"quotes\", 'single', # hash, {braces}: ünïcode ✓"},
			{At: start.Add(31 * time.Minute), Kind: Action, Body: "one line"},
		},
		Body: "## What happened\n\nText.\n\n---\n\nMore text after a rule.",
	}
	var first bytes.Buffer
	if err := r.WriteMarkdown(&first); err != nil {
		t.Fatal(err)
	}
	got, err := ParseReport("IL-0070.md", first.Bytes(), symptomKinds, causeKinds)
	if err != nil {
		t.Fatalf("%v\n%s", err, first.String())
	}
	if diff := cmp.Diff(r, got); diff != "" {
		t.Errorf("round trip (-written +read):\n%s\n%s", diff, first.String())
	}
	var second bytes.Buffer
	if err := got.WriteMarkdown(&second); err != nil {
		t.Fatal(err)
	}
	if first.String() != second.String() {
		t.Errorf("the same report wrote different bytes:\n%s\n---- then ----\n%s", first.String(), second.String())
	}
	if !strings.HasPrefix(first.String(), "---\nid: IL-0070\ntitle: ") {
		t.Errorf("the front matter does not start with the id and title:\n%.200s", first.String())
	}
	if i, j := strings.Index(first.String(), "\nticket:"), strings.Index(first.String(), "\nnotes:"); i < 0 || j < i {
		t.Errorf("unknown fields are not before the notes:\n%s", first.String())
	}
}

func TestReportNotes(t *testing.T) {
	doc := "---\nid: x\ntitle: t\ndate: 2023-02-01\nnotes:\n- body: dated by the report\n- at: 2023-02-01T17:20:00+01:00\n  kind: hypothesis\n  causes: [capacity_exhaustion]\n  body: |\n    two\n    lines\n---\n"
	r, err := ParseReport("x.md", []byte(doc), symptomKinds, causeKinds)
	if err != nil {
		t.Fatal(err)
	}
	want := []ReportNote{
		{At: time.Date(2023, 2, 1, 0, 0, 0, 0, time.UTC), Kind: Observation, Body: "dated by the report"},
		{At: time.Date(2023, 2, 1, 16, 20, 0, 0, time.UTC), Kind: Hypothesis, Causes: []string{"capacity_exhaustion"}, Body: "two\nlines"},
	}
	if diff := cmp.Diff(want, r.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	for name, doc := range map[string]string{
		"no time, no date":    "---\nid: x\ntitle: t\nnotes:\n- body: when?\n---\n",
		"unknown kind":        "---\nid: x\ntitle: t\ndate: 2023-02-01\nnotes:\n- {kind: rumour, body: b}\n---\n",
		"cause of no kind":    "---\nid: x\ntitle: t\ndate: 2023-02-01\nnotes:\n- {kind: hypothesis, causes: [bad_luck], body: b}\n---\n",
		"empty body":          "---\nid: x\ntitle: t\ndate: 2023-02-01\nnotes:\n- {kind: action}\n---\n",
		"ends before starts":  "---\nid: x\ntitle: t\nstarted_at: 2023-02-01T17:00:00Z\nended_at: 2023-02-01T16:00:00Z\n---\n",
		"a cluster of spaces": "---\nid: x\ntitle: t\ncluster: my cluster\n---\n",
		"a key twice":         "---\nid: x\ntitle: one\ndate: 2023-02-01\ntitle: two\n---\n",
	} {
		t.Run(name, func(t *testing.T) {
			var pe *ParseError
			if _, err := ParseReport("x.md", []byte(doc), symptomKinds, causeKinds); !errors.As(err, &pe) || pe.Line < 3 {
				t.Errorf("err = %v, want a parse error with its line", err)
			}
		})
	}
}
