package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// truth is what a truth.json (../shared/corpus, ../shared/peer-k8sgpt) expects of one file:
// the symptom kinds that must appear (must) and must not (forbid), whether no kind beyond must
// may appear (exact; a lingering evicted pod is always allowed), the objects a symptom of a
// kind must name, the cause kinds that must and must not appear, the names no symptom may
// name (forbid_objects; "*" for any kind), whether the case is outside Rootline's kinds
// (out_of_scope), and whether a clear refusal is acceptable (robust: a cut or broken file).
type truth struct {
	Must          []string            `json:"must"`
	Forbid        []string            `json:"forbid"`
	Exact         bool                `json:"exact"`
	Objects       map[string][]string `json:"objects"`
	Causes        []string            `json:"causes"`
	ForbidCauses  []string            `json:"forbid_causes"`
	ForbidObjects map[string][]string `json:"forbid_objects"`
	OutOfScope    bool                `json:"out_of_scope"`
	Robust        bool                `json:"robust"`
}

// readTruth reads a truth.json, leaving out its "_" key (what the file means).
func readTruth(t *testing.T, dir string) map[string]truth {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatalf("%s/truth.json: %v", dir, err)
	}
	out := map[string]truth{}
	for name, v := range raw {
		if name == "_" {
			continue
		}
		var tr truth
		if err := json.Unmarshal(v, &tr); err != nil {
			t.Fatalf("%s/truth.json: %s: %v", dir, name, err)
		}
		out[name] = tr
	}
	return out
}

// score counts, for one symptom or cause kind, what was expected and what was reported.
type score struct {
	expected, found    int // files expecting the kind; of those, files reporting it
	reported, correct  int // files reporting the kind; of those, files where it is not false
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

// scoreSheet is the score of a run over a truth.json.
type scoreSheet struct {
	files, refused        int
	symptoms, causes      map[string]*score
	falseKinds, misses    []string
	refusals, extraCauses []string
	outOfScope, oosAlarms int
	outOfScopeRefused     int
	gapless               []string // files whose report holds neither a symptom nor a gap
}

func newScoreSheet() *scoreSheet {
	return &scoreSheet{symptoms: map[string]*score{}, causes: map[string]*score{}}
}

func get(m map[string]*score, k string) *score {
	if m[k] == nil {
		m[k] = &score{}
	}
	return m[k]
}

// add scores one file's report (err: the run failed) against its truth.
func (sc *scoreSheet) add(name string, tr truth, rep analysis.Report, err error) {
	if tr.OutOfScope {
		sc.outOfScope++
		switch {
		case err != nil:
			sc.outOfScopeRefused++
			sc.refusals = append(sc.refusals, fmt.Sprintf("%s (out of scope): %v", name, err))
		case len(rep.Symptoms) > 0 && badKinds(tr, rep) != nil:
			sc.oosAlarms++
			sc.falseKinds = append(sc.falseKinds, fmt.Sprintf("%s (out of scope): %s", name, strings.Join(badKinds(tr, rep), ", ")))
		}
		return
	}
	sc.files++
	if err != nil {
		sc.refused++
		if !tr.Robust {
			sc.refusals = append(sc.refusals, fmt.Sprintf("%s: %v", name, err))
		}
	}
	byKind := map[string][]analysis.Symptom{}
	for _, s := range rep.Symptoms {
		byKind[s.Kind] = append(byKind[s.Kind], s)
	}
	if err == nil && len(rep.Symptoms) == 0 && len(rep.Gaps) == 0 {
		sc.gapless = append(sc.gapless, name)
	}
	for _, k := range tr.Must {
		s := get(sc.symptoms, k)
		s.expected++
		if len(byKind[k]) > 0 {
			s.found++
		} else {
			sc.misses = append(sc.misses, name+": "+k)
		}
	}
	for k, objs := range tr.Objects {
		s := get(sc.symptoms, k)
		for _, want := range objs {
			s.objects++
			if namesObject(byKind[k], want) {
				s.objsFound++
			} else {
				sc.misses = append(sc.misses, fmt.Sprintf("%s: %s of %s", name, k, want))
			}
		}
	}
	bad := badKinds(tr, rep)
	for k := range byKind {
		s := get(sc.symptoms, k)
		s.reported++
		if !slices.Contains(bad, k) {
			s.correct++
		}
	}
	for _, b := range bad {
		sc.falseKinds = append(sc.falseKinds, name+": "+b)
	}
	reported := map[string]bool{}
	for _, c := range rep.Causes {
		reported[c.Kind] = true
	}
	for _, k := range tr.Causes {
		s := get(sc.causes, k)
		s.expected++
		if reported[k] {
			s.found++
		} else {
			sc.misses = append(sc.misses, name+": cause "+k)
		}
	}
	for k := range reported {
		s := get(sc.causes, k)
		s.reported++
		if slices.Contains(tr.ForbidCauses, k) || slices.Contains(tr.Forbid, k) {
			continue
		}
		s.correct++
		if !slices.Contains(tr.Causes, k) {
			sc.extraCauses = append(sc.extraCauses, name+": "+k)
		}
	}
}

// badKinds are the kinds a report shows that its truth rules out: a forbidden symptom or cause,
// a symptom naming a healthy object, a kind beyond must where the truth is exact.
func badKinds(tr truth, rep analysis.Report) []string {
	var bad []string
	seen := map[string]bool{}
	for _, s := range rep.Symptoms {
		if seen[s.Kind] {
			continue
		}
		seen[s.Kind] = true
		switch {
		case slices.Contains(tr.Forbid, s.Kind):
			bad = append(bad, s.Kind)
		case tr.Exact && !slices.Contains(tr.Must, s.Kind) && s.Kind != analysis.EvictedPodsLingering:
			bad = append(bad, s.Kind)
		}
	}
	for _, c := range rep.Causes {
		if slices.Contains(tr.ForbidCauses, c.Kind) || slices.Contains(tr.Forbid, c.Kind) {
			bad = append(bad, "cause "+c.Kind)
		}
	}
	for k, names := range tr.ForbidObjects {
		for _, n := range names {
			for _, s := range rep.Symptoms {
				if (k == "*" || s.Kind == k) && namesObject([]analysis.Symptom{s}, n) {
					bad = append(bad, fmt.Sprintf("%s names %s", s.Kind, n))
				}
			}
		}
	}
	return bad
}

// namesObject reports whether a symptom among ss (or one of its members) names want ("ns/name"
// or "name") among its objects or as its node.
func namesObject(ss []analysis.Symptom, want string) bool {
	ns, name, hasNS := strings.Cut(want, "/")
	if !hasNS {
		ns, name = "", want
	}
	for _, s := range ss {
		if s.Node == name && !hasNS {
			return true
		}
		for _, o := range s.Objects {
			if o.Name == name && (ns == "" || o.Namespace == "" || o.Namespace == ns) {
				return true
			}
		}
		if namesObject(s.Members, want) {
			return true
		}
	}
	return false
}

func (sc *scoreSheet) total(m map[string]*score) score {
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

// check fails t below the floors, on any false kind and on a refusal the truth does not allow.
func (sc *scoreSheet) check(t *testing.T, what string) {
	t.Helper()
	st, ct := sc.total(sc.symptoms), sc.total(sc.causes)
	sort.Strings(sc.misses)
	for _, m := range sc.misses {
		t.Logf("%s: missed: %s", what, m)
	}
	for _, f := range sc.extraCauses {
		t.Logf("%s: a cause the truth does not name (not forbidden): %s", what, f)
	}
	for _, f := range sc.falseKinds {
		t.Errorf("%s: false: %s", what, f)
	}
	for _, r := range sc.refusals {
		t.Errorf("%s: refused: %s", what, r)
	}
	if r := st.recall(); r < minRecall {
		t.Errorf("%s: symptom recall %.2f below %.2f", what, r, minRecall)
	}
	if a := ratio(st.objsFound, st.objects); a < minObjectAccuracy {
		t.Errorf("%s: objects named %.2f below %.2f", what, a, minObjectAccuracy)
	}
	if r := ct.recall(); r < minCauseRecall {
		t.Errorf("%s: cause recall %.2f below %.2f", what, r, minCauseRecall)
	}
}

// table renders the scores as Markdown.
func (sc *scoreSheet) table() string {
	st, ct := sc.total(sc.symptoms), sc.total(sc.causes)
	var b strings.Builder
	fmt.Fprintf(&b, "%d files scored, %d refused.\n\n", sc.files, sc.refused)
	fmt.Fprintf(&b, "| symptom kind | files expecting it | recall | files reporting it | precision | objects named |\n|---|---|---|---|---|---|\n")
	for _, k := range analysis.SymptomKinds {
		s, ok := sc.symptoms[k]
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "| `%s` | %d | %.2f | %d | %.2f | %d of %d |\n", k, s.expected, s.recall(), s.reported, s.precision(), s.objsFound, s.objects)
	}
	fmt.Fprintf(&b, "| **all** | %d | **%.2f** | %d | **%.2f** | **%d of %d (%.2f)** |\n\n", st.expected, st.recall(), st.reported, st.precision(),
		st.objsFound, st.objects, ratio(st.objsFound, st.objects))
	fmt.Fprintf(&b, "| cause kind | files expecting it | recall | files reporting it | precision |\n|---|---|---|---|---|\n")
	kinds := make([]string, 0, len(sc.causes))
	for k := range sc.causes {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		s := sc.causes[k]
		fmt.Fprintf(&b, "| `%s` | %d | %.2f | %d | %.2f |\n", k, s.expected, s.recall(), s.reported, s.precision())
	}
	fmt.Fprintf(&b, "| **all** | %d | **%.2f** | %d | **%.2f** |\n", ct.expected, ct.recall(), ct.reported, ct.precision())
	return b.String()
}
