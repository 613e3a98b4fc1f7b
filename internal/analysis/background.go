package analysis

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/cluster"
	corev1 "k8s.io/api/core/v1"
)

// ContextNote is something the input shows that is not a symptom of the incident, with why:
// background a reader would otherwise take for one.
type ContextNote struct {
	Summary  string      `json:"summary"`
	Objects  []ObjectRef `json:"objects"`
	Evidence []Evidence  `json:"evidence"`
}

// Background restarts. A container that restarted once, and runs and is ready again, is
// background rather than a symptom when the restart is older than the rest of the evidence by
// more than backgroundGap, or when it restarted together with nodeRestartMin or more system
// pods of its node: the node or its kubelet restarted then.
const (
	backgroundGap  = time.Hour
	nodeRestartMin = 3
)

// separateBackground moves the restarts that are background out of the symptoms.
func separateBackground(syms []Symptom) ([]Symptom, []ContextNote) {
	var start time.Time // the earliest time of the other symptoms
	for _, s := range syms {
		if s.Kind != ContainerRestarted && s.At != nil && (start.IsZero() || s.At.Before(start)) {
			start = *s.At
		}
	}
	quiet := map[int]bool{} // indexes of restarts that happened once and are over
	byNode := map[string][]int{}
	for i, s := range syms {
		if s.Kind != ContainerRestarted || s.Pod == nil || !onceAndRecovered(s) {
			continue
		}
		quiet[i] = true
		if node := s.Pod.Pod.Spec.NodeName; node != "" && s.Pod.Namespace == "kube-system" {
			byNode[node] = append(byNode[node], i)
		}
	}
	drop := map[int]bool{}
	var notes []ContextNote
	for _, node := range slices.Sorted(maps.Keys(byNode)) {
		idx := byNode[node]
		if len(idx) < nodeRestartMin {
			continue
		}
		n := ContextNote{Objects: []ObjectRef{}}
		var names []string
		for _, i := range idx {
			drop[i] = true
			n.Objects = append(n.Objects, syms[i].Objects...)
			n.Evidence = append(n.Evidence, syms[i].Evidence...)
			names = append(names, syms[i].Objects[0].Name)
		}
		n.Summary = fmt.Sprintf("%d system pods of node %s restarted once each and run again (%s): the node or its kubelet restarted; not a symptom",
			len(idx), node, phrase.First(names, 5))
		if at := syms[idx[0]].At; at != nil {
			n.Summary += ", at " + at.UTC().Format(time.RFC3339)
		}
		notes = append(notes, n)
	}
	for i, s := range syms {
		if !quiet[i] || drop[i] || s.At == nil || start.IsZero() || start.Sub(*s.At) <= backgroundGap {
			continue
		}
		drop[i] = true
		notes = append(notes, ContextNote{Objects: s.Objects, Evidence: s.Evidence,
			Summary: fmt.Sprintf("%s restarted once at %s, %s before the rest of the evidence begins (%s), and runs again: background, not a symptom",
				s.Label(), s.At.UTC().Format(time.RFC3339), phrase.Duration(int(start.Sub(*s.At).Seconds())), start.UTC().Format(time.RFC3339))})
	}
	if len(drop) == 0 {
		return syms, nil
	}
	keep := syms[:0:0]
	for i, s := range syms {
		if !drop[i] {
			keep = append(keep, s)
		}
	}
	sort.SliceStable(notes, func(i, j int) bool { return strings.Compare(notes[i].Summary, notes[j].Summary) < 0 })
	return keep, notes
}

// onceAndRecovered reports whether a restart symptom is one restart of a container that now
// runs and is ready, with no reason given for it that would make it a symptom on its own.
func onceAndRecovered(s Symptom) bool {
	name := s.Details.Container
	for _, cs := range cluster.ContainerStatuses(s.Pod.Pod) {
		if cs.Name != name {
			continue
		}
		if cs.RestartCount != 1 || !cs.Ready || cs.State.Running == nil && cs.State != (corev1.ContainerState{}) {
			return false
		}
		t := cs.LastTerminationState.Terminated
		return t == nil || t.Reason == "" || t.Reason == "Completed" || t.Reason == "Error" || t.Reason == "Unknown"
	}
	return false
}
