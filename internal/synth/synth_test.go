package synth

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/incident"
)

// lister is one of the list writers, with the number of items it writes for o.
type lister struct {
	name  string
	write func(io.Writer, Options) error
	count func(Options) int
}

func listers() []lister {
	return []lister{
		{"pods", WritePodList, func(o Options) int { return o.Pods }},
		{"nodes", WriteNodeList, func(o Options) int { return o.norm().Nodes }},
		{"events", WriteEventList, func(o Options) int { return o.Events }},
	}
}

func write(t testing.TB, f func(io.Writer, Options) error, o Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := f(&buf, o); err != nil {
		t.Fatalf("write: %v", err)
	}
	return buf.Bytes()
}

// checkItems decodes doc into list and checks that it holds the n items that want returns.
func checkItems[T any](t *testing.T, doc []byte, list any, items func() []T, n int, want func(int) *T) {
	t.Helper()
	if err := json.Unmarshal(doc, list); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	if got := items(); len(got) != n {
		t.Fatalf("decoded %d items, want %d", len(got), n)
	}
	for i, got := range items() {
		if d := cmp.Diff(want(i), &got); d != "" {
			t.Fatalf("item %d differs (-generated +decoded):\n%s", i, d)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
	}{
		{"300 pods on 12 nodes", Options{Pods: 300, Nodes: 12, Events: 300, Seed: 1}},
		{"default nodes and start", Options{Pods: 41, Events: 17, Seed: -7}},
		{"one of each", Options{Pods: 1, Nodes: 1, Events: 1, Start: time.Date(2024, 5, 6, 7, 8, 9, 10, time.FixedZone("X", 3600))}},
		{"empty", Options{}},
	} {
		o := tc.o
		t.Run(tc.name+"/pods", func(t *testing.T) {
			var list corev1.PodList
			checkItems(t, write(t, WritePodList, o), &list, func() []corev1.Pod { return list.Items }, o.Pods,
				func(i int) *corev1.Pod { return Pod(o, i) })
		})
		t.Run(tc.name+"/nodes", func(t *testing.T) {
			var list corev1.NodeList
			checkItems(t, write(t, WriteNodeList, o), &list, func() []corev1.Node { return list.Items }, o.norm().Nodes,
				func(i int) *corev1.Node { return Node(o, i) })
		})
		t.Run(tc.name+"/events", func(t *testing.T) {
			var list corev1.EventList
			checkItems(t, write(t, WriteEventList, o), &list, func() []corev1.Event { return list.Items }, o.Events,
				func(i int) *corev1.Event { return Event(o, i) })
		})
	}
}

// TestLayout checks that the lists are laid out byte for byte like kubectl prints them: the
// whole document indented by 4 spaces, each item as json.MarshalIndent renders it.
func TestLayout(t *testing.T) {
	for _, l := range listers() {
		for _, o := range []Options{{Pods: 3, Events: 3, Seed: 9}, {}} {
			t.Run(fmt.Sprintf("%d %s", l.count(o), l.name), func(t *testing.T) {
				doc := write(t, l.write, o)
				var compact, indented bytes.Buffer
				if err := json.Compact(&compact, doc); err != nil {
					t.Fatal(err)
				}
				if err := json.Indent(&indented, compact.Bytes(), "", "    "); err != nil {
					t.Fatal(err)
				}
				indented.WriteByte('\n')
				if d := cmp.Diff(indented.String(), string(doc)); d != "" {
					t.Errorf("not indented like kubectl (-want +got):\n%s", d)
				}
			})
		}
	}
	o := Options{Pods: 2, Seed: 9}
	want := "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n"
	for i := range o.Pods {
		b, err := json.MarshalIndent(Pod(o, i), "        ", "    ")
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			want += ",\n"
		}
		want += "        " + string(b)
	}
	want += "\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n"
	if d := cmp.Diff(want, string(write(t, WritePodList, o))); d != "" {
		t.Errorf("items are not json.MarshalIndent of Pod (-want +got):\n%s", d)
	}
}

func TestDeterminism(t *testing.T) {
	o := Options{Pods: 200, Nodes: 9, Events: 200, Seed: 42}
	other := o
	other.Seed = 43
	for _, l := range listers() {
		t.Run(l.name, func(t *testing.T) {
			a, b := write(t, l.write, o), write(t, l.write, o)
			if !bytes.Equal(a, b) {
				t.Error("same options wrote different bytes")
			}
			if bytes.Equal(a, write(t, l.write, other)) {
				t.Error("different seeds wrote the same bytes")
			}
		})
	}
}

func TestItemSizes(t *testing.T) {
	o := Options{Pods: 2000, Events: 2000, Seed: 3}
	bounds := map[string][2]int{"pods": {1500, 6000}, "nodes": {2000, 12000}, "events": {500, 2500}}
	for _, l := range listers() {
		t.Run(l.name, func(t *testing.T) {
			avg := len(write(t, l.write, o)) / l.count(o)
			t.Logf("average %s item: %d bytes", l.name, avg)
			if b := bounds[l.name]; avg < b[0] || avg > b[1] {
				t.Errorf("average %s item is %d bytes, want %d..%d", l.name, avg, b[0], b[1])
			}
		})
	}
}

// TestReferences checks that names, UIDs and pod addresses are unique, and that pods and events
// refer to generated objects.
func TestReferences(t *testing.T) {
	o := Options{Pods: 3000, Events: 3000, Seed: 5}
	nodes := map[string]string{} // name to UID
	for i := range o.norm().Nodes {
		n := Node(o, i)
		if _, dup := nodes[n.Name]; dup {
			t.Fatalf("duplicate node name %s", n.Name)
		}
		nodes[n.Name] = string(n.UID)
	}
	pods, seen := map[string]string{}, map[string]string{} // namespace/name to UID; address or DaemonSet on a node to pod
	for i := range o.Pods {
		p := Pod(o, i)
		key := p.Namespace + "/" + p.Name
		if _, dup := pods[key]; dup {
			t.Fatalf("duplicate pod %s", key)
		}
		pods[key] = string(p.UID)
		if _, ok := nodes[p.Spec.NodeName]; p.Spec.NodeName != "" && !ok {
			t.Errorf("pod %s is on unknown node %s", key, p.Spec.NodeName)
		}
		if (p.Spec.NodeName == "") != (p.Status.Phase == corev1.PodPending && p.Status.HostIP == "") {
			t.Errorf("pod %s: nodeName %q with phase %s and hostIP %q", key, p.Spec.NodeName, p.Status.Phase, p.Status.HostIP)
		}
		unique := p.Status.PodIP
		if p.Spec.HostNetwork {
			unique = p.Spec.NodeName + " " + p.GenerateName
		}
		if other, dup := seen[unique]; dup && p.Spec.NodeName != "" && unique != "" {
			t.Errorf("pods %s and %s share %q", other, key, unique)
		}
		seen[unique] = key
	}
	names, reasons := map[string]bool{}, map[string]int{}
	for i := range o.Events {
		e := Event(o, i)
		if names[e.Namespace+"/"+e.Name] {
			t.Fatalf("duplicate event %s/%s", e.Namespace, e.Name)
		}
		names[e.Namespace+"/"+e.Name] = true
		reasons[e.Reason]++
		ref := e.InvolvedObject
		switch uid, ok := pods[ref.Namespace+"/"+ref.Name]; {
		case ref.Kind == "Pod" && (!ok || uid != string(ref.UID)):
			t.Errorf("event %s is about unknown pod %s/%s %s", e.Name, ref.Namespace, ref.Name, ref.UID)
		case ref.Kind == "Node" && nodes[ref.Name] == "":
			t.Errorf("event %s is about unknown node %s", e.Name, ref.Name)
		}
		if i > 0 && !Event(o, i-1).FirstTimestamp.Before(&e.FirstTimestamp) {
			t.Errorf("event %d does not start after event %d", i, i-1)
		}
	}
	for _, r := range []string{"Scheduled", "Pulled", "Created", "Started", "FailedScheduling", "Evicted", "Unhealthy",
		"Killing", "BackOff", "TriggeredScaleUp", "NodeNotReady", "NodeHasInsufficientMemory"} {
		if reasons[r] == 0 {
			t.Errorf("no %s event among %d", r, o.Events)
		}
	}
	t.Logf("event reasons: %v", reasons)
}

// diskFull is the error of a failingWriter.
type diskFull struct{}

func (diskFull) Error() string { return "disk full" }

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, diskFull{} }

func TestErrors(t *testing.T) {
	for _, l := range listers() {
		t.Run(l.name, func(t *testing.T) {
			err := l.write(failingWriter{}, Options{Pods: 500, Events: 500})
			if !errors.Is(err, diskFull{}) || !strings.HasPrefix(err.Error(), "synth: ") {
				t.Errorf("write to a failing writer: %v", err)
			}
			if err := l.write(io.Discard, Options{Pods: -1, Nodes: -1, Events: -1}); err == nil {
				t.Error("negative count: no error")
			}
		})
	}
}

// countingWriter counts the bytes written to it.
type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

func BenchmarkWritePodList(b *testing.B) {
	o := Options{Pods: 20000, Seed: 1}
	var size countingWriter
	if err := WritePodList(&size, o); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		if err := WritePodList(io.Discard, o); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReportCheck: generated reports use only the vocabulary, and pass the checks an
// imported report passes.
func TestReportCheck(t *testing.T) {
	for i := range 2000 {
		r := Report(7, i)
		sig := incident.SignatureOf(r)
		if err := sig.Check(analysis.SymptomKinds, analysis.CauseKinds); err != nil {
			t.Fatalf("report %d: %v", i, err)
		}
		if r.RootCause != r.Causes[0] || len(r.Components) == 0 {
			t.Fatalf("report %d: %+v", i, r)
		}
	}
	if a, b := Report(7, 3), Report(7, 3); a.Body != b.Body || a.ID != "GEN-0000003" {
		t.Errorf("not reproducible: %q vs %q", a.Body, b.Body)
	}
}
