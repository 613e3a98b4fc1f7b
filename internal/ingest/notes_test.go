package ingest

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// notesFile is a README as people write one beside the evidence: kubectl words in inline code,
// a PromQL selector, a pods row and a fence of words as examples, and two sentences that say
// what the author saw. Read as a paste, each example is evidence of its own.
const notesFile = "# IL-0070: the hub evicted during a scale-up\n\n" +
	"Captured with `kubectl get nodes,pods,events -A -o json` after the page.\n\n" +
	"What to look for: a pod status of `OOMKilled`, `Evicted` or `CrashLoopBackOff`; nodes `NotReady`.\n" +
	"We checked for `OOMKilled` and found none.\n\n" +
	"| query | what |\n| --- | --- |\n| `kube_pod_container_status_last_terminated_reason{reason=\"OOMKilled\"}` | OOM kills |\n\n" +
	"An example row: `hub-0   0/1   OOMKilled   4   2m`.\n\n" +
	"The words kubectl prints:\n\n```\nOOMKilled\nEvicted\nCrashLoopBackOff\n```\n"

// notesOnly is the notes above without the sentences people wrote: examples alone.
const notesOnly = "# Words\n\n```\nOOMKilled\nEvicted\nCrashLoopBackOff\n```\n"

// TestDecodeNotes: a README or notes among other files is read for its claims alone, never
// for evidence (issue 27), whether the files are a folder's (not explicit) or an upload's
// (Beside); named on purpose it is read as any text is. Notes with only examples in them are
// skipped, saying why.
func TestDecodeNotes(t *testing.T) {
	tests := []struct {
		name             string
		file, data       string
		explicit, beside bool
		outcome          Outcome
		reason           string
		kinds            []string // of the objects emitted
		evidence         bool     // some object emitted is not a claim
	}{
		{name: "README in a folder", file: "README.md", data: notesFile, outcome: FileRead, kinds: []string{"Claim", "Claim", "Claim"}},
		{name: "README of an upload", file: "ev/README.md", data: notesFile, explicit: true, beside: true, outcome: FileRead, kinds: []string{"Claim", "Claim", "Claim"}},
		{name: "NOTES in plain text", file: "NOTES", data: notesFile, outcome: FileRead, kinds: []string{"Claim", "Claim", "Claim"}},
		{name: "examples alone", file: "docs/words.markdown", data: notesOnly, outcome: FileSkipped, reason: notesMsg},
		{name: "README named on purpose", file: "README.md", data: notesFile, explicit: true, outcome: FileRead, evidence: true},
		{name: "a paste is no notes", file: "paste.txt", data: notesFile, outcome: FileRead, evidence: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var kinds []string
			evidence := false
			d := NewDecoder(Options{OnSkip: func(s Skipped) { t.Errorf("skip told for %+v", s) }})
			res, err := d.DecodeFile(context.Background(), File{Name: tt.file, Content: strings.NewReader(tt.data), Explicit: tt.explicit, Beside: tt.beside},
				func(o *cluster.Object) error {
					kinds = append(kinds, o.Kind)
					evidence = evidence || o.Kind != cluster.KindClaim
					return nil
				})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != tt.outcome || res.Reason() != tt.reason {
				t.Errorf("result %s %q, want %s %q", res.Outcome, res.Reason(), tt.outcome, tt.reason)
			}
			if evidence != tt.evidence {
				t.Errorf("evidence emitted: %v, want %v (%v)", evidence, tt.evidence, kinds)
			}
			if !tt.evidence {
				if diff := cmp.Diff(tt.kinds, kinds); diff != "" {
					t.Errorf("kinds emitted (-want +got):\n%s", diff)
				}
				if res.Objects != len(tt.kinds) {
					t.Errorf("Objects = %d, want %d", res.Objects, len(tt.kinds))
				}
			}
		})
	}
}

func TestNotesName(t *testing.T) {
	for name, want := range map[string]bool{
		"README.md": true, "incident/readme": true, "Notes.txt": true, "NOTES": true, "postmortem.MD": true, "runbook.rst": true,
		"a\\b\\README.adoc": true, "notes.org": true,
		"describe.txt": false, "pods.json": false, "README.json": false, "notes.yaml": false, "kubelet.log": false, "readme-pods.txt": false,
	} {
		if got := notesName(name); got != want {
			t.Errorf("notesName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestNotesInArchive: an archive is a folder. Its README is read for claims alone, and notes
// with nothing Rootline reads are passed over, said to OnSkip, where before they failed the
// whole archive.
func TestNotesInArchive(t *testing.T) {
	archive := tarOf(t, map[string][]byte{
		"incident/pods.json":      []byte(podsFile),
		"incident/README.md":      []byte(notesFile),
		"incident/docs/NOTES.txt": []byte(readmeFile),
	}, "incident/README.md", "incident/pods.json", "incident/docs/NOTES.txt")
	var seen, skipped []string
	d := NewDecoder(Options{OnSkip: func(s Skipped) { skipped = append(skipped, s.Kind+" "+s.File+": "+s.Reason) }})
	err := d.Decode(context.Background(), "incident.tar", bytes.NewReader(archive), func(o *cluster.Object) error {
		seen = append(seen, o.Kind)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"Claim", "Claim", "Claim", "Pod", "Pod"}, seen); diff != "" {
		t.Errorf("emitted (-want +got):\n%s", diff)
	}
	want := []string{"File incident.tar:incident/docs/NOTES.txt: prose without kubectl output: no Kubernetes message found in it"}
	if diff := cmp.Diff(want, skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}
