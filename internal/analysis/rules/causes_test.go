package rules

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rootline-dev/rootline/internal/analysis"
)

// The cause rules' table tests (capacity_test.go, cpu_starvation_test.go, …) share what is in
// this file: a case is the input people paste, the cause kinds the whole analysis finds from it,
// and what the cause of the rule under test must say.

// causeCase is one input and what the analysis must find from it.
type causeCase struct {
	name string
	docs []string // one file each: describe text, tables, or objects as JSON or YAML
	// symptoms are the symptoms the analysis finds, as symptomLabel gives them, sorted: what
	// the cause explains or, where it must not fire, the symptoms it must leave alone.
	symptoms []string
	// kinds are every cause kind the analysis finds, sorted: the kind under test where it must
	// fire, none where it must not.
	kinds []string
	want  causeWant // checked when kinds holds the kind under test
}

// causeWant is what the cause of the rule under test must say.
type causeWant struct {
	role       string
	confidence float64  // 0: not checked
	explains   []string // the symptoms it explains, as symptomLabel gives them, sorted
	summary    []string // substrings of the summary
	evidence   []string // substrings, each of some evidence value
	fields     []string // evidence fields, each of some evidence item
	missing    []string // substrings, each of some missing item; nil: nothing is missing
	components []string // "Kind:Name", in order; nil: not checked
}

// runCauseCases analyses each case's input with every rule (Run) and checks the causes.
func runCauseCases(t *testing.T, kind string, tests []causeCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := Run(model(t, tt.docs...), analysis.Options{})
			if diff := cmp.Diff(tt.symptoms, sortedLabels(rep.Symptoms)); diff != "" {
				t.Errorf("symptoms (-want +got):\n%s", diff)
			}
			checkCause(t, rep, kind, tt.kinds, tt.want)
		})
	}
}

// checkCause asserts the report's cause kinds, and what the cause of kind says when it is one
// of them.
func checkCause(t *testing.T, rep analysis.Report, kind string, kinds []string, want causeWant) {
	t.Helper()
	if diff := cmp.Diff(kinds, causeKinds(rep)); diff != "" {
		t.Fatalf("cause kinds (-want +got):\n%s\nsymptoms: %q", diff, symptomLabels(rep.Symptoms))
	}
	c, ok := causeOf(rep, kind)
	if !ok {
		return
	}
	if c.Role != want.role {
		t.Errorf("role = %q, want %q", c.Role, want.role)
	}
	if want.confidence != 0 && math.Abs(c.Confidence-want.confidence) > 1e-9 {
		t.Errorf("confidence = %v, want %v", c.Confidence, want.confidence)
	}
	if diff := cmp.Diff(want.explains, explained(rep, c)); diff != "" {
		t.Errorf("explains (-want +got):\n%s", diff)
	}
	if want.components != nil {
		var got []string
		for _, comp := range c.Components {
			got = append(got, comp.Kind+":"+comp.Name)
		}
		if diff := cmp.Diff(want.components, got); diff != "" {
			t.Errorf("components (-want +got):\n%s", diff)
		}
	}
	for _, s := range want.summary {
		if !strings.Contains(c.Summary, s) {
			t.Errorf("summary %q does not say %q", c.Summary, s)
		}
	}
	var values []string
	for _, e := range c.Evidence {
		values = append(values, e.Value)
		if e.File == "" || e.Ref == "" {
			t.Errorf("evidence does not point into the input: %+v", e)
		}
	}
	for _, s := range want.evidence {
		if !containsSome(values, s) {
			t.Errorf("no evidence says %q; evidence:\n%s", s, strings.Join(values, "\n"))
		}
	}
	for _, f := range want.fields {
		if !slices.ContainsFunc(c.Evidence, func(e analysis.Evidence) bool { return e.Field == f }) {
			t.Errorf("no evidence cites field %q; evidence: %+v", f, c.Evidence)
		}
	}
	if want.missing == nil && len(c.Missing) > 0 {
		t.Errorf("missing = %q, want nothing", c.Missing)
	}
	for _, s := range want.missing {
		if !containsSome(c.Missing, s) {
			t.Errorf("missing %q does not say %q", c.Missing, s)
		}
	}
}

// causeKinds lists the kinds of a report's causes, sorted.
func causeKinds(rep analysis.Report) []string {
	out := []string{}
	for _, c := range rep.Causes {
		out = append(out, c.Kind)
	}
	sort.Strings(out)
	return out
}

// causeOf returns the report's cause of a kind.
func causeOf(rep analysis.Report, kind string) (analysis.Cause, bool) {
	for _, c := range rep.Causes {
		if c.Kind == kind {
			return c, true
		}
	}
	return analysis.Cause{}, false
}

// explained labels the symptoms a cause explains, sorted.
func explained(rep analysis.Report, c analysis.Cause) []string {
	by := map[string]analysis.Symptom{}
	for _, s := range rep.Symptoms {
		by[s.ID] = s
	}
	linked := map[string]bool{}
	for _, l := range c.Links {
		linked[l.To] = true // the chain's, not the rule's
	}
	var out []string
	for _, id := range c.Explains {
		if linked[id] {
			continue
		}
		s, ok := by[id]
		if !ok {
			out = append(out, "unknown symptom "+id)
			continue
		}
		out = append(out, symptomLabels([]analysis.Symptom{s})...)
	}
	sort.Strings(out)
	return out
}

// symptomLabel is "kind ns/name,…" of a symptom: its kind and the objects it names, sorted.
func symptomLabel(s analysis.Symptom) string {
	var objs []string
	for _, o := range s.Objects {
		objs = append(objs, strings.TrimPrefix(o.Namespace+"/"+o.Name, "/"))
	}
	sort.Strings(objs)
	return strings.TrimSpace(s.Kind + " " + strings.Join(objs, ","))
}

// symptomLabels labels symptoms, a group by each of its members: the rule tables check what
// the rules find, grouping_test.go how it is grouped.
func symptomLabels(ss []analysis.Symptom) []string {
	var out []string
	for _, s := range ss {
		if len(s.Members) == 0 {
			out = append(out, symptomLabel(s))
		}
		for _, m := range s.Members {
			out = append(out, symptomLabel(m))
		}
	}
	return out
}

func sortedLabels(ss []analysis.Symptom) []string {
	out := symptomLabels(ss)
	sort.Strings(out)
	return out
}

func containsSome(ss []string, sub string) bool {
	for _, s := range ss {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// nodeText is a `kubectl describe node` as kubectl prints it: labels with the node's pool,
// condition rows ("MemoryPressure True KubeletHasInsufficientMemory"), taints, allocatable CPU
// and memory, the Non-terminated Pods rows ("ns name cpuReq cpuLim memReq memLim", each
// quantity followed by its share, as kubectl prints it) and, when given, the Allocated
// resources rows.
type nodeText struct {
	name, pool  string
	cpu, memory string // allocatable
	conditions  []string
	taints      []string
	pods        []string
	allocated   []string // "cpu  1100m (27%)  0 (0%)"
	created     string   // CreationTimestamp, describe's layout; a day before the incident if ""
}

func (n nodeText) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "$ kubectl describe node %s\n", n.name)
	fmt.Fprintf(&b, "Name:               %s\nRoles:              <none>\n", n.name)
	fmt.Fprintf(&b, "Labels:             beta.kubernetes.io/arch=amd64\n")
	if n.pool != "" {
		fmt.Fprintf(&b, "                    cloud.google.com/gke-nodepool=%s\n", n.pool)
	}
	fmt.Fprintf(&b, "                    kubernetes.io/hostname=%s\n", n.name)
	created := n.created
	if created == "" {
		created = "Tue, 04 Feb 2025 08:00:00 +0000"
	}
	fmt.Fprintf(&b, "CreationTimestamp:  %s\n", created)
	if len(n.taints) == 0 {
		b.WriteString("Taints:             <none>\n")
	}
	for i, t := range n.taints {
		if i == 0 {
			fmt.Fprintf(&b, "Taints:             %s\n", t)
		} else {
			fmt.Fprintf(&b, "                    %s\n", t)
		}
	}
	b.WriteString("Unschedulable:      false\nConditions:\n")
	b.WriteString("  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message\n")
	b.WriteString("  ----             ------  -----------------                 ------------------                ------                       -------\n")
	ready := false
	for _, c := range n.conditions {
		f := strings.Fields(c)
		if f[0] == "Ready" {
			ready = true
		}
		msg := strings.Join(f[3:], " ")
		if msg == "" {
			msg = "kubelet says " + strings.ToLower(f[2])
		}
		fmt.Fprintf(&b, "  %-16s %-7s Wed, 05 Feb 2025 10:04:30 +0000   Wed, 05 Feb 2025 10:01:10 +0000   %-28s %s\n", f[0], f[1], f[2], msg)
	}
	if !ready {
		b.WriteString("  Ready            True    Wed, 05 Feb 2025 10:04:30 +0000   Tue, 04 Feb 2025 08:01:00 +0000   KubeletReady                 kubelet is posting ready status\n")
	}
	fmt.Fprintf(&b, "Addresses:\n  InternalIP:  10.128.0.7\n  Hostname:    %s\n", n.name)
	fmt.Fprintf(&b, "Capacity:\n  cpu:                %s\n  memory:             %s\n  pods:               110\n", n.cpu, n.memory)
	fmt.Fprintf(&b, "Allocatable:\n  cpu:                %s\n  memory:             %s\n  pods:               110\n", n.cpu, n.memory)
	b.WriteString("System Info:\n  Kernel Version:             6.1.100+\n  Container Runtime Version:  containerd://1.7.22\n  Kubelet Version:            v1.31.4\n")
	fmt.Fprintf(&b, "Non-terminated Pods:          (%d in total)\n", len(n.pods))
	b.WriteString("  Namespace                   Name                              CPU Requests  CPU Limits    Memory Requests  Memory Limits  Age\n")
	b.WriteString("  ---------                   ----                              ------------  ----------    ---------------  -------------  ---\n")
	for _, p := range n.pods {
		f := strings.Fields(p)
		// ns name cpuReq (x%) cpuLim (x%) memReq (x%) memLim (x%)
		fmt.Fprintf(&b, "  %-27s %-33s %-13s %-13s %-16s %-14s 3d\n", f[0], f[1], f[2]+" "+f[3], f[4]+" "+f[5], f[6]+" "+f[7], f[8]+" "+f[9])
	}
	if len(n.allocated) > 0 {
		b.WriteString("Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n")
		b.WriteString("  Resource           Requests      Limits\n  --------           --------      ------\n")
		for _, a := range n.allocated {
			f := strings.Fields(a)
			fmt.Fprintf(&b, "  %-18s %-13s %s\n", f[0], f[1]+" "+f[2], f[3]+" "+f[4])
		}
	}
	b.WriteString("Events:              <none>\n")
	return b.String()
}
