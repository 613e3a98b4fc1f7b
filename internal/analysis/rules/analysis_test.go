package rules

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/ingest"
)

// model decodes YAML documents (separated by ---) into a model, each document its own file.
func model(t *testing.T, docs ...string) *cluster.Model {
	t.Helper()
	var objs []*cluster.Object
	var files []string
	dec := ingest.NewDecoder(ingest.Options{})
	for i, d := range docs {
		name := fmt.Sprintf("f%d.txt", i)
		files = append(files, name)
		// As the CLI and an upload read a file the user named.
		_, err := dec.DecodeFile(context.Background(), ingest.File{Name: name, Content: strings.NewReader(d), Explicit: true}, func(o *cluster.Object) error {
			objs = append(objs, o)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return cluster.NewModel(files, objs)
}

// kinds lists the symptoms as "kind: summary" lines, for compact assertions.
func kinds(ss []analysis.Symptom) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.Kind + ": " + s.Summary
	}
	return out
}

// checkEvidence asserts every symptom points back into the input.
func checkEvidence(t *testing.T, ss []analysis.Symptom) {
	t.Helper()
	for _, s := range ss {
		if len(s.Evidence) == 0 {
			t.Errorf("%s has no evidence", s.Summary)
		}
		for _, e := range s.Evidence {
			if e.File == "" || e.Ref == "" {
				t.Errorf("%s: evidence without file or object: %+v", s.Summary, e)
			}
		}
	}
}

const evictedPod = `
apiVersion: v1
kind: Pod
metadata: {name: hub-1, namespace: prod}
spec:
  nodeName: core-1
  containers: [{name: hub, image: hub}]
status:
  phase: Failed
  reason: Evicted
  message: 'The node was low on resource: memory. Container hub was using 1900004Ki, which exceeds its request of 471859200. '
`

const disruptedPod = `
apiVersion: v1
kind: Pod
metadata: {name: istiod-1, namespace: istio}
spec: {nodeName: n2, containers: [{name: discovery, image: x}]}
status:
  phase: Failed
  conditions:
  - type: DisruptionTarget
    status: "True"
    reason: TerminationByKubelet
    lastTransitionTime: "2025-05-29T07:30:02Z"
    message: 'The node was low on resource: ephemeral-storage. Threshold quantity: 1Gi, available: 898240Ki. '
`

const evictedEvent = `
apiVersion: v1
kind: Event
metadata: {name: web-1.17a, namespace: prod, uid: e1}
involvedObject: {kind: Pod, namespace: prod, name: web-1}
reason: Evicted
type: Warning
message: 'The node was low on resource: memory. '
source: {component: kubelet, host: core-2}
firstTimestamp: "2023-02-01T17:06:00Z"
lastTimestamp: "2023-02-01T17:06:00Z"
count: 1
`

func TestEvictedRule(t *testing.T) {
	tests := []struct {
		name string
		docs []string
		want []string
	}{
		{"phase and reason", []string{evictedPod}, []string{"pod_evicted: pod prod/hub-1 was evicted: the node was low on memory (node core-1)"}},
		{"DisruptionTarget alone", []string{disruptedPod}, []string{"pod_evicted: pod istio/istiod-1 was evicted: the node was low on ephemeral-storage (node n2)"}},
		{"event alone", []string{evictedEvent}, []string{"pod_evicted: pod prod/web-1 was evicted: the node was low on memory (node core-2)"}},
		{"running pod", []string{`{"kind": "Pod", "metadata": {"name": "ok", "namespace": "p"}, "status": {"phase": "Running"}}`}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := evictedRule{}.Symptoms(analysis.Input{Model: model(t, tt.docs...)})
			if strings.Join(kinds(got), "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(kinds(got), "\n"), strings.Join(tt.want, "\n"))
			}
			checkEvidence(t, got)
		})
	}
}

func TestLingeringRule(t *testing.T) {
	got := lingeringRule{}.Symptoms(analysis.Input{Model: model(t, evictedPod, disruptedPod, evictedEvent)})
	// Both evicted pods are still there (the one known only from an event is not).
	if len(got) != 1 || len(got[0].Objects) != 2 || got[0].Objects[0].Name != "hub-1" || got[0].Objects[1].Name != "istiod-1" {
		t.Fatalf("got %+v, want one symptom naming hub-1 and istiod-1", got)
	}
	checkEvidence(t, got)
}

func TestPendingRule(t *testing.T) {
	worker := func(name string) string {
		return `
apiVersion: v1
kind: Pod
metadata:
  name: ` + name + `
  namespace: prod
  ownerReferences: [{kind: DaskCluster, name: dask-1, controller: true, apiVersion: gateway.dask.org/v1alpha1, uid: u}]
spec: {containers: [{name: w, image: x}]}
status:
  phase: Pending
  conditions:
  - type: PodScheduled
    status: "False"
    reason: Unschedulable
    lastTransitionTime: "2023-02-01T17:00:10Z"
    message: '0/126 nodes are available: 23 Insufficient cpu.'
`
	}
	creating := `
apiVersion: v1
kind: Pod
metadata: {name: scheduled, namespace: prod}
spec: {nodeName: n1, containers: [{name: c, image: x}]}
status:
  phase: Pending
  conditions: [{type: PodScheduled, status: "True"}]
  containerStatuses: [{name: c, ready: false, restartCount: 0, image: x, imageID: "", state: {waiting: {reason: ContainerCreating}}}]
`
	got := pendingRule{}.Symptoms(analysis.Input{Model: model(t, worker("w-1"), worker("w-2"), worker("w-3"), creating)})
	want := []string{"pod_pending: 3 pods in prod could not be scheduled: 0/126 nodes are available: 23 Insufficient cpu."}
	if strings.Join(kinds(got), "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q, want %q", kinds(got), want)
	}
	checkEvidence(t, got)
}

func TestOOMRule(t *testing.T) {
	pod := `
apiVersion: v1
kind: Pod
metadata: {name: trino-worker-0, namespace: data}
spec: {nodeName: n1, containers: [{name: trino, image: x}]}
status:
  phase: Running
  containerStatuses:
  - name: trino
    image: x
    imageID: ""
    ready: true
    restartCount: 3
    state: {running: {startedAt: "2023-02-01T17:07:00Z"}}
    lastState: {terminated: {reason: OOMKilled, exitCode: 137, finishedAt: "2023-02-01T17:06:50Z"}}
`
	node := `
apiVersion: v1
kind: Event
metadata: {name: n1.oom, uid: e2}
involvedObject: {kind: Node, name: n1}
reason: SystemOOM
type: Warning
message: 'System OOM encountered, victim process: python, pid: 4242'
lastTimestamp: "2023-02-01T17:06:49Z"
`
	got := oomRule{}.Symptoms(analysis.Input{Model: model(t, pod, node)})
	want := []string{"oom_killed: container trino of pod data/trino-worker-0 was OOM-killed"}
	if strings.Join(kinds(got), "\n") != strings.Join(want, "\n") {
		t.Errorf("oom_killed: got %q, want %q", kinds(got), want)
	}
	checkEvidence(t, got)
	// The kernel's OOM killer on the node is the node's symptom, not the container's.
	got = nodeOOMRule{}.Symptoms(analysis.Input{Model: model(t, pod, node)})
	want = []string{"node_oom: the kernel's OOM killer ran on node n1: System OOM encountered, victim process: python, pid: 4242"}
	if strings.Join(kinds(got), "\n") != strings.Join(want, "\n") {
		t.Errorf("node_oom: got %q, want %q", kinds(got), want)
	}
	checkEvidence(t, got)
}

func TestNodeRules(t *testing.T) {
	nodes := `
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: core-1, labels: {cloud.google.com/gke-nodepool: core}}
  status:
    conditions:
    - {type: MemoryPressure, status: "True", reason: KubeletHasInsufficientMemory, message: kubelet has insufficient memory available, lastTransitionTime: "2023-02-01T17:04:10Z"}
    - {type: Ready, status: "True", reason: KubeletReady}
- apiVersion: v1
  kind: Node
  metadata: {name: dask-1, labels: {cloud.google.com/gke-nodepool: dask}}
  status:
    conditions: [{type: Ready, status: "False", reason: KubeletNotReady, lastTransitionTime: "2023-02-01T17:01:12Z"}]
- apiVersion: v1
  kind: Node
  metadata: {name: dask-2, labels: {cloud.google.com/gke-nodepool: dask}}
  status:
    conditions: [{type: Ready, status: "Unknown", reason: NodeStatusUnknown, message: Kubelet stopped posting node status.}]
`
	m := model(t, nodes)
	notReady := nodeNotReadyRule{}.Symptoms(analysis.Input{Model: m})
	if want := []string{"node_not_ready: 2 nodes in pool dask were not ready"}; strings.Join(kinds(notReady), "\n") != want[0] {
		t.Errorf("not ready: got %q, want %q", kinds(notReady), want)
	}
	pressure := nodePressureRule{}.Symptoms(analysis.Input{Model: m})
	if want := "node_pressure: node core-1 was under memory pressure"; strings.Join(kinds(pressure), "\n") != want {
		t.Errorf("pressure: got %q, want %q", kinds(pressure), want)
	}
	checkEvidence(t, append(notReady, pressure...))
}

func TestRunNumbersInTimeOrder(t *testing.T) {
	rep := Run(model(t, evictedEvent, disruptedPod), analysis.Options{})
	var ids []string
	for _, s := range rep.Symptoms {
		ids = append(ids, s.ID+" "+s.Objects[0].Name)
	}
	// The DisruptionTarget of 2025 comes after the 2023 event; the lingering list has no time.
	if got := strings.Join(ids, ", "); got != "S1 web-1, S2 istiod-1, S3 istiod-1" {
		t.Errorf("symptoms = %s", got)
	}
	if rep.Inputs.Pods != 1 || rep.Inputs.Events != 1 || rep.Inputs.From == nil {
		t.Errorf("inputs = %+v", rep.Inputs)
	}
}
