package analysis

import (
	"fmt"
	"strings"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// probeRule finds failing probes of one type (Liveness or Readiness): the kubelet's Unhealthy
// events ("Liveness probe failed: …", also "errored"), and for liveness the Killing events
// that restart the container. One symptom per pod, with the number of failures seen.
type probeRule struct {
	probe string // "Liveness" or "Readiness"
	kind  string
}

func (r probeRule) Name() string { return strings.ToLower(r.probe) + "-probe-failed" }

func (r probeRule) Symptoms(in Input) []Symptom {
	byPod := map[string]*Symptom{}
	var order []string
	for _, o := range in.Model.Events {
		e := o.Event
		failed := e.Reason == "Unhealthy" && (strings.HasPrefix(e.Message, r.probe+" probe failed") || strings.HasPrefix(e.Message, r.probe+" probe errored"))
		killed := r.probe == "Liveness" && e.Reason == "Killing" && strings.Contains(e.Message, "failed liveness probe")
		if !failed && !killed {
			continue
		}
		io := e.InvolvedObject
		key := io.Namespace + "/" + io.Name
		s, ok := byPod[key]
		if !ok {
			s = &Symptom{Kind: r.kind, Objects: []ObjectRef{involved(o)}, Node: e.Source.Host}
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
	out := make([]Symptom, 0, len(order))
	for _, key := range order {
		s := byPod[key]
		s.Summary = fmt.Sprintf("%s probe of %s failed %d time(s)", strings.ToLower(r.probe), podPhrase(key), s.Details.Failures)
		if len(s.Objects) == 1 && s.Objects[0].Name == "" {
			s.Objects = []ObjectRef{}
		}
		if n := s.Details.Restarts; n > 0 {
			s.Summary += fmt.Sprintf(", and the container was restarted %d time(s) for it", n)
		}
		out = append(out, *s)
	}
	return out
}
