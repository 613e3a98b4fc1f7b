package analysis

import (
	"fmt"
)

// restartedRule finds containers that restarted for reasons other than the OOM killer (which
// oomRule reports): a restart count with the last termination's reason and exit code.
type restartedRule struct{}

func (restartedRule) Name() string { return "container-restarted" }

func (restartedRule) Symptoms(in Input) []Symptom {
	var out []Symptom
	for _, o := range in.Model.Pods {
		for _, cs := range allStatuses(o.Pod) {
			t := cs.LastTerminationState.Terminated
			restarts := cs.RestartCount
			if restarts == 0 && t != nil && cs.State.Running != nil {
				// A last termination and a container running again: it restarted, at least once,
				// though the paste lost the count (a describe cut short).
				restarts = 1
			}
			if restarts == 0 || (t != nil && t.Reason == "OOMKilled") {
				continue
			}
			s := Symptom{Kind: ContainerRestarted, Objects: []ObjectRef{ref(o)}, Node: o.Pod.Spec.NodeName, pod: o,
				Details: Details{Restarts: int(restarts), RestartDetails: RestartDetails{Container: cs.Name}}}
			value := fmt.Sprintf("%d restart(s)", restarts)
			if cs.RestartCount == 0 {
				value = "restarted (a last termination, and running again; the restart count is not in the input)"
			}
			if t != nil {
				value += fmt.Sprintf("; last terminated: %s, exit code %d", t.Reason, t.ExitCode)
				s.Details.Reason, s.Details.ExitCode = t.Reason, &t.ExitCode
				s.At = timePtr(t.FinishedAt.Time)
			}
			s.Evidence = []Evidence{cite(o, fmt.Sprintf("status.containerStatuses[%s].restartCount", cs.Name), value)}
			name := "container " + cs.Name
			if cs.Name == "" {
				name = "a container" // a pods table gives counts, not names
			}
			s.Summary = fmt.Sprintf("%s of %s restarted %d time(s)", name, podPhrase(o.Namespace+"/"+o.Name), restarts)
			if cs.RestartCount == 0 {
				s.Summary = fmt.Sprintf("%s of %s restarted", name, podPhrase(o.Namespace+"/"+o.Name))
			}
			if o.Name == "" {
				s.Objects = []ObjectRef{}
			}
			if t != nil && t.Reason != "" {
				s.Summary += fmt.Sprintf(" (last: %s, exit code %d)", t.Reason, t.ExitCode)
			}
			out = append(out, s)
		}
	}
	return out
}
