package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// quietGap says so when the input shows no trouble at all: no symptom of any kind. An empty
// report would leave the reader to wonder whether anything was read; this says what was read,
// and what would have shown trouble had it been there.
type quietGap struct{}

func (quietGap) Name() string { return "no-symptoms" }

func (quietGap) Gaps(in analysis.Input, r *analysis.Report) []analysis.Gap {
	if len(r.Symptoms) > 0 || len(r.Context) > 0 {
		return nil
	}
	m := in.Model
	claims, _ := m.Claims()
	var read []string
	for _, c := range []struct {
		n    int
		what string
	}{{len(m.Pods), "pod"}, {len(m.Nodes), "node"}, {len(m.Events), "event"}, {len(m.Others) - len(claims), "other object"},
		{len(claims), "sentence of people"}} {
		if c.n > 0 {
			read = append(read, fmt.Sprintf("%d %s", c.n, plural(c.n, c.what)))
		}
	}
	what := "it held nothing Rootline reads"
	if len(read) > 0 {
		what = strings.Join(read, ", ") + " read"
	}
	var reported []string
	for _, c := range r.Claims {
		for _, k := range c.Symptoms {
			if !slices.Contains(reported, k) {
				reported = append(reported, k)
			}
		}
	}
	if len(reported) > 0 {
		return []analysis.Gap{{Kind: analysis.GapNoSymptoms, Summary: fmt.Sprintf("no output of the cluster shows what the input's authors report (%s): "+
			"%s; the events, pods and nodes of the incident's time would (kubectl get events -A -o json, kubectl get pods -A -o json, "+
			"or rootline collect while it happens)", strings.Join(reported, ", "), what)}}
	}
	return []analysis.Gap{{Kind: analysis.GapNoSymptoms, Summary: fmt.Sprintf("no sign of trouble in the input (%s): no pod evicted, pending, "+
		"crashing or OOM-killed, no failing probe, no node not ready or under pressure; if the incident is not here, the events of "+
		"its time may have expired (collect them with rootline collect)", what)}}
}

// plural is a noun for n of it: "1 pod", "3 pods", "2 sentences of people".
func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	if word, rest, ok := strings.Cut(noun, " "); ok {
		return word + "s " + rest
	}
	return noun + "s"
}
