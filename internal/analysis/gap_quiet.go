package analysis

import (
	"fmt"
	"strings"
)

// quietGap says so when the input shows no trouble at all: no symptom of any kind. An empty
// report would leave the reader to wonder whether anything was read; this says what was read,
// and what would have shown trouble had it been there.
type quietGap struct{}

func (quietGap) Name() string { return "no-symptoms" }

func (quietGap) Gaps(in Input, r *Report) []Gap {
	if len(r.Symptoms) > 0 || len(r.Context) > 0 {
		return nil
	}
	m := in.Model
	var read []string
	for _, c := range []struct {
		n    int
		what string
	}{{len(m.Pods), "pod"}, {len(m.Nodes), "node"}, {len(m.Events), "event"}, {len(m.Others), "other object"}} {
		if c.n > 0 {
			read = append(read, fmt.Sprintf("%d %s(s)", c.n, c.what))
		}
	}
	what := "nothing Rootline reads"
	if len(read) > 0 {
		what = strings.Join(read, ", ")
	}
	return []Gap{{Kind: GapNoSymptoms, Summary: fmt.Sprintf("no sign of trouble in the input (%s read): no pod evicted, pending, "+
		"crashing or OOM-killed, no failing probe, no node not ready or under pressure; if the incident is not here, the events of "+
		"its time may have expired (collect them with rootline collect)", what)}}
}
