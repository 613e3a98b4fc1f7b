package ingest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/corpustest"
	"github.com/rootline-dev/rootline/internal/synth"
)

// TestStoredEventsDecodeToWhatIsKept is the differential test of what Rootline keeps of an
// event (cluster.Event): over every file of the shared corpus, the ingest testdata and a
// generated event list, an event decoded for analysis alone (Options.Unstored) is the event
// decoded for the store, and the JSON the store keeps of it (Object.Stored, or Object.JSON for
// an event the text reader made) decodes, as the store reads it back, to that same event. So
// an incident analysed from the database reads what `rootline analyze` read of its files.
func TestStoredEventsDecodeToWhatIsKept(t *testing.T) {
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
	events := 0
	for name, data := range files {
		stored, _, errStored := decodeAll(t, name, data, Options{})
		analysed, _, errAnalysed := decodeAll(t, name, data, Options{Unstored: true})
		if (errStored == nil) != (errAnalysed == nil) || len(stored) != len(analysed) {
			t.Errorf("%s: %d objects (%v) stored, %d (%v) analysed", name, len(stored), errStored, len(analysed), errAnalysed)
			continue
		}
		for i, o := range stored {
			a := analysed[i]
			if o.Event == nil {
				continue
			}
			events++
			if a.Stored != nil {
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
	if events < 500 {
		t.Fatalf("only %d events compared", events)
	}
}
