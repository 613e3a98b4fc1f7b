package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/corpustest"
)

// writeAccuracy rewrites docs/accuracy.md from the corpus scores.
var writeAccuracy = flag.Bool("accuracy", false, "rewrite docs/accuracy.md from TestCorpus's scores")

// truth is what SOURCES.md says a corpus file shows (see corpusTruth).
type truth struct {
	want          map[string][]string
	allowed       []string
	causes        []string
	allowedCauses []string
	notCauses     []string
}

// Floors the corpus must keep: raise them as the parsers and rules improve, never lower them.
const (
	minRecall         = 0.95
	minObjectAccuracy = 0.9
	minCauseRecall    = 0.8
)

// score counts, for one symptom or cause kind, what was expected and what was reported.
type score struct {
	expected, found    int // files expecting the kind; of those, files reporting it
	reported, correct  int // files reporting the kind; of those, files where it is true
	objects, objsFound int // expected objects; of those, named by a symptom of the kind
}

func (s score) recall() float64    { return ratio(s.found, s.expected) }
func (s score) precision() float64 { return ratio(s.correct, s.reported) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// TestCorpus runs the analysis over every file of the shared corpus, one file at a time as a
// support engineer would, and scores it against the ground truth of SOURCES.md (corpusTruth):
// recall and precision per symptom kind and per cause kind, and whether the symptoms name the
// right objects. It fails below the floors above, on any false symptom, and on any cause the
// ground truth rules out. go test ./cmd/rootline -run TestCorpus -accuracy rewrites
// docs/accuracy.md with the table.
func TestCorpus(t *testing.T) {
	dir := corpustest.Dir(t)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	symptoms, causes := map[string]*score{}, map[string]*score{}
	get := func(m map[string]*score, k string) *score {
		if m[k] == nil {
			m[k] = &score{}
		}
		return m[k]
	}
	var files int
	var falseSymptoms, falseCauses, misses []string
	for _, e := range entries {
		name := e.Name()
		if name == "SOURCES.md" || e.IsDir() {
			continue
		}
		tr, ok := corpusTruth[name]
		if !ok {
			t.Logf("%s: no ground truth in corpusTruth yet; not scored", name)
			continue
		}
		files++
		rep, err := analyzePaths(context.Background(), []string{filepath.Join(dir, name)}, analysis.Options{}, io.Discard)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		byKind := map[string][]analysis.Symptom{}
		for _, s := range rep.Symptoms {
			byKind[s.Kind] = append(byKind[s.Kind], s)
		}
		for k, objs := range tr.want {
			sc := get(symptoms, k)
			sc.expected++
			if len(byKind[k]) > 0 {
				sc.found++
			} else {
				misses = append(misses, name+": "+k)
			}
			for _, want := range objs {
				sc.objects++
				if names(byKind[k], want) {
					sc.objsFound++
				} else {
					misses = append(misses, fmt.Sprintf("%s: %s of %s", name, k, want))
				}
			}
		}
		for k := range byKind {
			sc := get(symptoms, k)
			sc.reported++
			_, wanted := tr.want[k]
			if wanted || slices.Contains(tr.allowed, k) {
				sc.correct++
				continue
			}
			falseSymptoms = append(falseSymptoms, fmt.Sprintf("%s: %s (%s)", name, k, byKind[k][0].Summary))
		}
		reported := map[string]analysis.Cause{}
		for _, c := range rep.Causes {
			reported[c.Kind] = c
		}
		for _, k := range tr.causes {
			sc := get(causes, k)
			sc.expected++
			if _, ok := reported[k]; ok {
				sc.found++
			} else {
				misses = append(misses, name+": cause "+k)
			}
		}
		for k, c := range reported {
			sc := get(causes, k)
			sc.reported++
			switch {
			case slices.Contains(tr.causes, k) || slices.Contains(tr.allowedCauses, k):
				sc.correct++
			case slices.Contains(tr.notCauses, k):
				t.Errorf("%s: claims cause %s, which the ground truth rules out: %s", name, k, c.Summary)
				falseCauses = append(falseCauses, name+": "+k)
			default:
				falseCauses = append(falseCauses, fmt.Sprintf("%s: %s (%s)", name, k, c.Summary))
			}
		}
	}
	total := func(m map[string]*score) score {
		var s score
		for _, v := range m {
			s.expected += v.expected
			s.found += v.found
			s.reported += v.reported
			s.correct += v.correct
			s.objects += v.objects
			s.objsFound += v.objsFound
		}
		return s
	}
	st, ct := total(symptoms), total(causes)
	table := accuracyTable(files, symptoms, causes, st, ct)
	t.Log("\n" + table)
	sort.Strings(misses)
	for _, m := range misses {
		t.Logf("missed: %s", m)
	}
	for _, f := range falseSymptoms {
		t.Errorf("false symptom: %s", f)
	}
	for _, f := range falseCauses {
		t.Logf("cause the ground truth does not show: %s", f)
	}
	if r := st.recall(); r < minRecall {
		t.Errorf("symptom recall %.2f below %.2f", r, minRecall)
	}
	if a := ratio(st.objsFound, st.objects); a < minObjectAccuracy {
		t.Errorf("object accuracy %.2f below %.2f", a, minObjectAccuracy)
	}
	if r := ct.recall(); r < minCauseRecall {
		t.Errorf("cause recall %.2f below %.2f", r, minCauseRecall)
	}
	if *writeAccuracy {
		doc := accuracyDoc(table, falseCauses)
		if err := os.WriteFile(filepath.Join("..", "..", "docs", "accuracy.md"), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// names reports whether a symptom among ss names the object want ("ns/name" or "name").
func names(ss []analysis.Symptom, want string) bool {
	ns, name, hasNS := strings.Cut(want, "/")
	if !hasNS {
		ns, name = "", want
	}
	for _, s := range ss {
		for _, o := range s.Objects {
			if o.Name == name && (ns == "" || o.Namespace == "" || o.Namespace == ns) {
				return true
			}
		}
	}
	return false
}

// accuracyTable renders the scores as Markdown.
func accuracyTable(files int, symptoms, causes map[string]*score, st, ct score) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d files scored.\n\n", files)
	fmt.Fprintf(&b, "| symptom kind | files expecting it | recall | files reporting it | precision | objects named |\n|---|---|---|---|---|---|\n")
	for _, k := range analysis.SymptomKinds {
		s, ok := symptoms[k]
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "| `%s` | %d | %.2f | %d | %.2f | %d of %d |\n", k, s.expected, s.recall(), s.reported, s.precision(), s.objsFound, s.objects)
	}
	fmt.Fprintf(&b, "| **all** | %d | **%.2f** | %d | **%.2f** | **%d of %d (%.2f)** |\n\n", st.expected, st.recall(), st.reported, st.precision(),
		st.objsFound, st.objects, ratio(st.objsFound, st.objects))
	fmt.Fprintf(&b, "| cause kind | files expecting it | recall | files reporting it | precision |\n|---|---|---|---|---|\n")
	kinds := make([]string, 0, len(causes))
	for k := range causes {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		s := causes[k]
		fmt.Fprintf(&b, "| `%s` | %d | %.2f | %d | %.2f |\n", k, s.expected, s.recall(), s.reported, s.precision())
	}
	fmt.Fprintf(&b, "| **all** | %d | **%.2f** | %d | **%.2f** |\n", ct.expected, ct.recall(), ct.reported, ct.precision())
	return b.String()
}

// accuracyDoc is docs/accuracy.md.
func accuracyDoc(table string, falseCauses []string) string {
	var b strings.Builder
	b.WriteString(`# Accuracy on real kubectl output

Rootline is scored on a corpus of real kubectl pastes, logs and postmortems taken from public
issues and repositories (kept outside this repository: their licences vary). Each file is
analysed on its own, as a support engineer would paste it, and what Rootline reports is compared
with the file's ground truth:

- **recall**: of the files that show a symptom (or cause) kind, how many Rootline reports it for;
- **precision**: of the files Rootline reports a kind for, how many truly show it (a kind that is
  true but secondary, such as a lingering evicted pod beside its eviction, counts as true);
- **objects named**: of the pods and nodes the ground truth names for a symptom, how many the
  symptom names.

A symptom must come from observed output, never from prose: a postmortem that says "pods were
evicted" yields no symptom, only the author's claim.

The table below is produced by:

` + "```sh\ngo test ./cmd/rootline -run '^TestCorpus$' -accuracy\n```" + `

The test fails below symptom recall 0.95, object accuracy 0.9 or cause recall 0.8, on any false
symptom, and on any cause the ground truth rules out.

These are the files Rootline was developed against, so a perfect score here says that it reads
them, not that it reads every paste: the classes of input they stand for (prompts, Markdown,
HTML, hard wraps, old layouts, logs, the autoscaler's status, cut files) each have tests of their
own, written for them, in internal/ingest (TestDetectPastes), internal/ingest/text
(TestParsePastes, TestParseFormats, TestClean) and internal/analysis (TestPastes, and a table test
per cause rule at, below and above each threshold).

`)
	b.WriteString(table)
	if len(falseCauses) > 0 {
		b.WriteString("\nCauses reported that the ground truth does not show:\n\n")
		for _, f := range falseCauses {
			b.WriteString("- " + f + "\n")
		}
	}
	return b.String()
}
