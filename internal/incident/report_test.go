package incident

import (
	"bytes"
	"errors"
	"strings"
	"testing"

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
