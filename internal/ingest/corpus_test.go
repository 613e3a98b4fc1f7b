package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/corpustest"
)

// TestCorpus decodes the structured files of the shared corpus and checks them against the
// ground truth in its SOURCES.md. The truncated pastes (a command line, then JSON that
// stops; a YAML status cut mid-key) are malformed with the file and line of the cut, and say
// so (Truncated); what was whole before the cut is emitted.
func TestCorpus(t *testing.T) {
	corpusDir := corpustest.Dir(t)
	type want struct {
		refs      []string
		phases    []string // pod phase/reason, in order
		failure   error
		truncated bool
	}
	tests := map[string]want{
		"11-kubescout-get-pods-evicted-memory-besteffort.json":                          {refs: []string{"Pod"}, phases: []string{"Failed/Evicted"}},
		"12-kubescout-get-pods-pending-containercreating-scheduled.json":                {refs: []string{"Pod"}, phases: []string{"Pending/"}},
		"13-kubescout-get-nodes-notready-unknown-unreachable-taint.json":                {refs: []string{"Node"}},
		"15-kubescout-get-pods-unschedulable-insufficient-memory-imagepullbackoff.json": {refs: []string{"Pod", "Pod", "Pod", "Pod"}},
		"53-kubescout-get-events-crashloop-bad-command-v1-list.json":                    {refs: []string{"Event", "Event", "Event", "Event", "Event", "Event", "Event", "Event", "Event", "Event"}},
		"04-gitpod-workspace-pod-evicted-diskpressure.json":                             {refs: []string{"Event", "Event", "Pod"}}, // a tool's wrapper, unwrapped
		// A pod's status alone after a comment, cut mid-key: the pod (its kind told by its
		// conditions) as far as it goes.
		"27-k8s-issue105467-evicted-pod-yaml-disruptiontarget-no-reason.yaml": {refs: []string{"Pod"}, phases: []string{"/"}, failure: ErrMalformed, truncated: true},
		"91-sematic-issue189-pod-status-unschedulable-insufficient-cpu.yaml":  {refs: []string{"Pod"}, phases: []string{"Pending/"}},
		// Cut pastes: the object at the cut is read as far as it goes.
		"35-krane-pr666-events.k8s.io-v1beta1-json-failedscheduling-pvc.json": {refs: []string{"Event"}, failure: ErrMalformed, truncated: true},
		"38-k8s-issue19825-pod-json-truncated-memtest.json":                   {refs: []string{"Pod"}, failure: ErrMalformed, truncated: true},
	}
	for name, w := range tests {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(corpusDir, name))
			if err != nil {
				t.Fatal(err)
			}
			objs, _, err := decodeAll(t, name, data, Options{})
			if w.failure != nil {
				var e *Error
				if !errors.Is(err, w.failure) || !errors.As(err, &e) || e.File != name || e.Truncated != w.truncated {
					t.Fatalf("err = %v, want %v naming %s (truncated %v)", err, w.failure, name, w.truncated)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			var kinds, phases []string
			for _, o := range objs {
				kinds = append(kinds, o.Kind)
				if o.Pod != nil {
					phases = append(phases, string(o.Pod.Status.Phase)+"/"+o.Pod.Status.Reason)
				}
			}
			if diff := cmp.Diff(w.refs, kinds); diff != "" {
				t.Errorf("kinds (-want +got):\n%s", diff)
			}
			if w.phases != nil {
				if diff := cmp.Diff(w.phases, phases); diff != "" {
					t.Errorf("phases (-want +got):\n%s", diff)
				}
			}
		})
	}
}
