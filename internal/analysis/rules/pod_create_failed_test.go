package rules

import (
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// TestPodCreateFailedControllerKind names the controller a refusal gives only by its pods'
// generateName: a ReplicaSet where the name ends in a pod template's hash, else of no kind the
// input says, and the summary says "controller" rather than a kind it guessed.
func TestPodCreateFailedControllerKind(t *testing.T) {
	tests := []struct {
		name, paste, kind, summary string
	}{
		{"no kind said", "> Error creating: pods \"agent-\" is forbidden: error looking up service account infra/agent: serviceaccount \"agent\" not found\n",
			"", "controller infra/agent could not create its pods"},
		{"a ReplicaSet's name", "> Error creating: pods \"web-7d9f5c6b8-\" is forbidden: error looking up service account prod/web: serviceaccount \"web\" not found\n",
			"ReplicaSet", "ReplicaSet prod/web-7d9f5c6b8 could not create its pods"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := Run(model(t, tt.paste), analysis.Options{})
			if len(rep.Symptoms) != 1 || len(rep.Symptoms[0].Objects) != 1 {
				t.Fatalf("symptoms %+v, want one of one object", rep.Symptoms)
			}
			s := rep.Symptoms[0]
			if s.Objects[0].Kind != tt.kind {
				t.Errorf("kind %q, want %q", s.Objects[0].Kind, tt.kind)
			}
			if !strings.HasPrefix(s.Summary, tt.summary) {
				t.Errorf("summary %q, want it to begin %q", s.Summary, tt.summary)
			}
		})
	}
}
