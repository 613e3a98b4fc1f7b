package ingest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/corpustest"
	"github.com/rootline-dev/rootline/internal/synth"
)

// TestStoredObjectsDecodeToWhatIsKept is the differential test of what Rootline keeps of an
// event and a pod (cluster.Event, cluster.Pod): over every file of the shared corpus, the
// ingest testdata and generated pod and event lists, an object decoded for analysis alone
// (Options.Unstored) is the object decoded for the store, and the JSON the store keeps of it
// (Object.Stored(), or Object.JSON for an event the text reader made) decodes, as the store reads
// it back, to that same object. So an incident analysed from the database reads what `rootline
// analyze` read of its files.
func TestStoredObjectsDecodeToWhatIsKept(t *testing.T) {
	t.Parallel()
	files := map[string][]byte{}
	add := func(dir string) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() || e.Name() == "truth.json" {
				continue
			}
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			files[e.Name()] = data
		}
	}
	add(corpustest.Dir(t))
	add("testdata")
	var list bytes.Buffer
	if err := synth.WriteEventList(&list, synth.Options{Pods: 200, Events: 500, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	files["generated-events.json"] = list.Bytes()
	var pods bytes.Buffer
	if err := synth.WritePodList(&pods, synth.Options{Pods: 300, Events: 10, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	files["generated-pods.json"] = pods.Bytes()
	events, podsSeen := 0, 0
	for name, data := range files {
		stored, _, errStored := decodeAll(t, name, data, Options{})
		analysed, _, errAnalysed := decodeAll(t, name, data, Options{Unstored: true})
		if (errStored == nil) != (errAnalysed == nil) || len(stored) != len(analysed) {
			t.Errorf("%s: %d objects (%v) stored, %d (%v) analysed", name, len(stored), errStored, len(analysed), errAnalysed)
			continue
		}
		for i, o := range stored {
			a := analysed[i]
			if o.Pod != nil {
				podsSeen++
				checkKeptPod(t, name, o, a)
				continue
			}
			if o.Event == nil {
				continue
			}
			events++
			if a.Stored() != nil {
				t.Errorf("%s: %s kept its JSON when only analysed", name, a.Ref())
			}
			if diff := cmp.Diff(o.Event, a.Event); diff != "" {
				t.Errorf("%s: %s stored and analysed differ (-stored +analysed):\n%s", name, o.Ref(), diff)
			}
			raw, err := o.JSON()
			if err != nil {
				t.Fatal(err)
			}
			back := new(cluster.Event)
			if err := json.Unmarshal(raw, back); err != nil {
				t.Fatalf("%s: %s: %v", name, o.Ref(), err)
			}
			if diff := cmp.Diff(o.Event, back); diff != "" {
				t.Errorf("%s: %s read back from its JSON differs (-decoded +read back):\n%s", name, o.Ref(), diff)
			}
		}
	}
	if events < 500 || podsSeen < 300 {
		t.Fatalf("only %d events and %d pods compared", events, podsSeen)
	}
}

// checkKeptPod compares a pod decoded for the store, o, with the same decoded for analysis
// alone, a, and with what its stored JSON reads back to.
func checkKeptPod(t *testing.T, name string, o, a *cluster.Object) {
	t.Helper()
	if o.Stored() == nil {
		t.Errorf("%s: %s kept no JSON for the store", name, o.Ref())
	}
	if a.Stored() != nil && !readAsText(name) {
		t.Errorf("%s: %s kept its JSON when only analysed", name, a.Ref())
	}
	if diff := cmp.Diff(o.Pod, a.Pod); diff != "" {
		t.Errorf("%s: %s stored and analysed differ (-stored +analysed):\n%s", name, o.Ref(), diff)
	}
	raw, err := o.JSON()
	if err != nil {
		t.Fatal(err)
	}
	back := new(cluster.Pod)
	if err := json.Unmarshal(raw, back); err != nil {
		t.Fatalf("%s: %s: %v", name, o.Ref(), err)
	}
	want := *o.Pod
	if d := want.DeletionTimestamp; d != nil && d.IsZero() {
		// A pods table's Terminating row read without the time of the paste: a deletion
		// whose time is unknown, which JSON can only write as null. Noted in issue 30's
		// notes; the store has always read it back as no deletion.
		want.DeletionTimestamp = nil
	}
	if diff := cmp.Diff(&want, back); diff != "" {
		t.Errorf("%s: %s read back from its JSON differs (-decoded +read back):\n%s", name, o.Ref(), diff)
	}
}

// readAsText reports whether a file of the test is read as text, whose pods keep all the paste
// said of them whatever the options.
func readAsText(name string) bool {
	return !strings.HasSuffix(name, ".json") && !strings.HasSuffix(name, ".yaml") && !strings.HasSuffix(name, ".yml") && !strings.HasSuffix(name, ".jsonl")
}
