package picture

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/rules"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/timeline"
)

func il0070(t *testing.T) *cluster.Model {
	t.Helper()
	return fixtures.IL0070Model(t)
}

// wellFormed parses the SVG as XML: a broken picture fails here, not in a browser.
func wellFormed(t *testing.T, svg string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(svg))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("SVG is not well formed: %v\n%.300s", err, svg)
		}
	}
}

func TestPictures(t *testing.T) {
	m := il0070(t)
	rep := rules.Run(m, analysis.Options{})
	from := time.Date(2023, 2, 1, 16, 55, 0, 0, time.UTC)
	to := from.Add(15 * time.Minute)
	entries := timeline.Build(m, rep, nil)

	marks := SymptomMarks(entries, 12)
	buckets := timeline.Buckets(entries, from, to, time.Minute)
	events := EventsPerMinute(buckets, marks)
	wellFormed(t, events)
	warned, busy := 0, 0
	for _, b := range buckets {
		if b.Warnings > 0 {
			warned++
		}
		if b.Events > 0 {
			busy++
		}
	}
	if n := strings.Count(events, `class="bar-warning"`); n != warned || warned == 0 {
		t.Errorf("%d warning bars, want one a minute with warnings (%d)", n, warned)
	}
	if n := strings.Count(events, `class="bar"`); n != busy {
		t.Errorf("%d bars, want one a minute with events (%d)", n, busy)
	}
	// Every symptom group is marked: a lane with its label and a strip.
	if len(marks) == 0 || strings.Count(events, `class="mark`) != 2*len(marks) {
		t.Errorf("%d marks, %d mark elements: want a strip and a label each", len(marks), strings.Count(events, `class="mark`))
	}
	for _, s := range rep.Symptoms {
		if !strings.Contains(events, ">"+s.ID+" "+s.Kind) {
			t.Errorf("symptom %s %s is not marked: %.300s", s.ID, s.Kind, events)
		}
	}

	nodes := NodesPerPool(m, from, to)
	wellFormed(t, nodes)
	// The burst: dask-pool's line climbs from its 11 nodes to 113 in the window.
	if !strings.Contains(nodes, ">dask-pool 11 → 113</text>") || !strings.Contains(nodes, ">core-pool 4</text>") {
		t.Errorf("nodes picture lacks the pools' legend: %.600s", nodes)
	}
	if n := strings.Count(nodes, `class="pool-line pool-`); n != 3 {
		t.Errorf("%d pool lines, want 3", n)
	}
	if n := strings.Count(nodes, " V "); n < 102 {
		t.Errorf("%d steps, want one per node added in the window (102)", n)
	}

	var hub *cluster.Object
	for _, n := range m.Nodes {
		for _, p := range m.PodsOn(n.Name) {
			if cluster.PodComponent(p.Pod) == cluster.ComponentPrometheus {
				hub = n
			}
		}
	}
	if hub == nil {
		t.Fatal("no node with Prometheus")
	}
	load := m.Load(hub)
	req := NodeRequests(m, []cluster.NodeLoad{load}, 0.10)
	wellFormed(t, req)
	if !strings.Contains(req, `class="pod pod-prometheus"`) || !strings.Contains(req, "memory 9") {
		t.Errorf("the hub's node does not show Prometheus and its memory share: %.600s", req)
	}
	// Every pod that requests a tenth of the node, of memory or CPU, is named with its share.
	named := 0
	for _, p := range load.Pods {
		r := m.PodRequests(p)
		for _, share := range []float64{float64(r.Memory) / float64(load.Allocatable.Memory), float64(r.MilliCPU) / float64(load.Allocatable.MilliCPU)} {
			if share < 0.10 {
				continue
			}
			named++
			label := fmt.Sprintf("%s %.0f%%", p.Name, share*100)
			if !strings.Contains(req, ">"+label+"</text>") && !strings.Contains(req, ">▸ "+label+"</text>") {
				t.Errorf("pod %s requests %.0f%% of the node and is not named: %.900s", p.Name, share*100, req)
			}
		}
	}
	if named < 2 {
		t.Errorf("%d pods above a tenth of the hub's node: the test shows little", named)
	}
}

// TestSymptomMarks: one lane per symptom group while they are few, one per kind beyond, with a
// span for each group; a group's members are not marked apart.
func TestSymptomMarks(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2023, 2, 1, 17, m, 0, 0, time.UTC) }
	last := at(9)
	rows := []timeline.Entry{
		{At: at(1), Last: &last, Type: timeline.TypeSymptom, Kind: "pod_pending", Ref: "S1", Count: 1204, Members: 1204, Severity: timeline.SeverityWarning},
		{At: at(1), Type: timeline.TypeSymptom, Kind: "pod_pending", Ref: "S1.1", Parent: "S1"},
		{At: at(6), Type: timeline.TypeSymptom, Kind: "pod_evicted", Ref: "S2", Severity: timeline.SeverityCritical},
		{At: at(7), Type: timeline.TypeSymptom, Kind: "pod_evicted", Ref: "S3", Count: 3, Severity: timeline.SeverityCritical},
		{At: at(2), Type: timeline.TypeEvent, Kind: "FailedScheduling"},
	}
	tests := []struct {
		limit int
		want  []Mark
	}{
		{12, []Mark{{"S1 pod_pending ×1,204", false, []Span{{at(1), at(9)}}}, {"S2 pod_evicted", true, []Span{{at(6), at(6)}}},
			{"S3 pod_evicted ×3", true, []Span{{at(7), at(7)}}}}},
		{2, []Mark{{"pod_pending ×1,204", false, []Span{{at(1), at(9)}}}, {"pod_evicted ×4 in 2 groups", true, []Span{{at(6), at(6)}, {at(7), at(7)}}}}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, SymptomMarks(rows, tt.limit)); diff != "" {
			t.Errorf("limit %d: marks (-want +got):\n%s", tt.limit, diff)
		}
	}
}

// TestEscaping: whatever the input names (a pool, a pod, a symptom), the pictures draw it as
// text, never as markup.
func TestEscaping(t *testing.T) {
	s := newSVG(10, 10, `<script>alert(1)</script>`)
	s.text(0, 0, "start", "label", `"><img src=x onerror=alert(1)>`)
	out := s.String()
	wellFormed(t, out)
	if strings.Contains(out, "<script>") || strings.Contains(out, "<img") {
		t.Errorf("unescaped text: %s", out)
	}

	at := time.Date(2023, 2, 1, 17, 0, 0, 0, time.UTC)
	hostile := `<script>alert("x")</script>&`
	events := EventsPerMinute([]timeline.Bucket{{At: at, Events: 3}, {At: at.Add(time.Minute), Events: 1}}, []Mark{{Label: hostile, Spans: []Span{{at, at}}}})
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n<1>", CreationTimestamp: metav1.NewTime(at),
		Labels: map[string]string{"cloud.google.com/gke-nodepool": hostile}},
		Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi"), corev1.ResourceCPU: resource.MustParse("1")}}}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "x", Name: hostile}, Spec: corev1.PodSpec{NodeName: "n<1>",
		Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("512Mi")}}}}}}
	m := cluster.NewModel(nil, []*cluster.Object{{Kind: cluster.KindNode, Name: node.Name, Node: node}, {Kind: cluster.KindPod, Namespace: "x", Name: pod.Name, Pod: cluster.PodOf(pod)}})
	nodes := NodesPerPool(m, at.Add(-time.Minute), at.Add(time.Hour))
	req := NodeRequests(m, []cluster.NodeLoad{m.Load(m.Nodes[0])}, 0.1)
	for name, svg := range map[string]string{"events": events, "nodes": nodes, "requests": req} {
		wellFormed(t, svg)
		if strings.Contains(svg, "<script") || strings.Contains(svg, "n<1>") {
			t.Errorf("%s: unescaped text: %s", name, svg)
		}
		if !strings.Contains(svg, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&amp;") {
			t.Errorf("%s: the hostile name is not drawn as text: %s", name, svg)
		}
	}
}
