package rules

import (
	"fmt"
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// probeRule finds failing probes of one type (Liveness, Readiness or Startup): the kubelet's
// Unhealthy events ("Liveness probe failed: …", also "errored"), and for liveness and startup
// the Killing events that restart the container. One symptom per pod, with the number of
// failures seen.
type probeRule struct {
	probe string // "Liveness", "Readiness" or "Startup"
	kind  string
}

func (r probeRule) Name() string { return strings.ToLower(r.probe) + "-probe-failed" }

func (r probeRule) Symptoms(in analysis.Input) []analysis.Symptom {
	byPod := map[string]*analysis.Symptom{}
	var order []string
	for _, o := range in.Model.Events {
		e := o.Event
		sign := eventSign(in, o, r.kind)
		killing := e.Reason == "Killing" || sign != nil && sign.Reason == "Killing"
		failed := !killing && (e.Reason == "Unhealthy" && (hasPrefixFold(e.Message, r.probe+" probe failed") || hasPrefixFold(e.Message, r.probe+" probe errored")) || sign != nil)
		killed := r.probe != "Readiness" && killing && (strings.Contains(e.Message, "failed "+strings.ToLower(r.probe)+" probe") || sign != nil)
		if !failed && !killed {
			continue
		}
		io := e.InvolvedObject
		key := io.Namespace + "/" + io.Name
		s, ok := byPod[key]
		if !ok {
			s = &analysis.Symptom{Kind: r.kind, Objects: []analysis.ObjectRef{involved(o)}, Node: e.Source.Host}
			byPod[key] = s
			order = append(order, key)
		}
		count, first, _ := cluster.EventTimes(e)
		if failed {
			s.Details.Failures += int(count)
			if s.Details.Output == "" {
				s.Details.Output = e.Message
			}
		} else {
			s.Details.Restarts += int(count)
		}
		s.Evidence = append(s.Evidence, citeEvent(o))
		s.At = earliest(s.At, timePtr(first))
	}
	out := make([]analysis.Symptom, 0, len(order))
	for _, key := range order {
		s := byPod[key]
		s.Summary = fmt.Sprintf("%s probe of %s failed %d time(s)", strings.ToLower(r.probe), podPhrase(key), s.Details.Failures)
		if len(s.Objects) == 1 && s.Objects[0].Name == "" {
			s.Objects = []analysis.ObjectRef{}
		}
		if n := s.Details.Restarts; n > 0 {
			s.Summary += fmt.Sprintf(", and the container was restarted %d time(s) for it", n)
		}
		out = append(out, *s)
	}
	return out
}

// hasPrefixFold reports whether s begins with prefix, in any case: a probe's kind is written
// "Liveness" by the kubelet, "liveness" by some tools that record events.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
