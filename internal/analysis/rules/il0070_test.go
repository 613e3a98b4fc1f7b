package rules

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/ingest"
)

// loadDir decodes every file of a fixture folder. With capturedAt set, events last seen more
// than an hour before it are dropped, as the API server would have dropped them: the same
// raw data, captured as late as the engineers of IL-0070 looked.
func loadDir(t *testing.T, dir string, capturedAt time.Time) *cluster.Model {
	t.Helper()
	m, err := decodeDir(dir, capturedAt)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// decodeDir is loadDir, returning its error.
func decodeDir(dir string, capturedAt time.Time) (*cluster.Model, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	var objs []*cluster.Object
	dec := ingest.NewDecoder(ingest.Options{MaxBytes: 4 << 30, Unstored: true}) // as rootline analyze; the benchmarks' largest snapshot too
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		err = dec.Decode(context.Background(), path, f, func(o *cluster.Object) error {
			if o.Event != nil && !capturedAt.IsZero() && capturedAt.Sub(cluster.EventTime(o)) > analysis.DefaultEventTTL {
				return nil
			}
			objs = append(objs, o)
			return nil
		})
		f.Close()
		if err != nil {
			return nil, err
		}
		files = append(files, path)
	}
	return cluster.NewModel(files, objs), nil
}

// TestIL0070 reproduces the analysis of incident IL-0070 from raw cluster data: a hub
// restart during a burst scale-up of about 100 nodes, with Prometheus filling the hub's core
// node. Each variant must yield its symptoms, the causes the incident library records
// (capacity exhaustion at the root; shared node pool and shared Prometheus contributing; CPU
// starvation too when the liveness probe restarted the hub), each with evidence, and, when
// captured as late as the engineers looked, the gaps they ran into.
func TestIL0070(t *testing.T) {
	late := time.Date(2023, 2, 1, 18, 30, 0, 0, time.UTC)
	tests := []struct {
		name       string
		variant    string
		capturedAt time.Time
		symptoms   []string
		causes     []string
		notCauses  []string
		gaps       []string
		chain      [][]string // kinds along a path of Explains from the root
		// gapAsks and gapNeverAsks are what the missing-evidence items ask for, and what they
		// must not ask for because the input holds it.
		gapAsks, gapNeverAsks []string
		// suggests are "kind: substring" of the changes the causes suggest.
		suggests []string
	}{
		{
			name: "evicted", variant: "evicted",
			symptoms:  []string{analysis.PodPending, analysis.ScaleUp, analysis.NodeNotReady, analysis.NodePressure, analysis.PodEvicted, analysis.EvictedPodsLingering},
			causes:    []string{"capacity_exhaustion", "shared_node_pool", "shared_prometheus", "memory_over_request", "scale_up_not_ready"},
			notCauses: []string{"cpu_starvation"},
			chain: [][]string{{analysis.CapacityExhaustion, analysis.ScaleUp}, {analysis.CapacityExhaustion, analysis.SharedPrometheus, analysis.MemoryOverRequest, analysis.PodEvicted},
				{analysis.CapacityExhaustion, analysis.ScaleUpNotReady, analysis.NodeNotReady}, {analysis.CapacityExhaustion, analysis.EvictedPodsLingering}},
			suggests: []string{"capacity_exhaustion: pool dask-pool needed 38 more node(s) like",
				"capacity_exhaustion: give Deployment prod/hub a PriorityClass",
				"memory_over_request: raise the memory request of container hub of Deployment prod/hub from 512Mi to at least 1018Mi",
				"shared_prometheus: give Deployment support/support-prometheus-server a node pool of its own",
				"shared_node_pool: keep the heavy pods (Deployment support/support-prometheus-server"},
		},
		{
			name: "liveness", variant: "liveness",
			symptoms:  []string{analysis.PodPending, analysis.ScaleUp, analysis.NodeNotReady, analysis.LivenessProbeFailed, analysis.ContainerRestarted},
			causes:    []string{"capacity_exhaustion", "shared_node_pool", "shared_prometheus", "cpu_starvation"},
			notCauses: []string{"memory_over_request"},
			gaps:      []string{"competing_causes"},
			chain: [][]string{{analysis.CapacityExhaustion, analysis.ScaleUp}, {analysis.CapacityExhaustion, analysis.SharedPrometheus, analysis.CPUStarvation, analysis.LivenessProbeFailed},
				{analysis.CapacityExhaustion, analysis.SharedPrometheus, analysis.CPUStarvation, analysis.ContainerRestarted}},
			gapAsks:      []string{"memory use and CPU throttling"},
			gapNeverAsks: []string{"Unhealthy and Killing events", "termination reason"},
			suggests: []string{"cpu_starvation: raise the CPU request of Deployment prod/hub from 10m to at least",
				"shared_prometheus: give Deployment support/support-prometheus-server a node pool of its own"},
		},
		{
			name: "evicted, captured after the events expired", variant: "evicted", capturedAt: late,
			symptoms: []string{analysis.PodPending, analysis.ScaleUp, analysis.NodeNotReady, analysis.NodePressure, analysis.PodEvicted, analysis.EvictedPodsLingering},
			causes:   []string{"capacity_exhaustion", "shared_node_pool", "shared_prometheus"},
			gaps:     []string{"no_events"},
		},
		{
			name: "liveness, captured after the events expired", variant: "liveness", capturedAt: late,
			symptoms: []string{analysis.NodeNotReady, analysis.ContainerRestarted, analysis.PodPending, analysis.ScaleUp},
			causes:   []string{"capacity_exhaustion", "shared_node_pool", "shared_prometheus", "cpu_starvation"},
			gaps:     []string{"no_events", "competing_causes"},
			gapAsks:  []string{"Unhealthy and Killing events", "memory use and CPU throttling"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := loadDir(t, filepath.Join("..", "testdata", "il0070", tt.variant), tt.capturedAt)
			rep := Run(m, analysis.Options{Now: tt.capturedAt})
			if rep.Inputs.Nodes != 126 {
				t.Errorf("nodes = %d, want 126", rep.Inputs.Nodes)
			}
			var symptoms, causes, gaps []string
			for _, s := range rep.Symptoms {
				symptoms = append(symptoms, s.Kind)
			}
			for _, c := range rep.Causes {
				causes = append(causes, c.Kind)
				if len(c.Evidence) == 0 || len(c.Explains) == 0 {
					t.Errorf("cause %s has no evidence or explains nothing: %+v", c.Kind, c)
				}
				for _, e := range c.Evidence {
					if e.File == "" || e.Ref == "" {
						t.Errorf("cause %s: evidence does not point into the input: %+v", c.Kind, e)
					}
				}
			}
			for _, g := range rep.Gaps {
				gaps = append(gaps, g.Kind)
			}
			checkEvidence(t, rep.Symptoms)
			for _, s := range rep.Symptoms {
				if s.Kind != analysis.PodPending || tt.capturedAt.After(time.Time{}) {
					continue
				}
				reasons := s.Details.Reasons
				if reasons["Insufficient cpu"] != 23 || reasons["node(s) had untolerated taint {node.kubernetes.io/not-ready: }"] != 96 || s.Details.Nodes != 126 {
					t.Errorf("scheduling breakdown = %v over %v nodes", reasons, s.Details.Nodes)
				}
			}
			for _, k := range tt.symptoms {
				if !slices.Contains(symptoms, k) {
					t.Errorf("symptom %s missing; got %v", k, symptoms)
				}
			}
			for _, k := range tt.causes {
				if !slices.Contains(causes, k) {
					t.Errorf("cause %s missing; got %v", k, causes)
				}
			}
			for _, k := range tt.notCauses {
				if slices.Contains(causes, k) {
					t.Errorf("cause %s found, but this variant shows nothing of it", k)
				}
			}
			for _, k := range tt.gaps {
				if !slices.Contains(gaps, k) {
					t.Errorf("gap %s missing; got %v", k, gaps)
				}
			}
			if len(rep.Causes) > 0 && (rep.Causes[0].Kind != "capacity_exhaustion" || rep.Causes[0].Role != analysis.Root) {
				t.Errorf("first cause = %s (%s), want the root capacity_exhaustion", rep.Causes[0].Kind, rep.Causes[0].Role)
			}
			// The root reaches every symptom through the chain, each link with its reason.
			for _, s := range rep.Symptoms {
				if !rep.Reaches(rep.Causes[0].ID, s.ID) {
					t.Errorf("symptom %s %s is not reached from the root %s", s.ID, s.Kind, rep.Causes[0].ID)
				}
			}
			for _, c := range rep.Causes {
				for _, l := range c.Links {
					if l.Why == "" || !slices.Contains(c.Explains, l.To) {
						t.Errorf("%s: link to %s without a reason or outside explains", c.ID, l.To)
					}
				}
			}
			var asked []string
			for _, g := range rep.Gaps {
				asked = append(asked, g.Summary)
			}
			for _, want := range tt.gapAsks {
				if !containsSome(asked, want) {
					t.Errorf("no missing-evidence item asks for %q: %q", want, asked)
				}
			}
			for _, never := range tt.gapNeverAsks {
				if containsSome(asked, never) {
					t.Errorf("a missing-evidence item asks for %q, which the input holds: %q", never, asked)
				}
			}
			var suggested []string
			for _, c := range rep.Causes {
				for _, sg := range c.Suggestions {
					suggested = append(suggested, c.Kind+": "+sg.Change)
					if len(sg.Evidence) == 0 {
						t.Errorf("%s: the change %q names no evidence", c.ID, sg.Change)
					}
				}
			}
			for _, want := range tt.suggests {
				if !containsSome(suggested, want) {
					t.Errorf("no change %q; the changes are %q", want, suggested)
				}
			}
			for _, path := range tt.chain {
				if !chainHas(rep, path...) {
					t.Errorf("no chain %v from the root", path)
				}
			}
			for _, c := range rep.Causes {
				var comps []string
				for _, comp := range c.Components {
					comps = append(comps, comp.Kind+":"+comp.Name)
				}
				joined := strings.Join(comps, " ")
				switch c.Kind {
				case "shared_prometheus":
					if !strings.Contains(joined, "Prometheus:support-prometheus-server") || !strings.Contains(joined, "NodePool:core-pool") {
						t.Errorf("shared_prometheus components = %s", joined)
					}
				case "shared_node_pool":
					if !strings.Contains(joined, "NodePool:core-pool") || !strings.Contains(joined, "Prometheus:") {
						t.Errorf("shared_node_pool components = %s", joined)
					}
				}
			}
		})
	}
}

// chainHas reports whether a path of the given kinds leads from the root along Explains.
func chainHas(rep analysis.Report, kinds ...string) bool {
	kindOf := map[string]string{}
	for _, s := range rep.Symptoms {
		kindOf[s.ID] = s.Kind
	}
	by := map[string]analysis.Cause{}
	for _, c := range rep.Causes {
		kindOf[c.ID] = c.Kind
		by[c.ID] = c
	}
	var walk func(id string, rest []string) bool
	walk = func(id string, rest []string) bool {
		if kindOf[id] != rest[0] {
			return false
		}
		if len(rest) == 1 {
			return true
		}
		for _, next := range by[id].Explains {
			if walk(next, rest[1:]) {
				return true
			}
		}
		return false
	}
	return len(rep.Causes) > 0 && walk(rep.Causes[0].ID, kinds)
}

// TestCriticalSelector shows the critical-pod selector at work: when nothing but system
// priority classes is critical, the hub's troubles are no longer blamed on its neighbours.
//
// The same inputs under the default selector show both causes (so their absence below is the
// selector's doing), and the hub's liveness failures stay found under either.
func TestCriticalSelector(t *testing.T) {
	m := loadDir(t, filepath.Join("..", "testdata", "il0070", "liveness"), time.Time{})
	causes := func(rep analysis.Report) map[string]bool {
		out := map[string]bool{}
		for _, c := range rep.Causes {
			out[c.Kind] = true
		}
		return out
	}
	hubProbes := func(rep analysis.Report) bool {
		for _, s := range rep.Symptoms {
			for _, o := range s.Objects {
				if s.Kind == analysis.LivenessProbeFailed && strings.HasPrefix(o.Name, "hub-") {
					return true
				}
			}
		}
		return false
	}
	def := Run(m, analysis.Options{})
	if got := causes(def); !got[analysis.SharedNodePool] || !got[analysis.CPUStarvation] || !hubProbes(def) {
		t.Fatalf("default selector: causes %v, the hub's liveness failures found: %v; want shared_node_pool, cpu_starvation and the failures",
			got, hubProbes(def))
	}
	none := Run(m, analysis.Options{CriticalComponents: []string{}})
	if !hubProbes(none) {
		t.Error("the hub's liveness failures are no longer found when nothing is critical")
	}
	for kind := range causes(none) {
		if kind == analysis.SharedNodePool || kind == analysis.CPUStarvation {
			t.Errorf("cause %s found although the hub is not critical under this selector", kind)
		}
	}
}

// TestConcurrentAnalyses: the server analyses one cached model from many requests at once, so
// a model is read-only once made. Run under -race (as .ci/run does), this fails if the model or
// the rules write to what the model shares; without it, the analyses still must agree.
func TestConcurrentAnalyses(t *testing.T) {
	m := loadDir(t, filepath.Join("..", "testdata", "il0070", "liveness"), time.Time{})
	want, err := json.Marshal(Run(m, analysis.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	got := make([][]byte, 4)
	for i := range got {
		wg.Go(func() {
			got[i], _ = json.Marshal(Run(m, analysis.Options{}))
		})
	}
	wg.Wait()
	for i, g := range got {
		if !bytes.Equal(g, want) {
			t.Errorf("analysis %d of the same model differs from the first", i)
		}
	}
}
