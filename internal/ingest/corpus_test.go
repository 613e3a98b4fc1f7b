package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// corpusDir is the shared corpus of real kubectl output (../shared/corpus from the repository's
// root). It is read in place and never copied into the project; tests skip without it.
const corpusDir = "../../../shared/corpus"

// TestCorpus decodes the structured files of the shared corpus and checks them against the
// ground truth in its SOURCES.md. The two truncated pastes (a command line, then JSON that
// stops) are refused as malformed with the file and line of the cut; analyze reads them as far
// as they go.
func TestCorpus(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skipf("shared corpus not present (%v)", err)
	}
	type want struct {
		refs    []string
		phases  []string // pod phase/reason, in order
		failure error
	}
	tests := map[string]want{
		"11-kubescout-get-pods-evicted-memory-besteffort.json":                          {refs: []string{"Pod"}, phases: []string{"Failed/Evicted"}},
		"12-kubescout-get-pods-pending-containercreating-scheduled.json":                {refs: []string{"Pod"}, phases: []string{"Pending/"}},
		"13-kubescout-get-nodes-notready-unknown-unreachable-taint.json":                {refs: []string{"Node"}},
		"15-kubescout-get-pods-unschedulable-insufficient-memory-imagepullbackoff.json": {refs: []string{"Pod", "Pod", "Pod", "Pod"}},
		"53-kubescout-get-events-crashloop-bad-command-v1-list.json":                    {refs: []string{"Event", "Event", "Event", "Event", "Event", "Event", "Event", "Event", "Event", "Event"}},
		"04-gitpod-workspace-pod-evicted-diskpressure.json":                             {refs: []string{"Event", "Event", "Pod"}}, // a tool's wrapper, unwrapped
		// A YAML fragment starting at status: after a comment: read as pasted text, its eviction
		// message is kept as a loose phrase.
		"27-k8s-issue105467-evicted-pod-yaml-disruptiontarget-no-reason.yaml": {refs: []string{"Event"}},
		"35-krane-pr666-events.k8s.io-v1beta1-json-failedscheduling-pvc.json": {failure: ErrMalformed},
		"38-k8s-issue19825-pod-json-truncated-memtest.json":                   {failure: ErrMalformed},
	}
	for name, w := range tests {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(corpusDir, name))
			if err != nil {
				t.Skipf("corpus file missing: %v", err)
			}
			objs, _, err := decodeAll(t, name, data, Options{})
			if w.failure != nil {
				var e *Error
				if !errors.Is(err, w.failure) || !errors.As(err, &e) || e.File != name {
					t.Fatalf("err = %v, want %v naming %s", err, w.failure, name)
				}
				return
			}
			if err != nil {
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
