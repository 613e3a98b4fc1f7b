package rules

import (
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// TestNotReadyNodeWithoutName: a describe node's fragment that lost its Name: line (a paste
// cut above its taints) is a node not ready that the input does not name: no object with an
// empty name, and no "node  was not ready" in its words.
func TestNotReadyNodeWithoutName(t *testing.T) {
	t.Parallel()
	paste := "Taints:             node.kubernetes.io/unreachable:NoExecute\n                    node.kubernetes.io/unreachable:NoSchedule\nUnschedulable:      false\n"
	rep := Run(model(t, paste), analysis.Options{})
	if len(rep.Symptoms) != 1 || rep.Symptoms[0].Kind != analysis.NodeNotReady {
		t.Fatalf("symptoms = %+v, want one node_not_ready", rep.Symptoms)
	}
	s := rep.Symptoms[0]
	for _, o := range s.Objects {
		if o.Name == "" {
			t.Errorf("objects = %+v: one without a name", s.Objects)
		}
	}
	if !strings.Contains(s.Summary, "does not name") || strings.Contains(s.Summary, "node  ") {
		t.Errorf("summary = %q, want the node said to be unnamed", s.Summary)
	}
	if len(s.Evidence) == 0 {
		t.Error("the taint is not cited")
	}
}
