package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

func event(name, ns, kind, obj, reason, typ, msg, last string, count int) string {
	return fmt.Sprintf(`
apiVersion: v1
kind: Event
metadata: {name: %s, namespace: %q, uid: %s}
involvedObject: {kind: %s, namespace: %q, name: %s}
reason: %s
type: %s
message: %q
source: {component: kubelet, host: core-1}
firstTimestamp: %q
lastTimestamp: %q
count: %d
`, name, ns, name, kind, ns, obj, reason, typ, msg, last, last, count)
}

func TestEventRules(t *testing.T) {
	tests := []struct {
		name string
		rule analysis.SymptomRule
		docs []string
		want []string
	}{
		{"liveness failures and restart", probeRule{probe: "Liveness", kind: analysis.LivenessProbeFailed}, []string{
			event("e1", "prod", "Pod", "hub-1", "Unhealthy", "Warning", `Liveness probe failed: Get "http://10.0.0.5:8081/hub/health": context deadline exceeded`, "2023-02-01T17:05:00Z", 30),
			event("e2", "prod", "Pod", "hub-1", "Killing", "Normal", "Container hub failed liveness probe, will be restarted", "2023-02-01T17:05:01Z", 1),
			event("e3", "prod", "Pod", "hub-1", "Unhealthy", "Warning", "Readiness probe failed: HTTP probe failed with statuscode: 503", "2023-02-01T17:05:02Z", 4),
		}, []string{"liveness_probe_failed: liveness probe of pod prod/hub-1 failed 30 time(s), and the container was restarted 1 time(s) for it"}},
		{"a reason in another case (a paste's)", probeRule{probe: "Liveness", kind: analysis.LivenessProbeFailed}, []string{
			event("e1", "prod", "Pod", "hub-1", "UNHEALTHY", "Warning", `Liveness probe failed: Get "http://10.0.0.5:8081/hub/health": context deadline exceeded`, "2023-02-01T17:05:00Z", 30),
		}, []string{"liveness_probe_failed: liveness probe of pod prod/hub-1 failed 30 time(s)"}},
		{"readiness only", probeRule{probe: "Readiness", kind: analysis.ReadinessProbeFailed}, []string{
			event("e3", "prod", "Pod", "hub-1", "Unhealthy", "Warning", "Readiness probe errored: rpc error", "2023-02-01T17:05:02Z", 4),
		}, []string{"readiness_probe_failed: readiness probe of pod prod/hub-1 failed 4 time(s)"}},
		{"back-off", crashLoopRule{}, []string{
			event("e4", "ci", "Pod", "job-1", "BackOff", "Warning", "Back-off restarting failed container main in pod job-1_ci(uid)", "2023-02-01T17:05:02Z", 7),
			event("e5", "ci", "Pod", "job-2", "BackOff", "Normal", `Back-off pulling image "nope:1"`, "2023-02-01T17:05:02Z", 7),
		}, []string{"crash_loop_backoff: a container of pod ci/job-1 kept crashing (CrashLoopBackOff)"}},
		{"image pull", imagePullRule{}, []string{
			event("e5", "ci", "Pod", "job-2", "BackOff", "Normal", `Back-off pulling image "nope:1"`, "2023-02-01T17:05:02Z", 7),
			event("e6", "ci", "Pod", "job-2", "Failed", "Warning", `Failed to pull image "nope:1": not found`, "2023-02-01T17:05:01Z", 1),
		}, []string{"image_pull_failed: an image of pod ci/job-2 could not be pulled"}},
		{"preempted", preemptedRule{}, []string{
			event("e7", "batch", "Pod", "low-1", "Preempted", "Normal", "Preempted by pod 3f2a on node n1", "2023-02-01T17:05:02Z", 1),
		}, []string{"preempted: pod batch/low-1 was preempted by a higher-priority pod"}},
		{"triggered scale-up", scaleUpRule{}, []string{
			event("e8", "prod", "Pod", "w-1", "TriggeredScaleUp", "Normal", "pod triggered scale-up: [{https://www.googleapis.com/compute/v1/projects/leap/zones/us-central1-b/instanceGroups/gke-leap-dask-pool-grp 3->103 (max: 200)}]", "2023-02-01T17:00:05Z", 1),
		}, []string{"scale_up: the cluster autoscaler scaled up gke-leap-dask-pool-grp 3→103"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.rule.Symptoms(analysis.Input{Model: model(t, tt.docs...)})
			if strings.Join(kinds(got), "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(kinds(got), "\n"), strings.Join(tt.want, "\n"))
			}
			checkEvidence(t, got)
		})
	}
}

func TestPodStatusRules(t *testing.T) {
	pod := `
apiVersion: v1
kind: Pod
metadata: {name: api-1, namespace: web}
spec: {nodeName: n1, containers: [{name: api, image: x}, {name: side, image: sidecar}]}
status:
  phase: Running
  containerStatuses:
  - {name: api, image: x, imageID: "", ready: false, restartCount: 5, state: {waiting: {reason: CrashLoopBackOff, message: back-off 5m0s}}, lastState: {terminated: {reason: Error, exitCode: 1, finishedAt: "2023-02-01T17:06:50Z"}}}
  - {name: side, image: sidecar, imageID: "", ready: false, restartCount: 0, state: {waiting: {reason: ImagePullBackOff, message: 'Back-off pulling image "sidecar"'}}}
`
	m := model(t, pod)
	for _, tt := range []struct {
		rule analysis.SymptomRule
		want string
	}{
		{crashLoopRule{}, "crash_loop_backoff: a container of pod web/api-1 kept crashing (CrashLoopBackOff)"},
		{restartedRule{}, "container_restarted: container api of pod web/api-1 restarted 5 time(s) (last: Error, exit code 1)"},
		{imagePullRule{}, "image_pull_failed: an image of pod web/api-1 could not be pulled"},
	} {
		got := tt.rule.Symptoms(analysis.Input{Model: m})
		if strings.Join(kinds(got), "\n") != tt.want {
			t.Errorf("%s: got %q, want %q", tt.rule.Name(), kinds(got), tt.want)
		}
		checkEvidence(t, got)
	}
}

func TestScaleUpBurst(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	for i := range 12 {
		// two old core nodes, then ten created within 50 seconds
		created := fmt.Sprintf("2023-02-01T17:00:%02dZ", i*5)
		if i < 2 {
			created = fmt.Sprintf("2023-01-2%dT08:00:00Z", i)
		}
		fmt.Fprintf(&b, "- {apiVersion: v1, kind: Node, metadata: {name: n%d, creationTimestamp: %q}}\n", i, created)
	}
	got := scaleUpRule{}.Symptoms(analysis.Input{Model: model(t, b.String())})
	if want := "scale_up: 10 nodes were added within 45 s"; strings.Join(kinds(got), "\n") != want {
		t.Errorf("got %q, want %q", kinds(got), want)
	}
	checkEvidence(t, got)
}

// TestOvercommitFromDescribe reads the limits of a node known only from kubectl describe
// node: its Allocated resources table.
func TestOvercommitFromDescribe(t *testing.T) {
	describe := func(limits string) string {
		return `Name:               core-1
Labels:             cloud.google.com/gke-nodepool=core
Conditions:
  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message
  ----             ------  -----------------                 ------------------                ------                       -------
  MemoryPressure   True    Wed, 01 Feb 2023 17:05:30 +0000   Wed, 01 Feb 2023 17:04:10 +0000   KubeletHasInsufficientMemory kubelet has insufficient memory available
Allocatable:
  cpu:                3920m
  memory:             28431340Ki
Allocated resources:
  (Total limits may be over 100 percent, i.e., overcommitted.)
  Resource           Requests      Limits
  --------           --------      ------
  cpu                3450m (88%)   4 (102%)
  memory             25Gi (93%)    ` + limits + `
Events:              <none>
`
	}
	tests := []struct {
		limits string
		want   string // the cause found: its kind, the symptoms it explains, its summary and evidence
	}{
		{"33Gi (124%)", "node_overcommitted explains [S1]: node core-1 had memory limits at 124% of allocatable; " +
			"evidence Node core-1 Allocated resources: memory limits = 33Gi (124%)"},
		{"10Gi (37%)", ""}, // pressure that limits do not explain (corpus file 31)
	}
	for _, tt := range tests {
		m := model(t, describe(tt.limits))
		in := analysis.Input{Model: m}
		syms := nodePressureRule{}.Symptoms(in)
		if len(syms) != 1 || syms[0].Kind != analysis.NodePressure {
			t.Fatalf("limits %s: symptoms %v, want the node's memory pressure", tt.limits, kinds(syms))
		}
		syms[0].ID = "S1"
		var got []string
		for _, c := range (overcommitRule{}).Causes(in, syms) {
			line := fmt.Sprintf("%s explains %v: %s; evidence", c.Kind, c.Explains, c.Summary)
			for _, e := range c.Evidence {
				line += fmt.Sprintf(" %s %s = %s", e.Ref, e.Field, e.Value)
			}
			got = append(got, line)
		}
		if strings.Join(got, "\n") != tt.want {
			t.Errorf("limits %s:\ngot  %q\nwant %q", tt.limits, got, tt.want)
		}
	}
}
