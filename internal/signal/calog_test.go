package signal

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseAutoscalerLog(t *testing.T) {
	ignoreLine := cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Line" }, cmp.Ignore())
	tests := []struct {
		name   string
		line   string
		want   AutoscalerLog
		wantOK bool
	}{
		{
			name:   "pod unschedulable, old file name",
			line:   "I0129 18:57:37.957666       1 scale_up.go:263] Pod shop/cart-5c8d-x2 is unschedulable",
			want:   AutoscalerLog{Kind: CAPodUnschedulable, Namespace: "shop", Pod: "cart-5c8d-x2"},
			wantOK: true,
		},
		{
			name:   "pod unschedulable through klogx",
			line:   "I0405 17:44:49.931979       1 klogx.go:87] Pod default/batch-7f6b-q is unschedulable",
			want:   AutoscalerLog{Kind: CAPodUnschedulable, Namespace: "default", Pod: "batch-7f6b-q"},
			wantOK: true,
		},
		{
			name:   "other pods, quoted in Markdown",
			line:   "> I1227 10:48:22.745330       1 scale_up.go:61] 12 other pods are also unschedulable",
			want:   AutoscalerLog{Kind: CAPodsUnschedulable, Count: 12},
			wantOK: true,
		},
		{
			name:   "pods are unschedulable",
			line:   "7 pods are unschedulable",
			want:   AutoscalerLog{Kind: CAPodsUnschedulable, Count: 7},
			wantOK: true,
		},
		{
			name:   "daemon set filter leaves a count",
			line:   "I0405 17:44:49.931928       1 filter_out_daemon_sets.go:47] Filtered out 2 daemon set pods, 9 unschedulable pods left",
			want:   AutoscalerLog{Kind: CAPodsUnschedulable, Count: 9},
			wantOK: true,
		},
		{
			name:   "no unschedulable pods",
			line:   "I0520 12:49:07.634070       1 static_autoscaler.go:547] No unschedulable pods",
			want:   AutoscalerLog{Kind: CAPodsUnschedulable},
			wantOK: true,
		},
		{
			name:   "upcoming",
			line:   "I1227 10:48:22.915535       1 scale_up.go:92] Upcoming 3 nodes",
			want:   AutoscalerLog{Kind: CAUpcomingNodes, Count: 3},
			wantOK: true,
		},
		{
			name:   "max size reached",
			line:   "I1227 10:48:23.118126       1 scale_up.go:116] Skipping node group nodes.eu-west-1a.example - max size reached",
			want:   AutoscalerLog{Kind: CAMaxSizeReached, Group: "nodes.eu-west-1a.example"},
			wantOK: true,
		},
		{
			name:   "max node group size reached wording",
			line:   "Skipping node group ng-gpu - max node group size reached",
			want:   AutoscalerLog{Kind: CAMaxSizeReached, Group: "ng-gpu"},
			wantOK: true,
		},
		{
			name: "predicate checking error",
			line: "I0111 10:23:26.908932       1 scale_up.go:288] Pod reserve-6d4f-g4 can't be scheduled on pool-z1, predicate checking error: Insufficient cpu, Insufficient memory; predicateName=NodeResourcesFit",
			want: AutoscalerLog{Kind: CAPodDoesNotFit, Pod: "reserve-6d4f-g4", Group: "pool-z1", Count: 1,
				Detail: "Insufficient cpu, Insufficient memory; predicateName=NodeResourcesFit"},
			wantOK: true,
		},
		{
			name: "predicate failed, newer with namespace",
			line: "Pod shop/cart-1 can't be scheduled on ng-a, predicate failed: node(s) didn't match Pod's node affinity/selector",
			want: AutoscalerLog{Kind: CAPodDoesNotFit, Namespace: "shop", Pod: "cart-1", Group: "ng-a", Count: 1,
				Detail: "node(s) didn't match Pod's node affinity/selector"},
			wantOK: true,
		},
		{
			name:   "similar pods",
			line:   "4 other pods similar to cart-1 can't be scheduled on ng-a",
			want:   AutoscalerLog{Kind: CAPodDoesNotFit, Count: 4, Pod: "cart-1", Group: "ng-a"},
			wantOK: true,
		},
		{
			name:   "old resource limit",
			line:   "I0101 00:00:00.000000 1 scale_up.go:350] Skipping node group ng-a; maximal limit exceeded for [cpu memory]",
			want:   AutoscalerLog{Kind: CAResourceLimit, Group: "ng-a", Resources: []string{"cpu", "memory"}},
			wantOK: true,
		},
		{
			name:   "quota exceeded",
			line:   `Skipping node group ng-a; "cluster-wide" quota exceeded, resources: [cpu]`,
			want:   AutoscalerLog{Kind: CAResourceLimit, Group: "ng-a", Detail: "cluster-wide", Resources: []string{"cpu"}},
			wantOK: true,
		},
		{
			name:   "capping by a resource",
			line:   "Capping scale-up size due to limit for resource memory",
			want:   AutoscalerLog{Kind: CAResourceLimit, Resources: []string{"memory"}},
			wantOK: true,
		},
		{
			name:   "only some nodes due to quotas",
			line:   "Only 2 nodes can be added to ng-a due to resource quotas",
			want:   AutoscalerLog{Kind: CAResourceLimit, Count: 2, Group: "ng-a"},
			wantOK: true,
		},
		{
			name:   "max cluster cpu, memory limit reached",
			line:   "pod didn't trigger scale-up: 3 max cluster cpu, memory limit reached",
			want:   AutoscalerLog{Kind: CAResourceLimit, Resources: []string{"cpu", "memory"}},
			wantOK: true,
		},
		{
			name:   "capping to max total",
			line:   "I0101 00:00:00.000000 1 scale_up.go:500] Capping size to max cluster total size (150)",
			want:   AutoscalerLog{Kind: CAMaxTotalNodes, Max: 150},
			wantOK: true,
		},
		{
			name:   "max total event",
			line:   "Max total nodes in cluster reached: 150",
			want:   AutoscalerLog{Kind: CAMaxTotalNodes, Max: 150},
			wantOK: true,
		},
		{
			name:   "max total error",
			line:   "E0101 00:00:00.000000 1 static_autoscaler.go:450] Failed to scale up: max node total count already reached",
			want:   AutoscalerLog{Kind: CAMaxTotalNodes, Detail: "Failed to scale up: max node total count already reached"},
			wantOK: true,
		},
		{
			name:   "atomic scale-up over the node count",
			line:   "Skipping node group tpu-pool - atomic scale-up exceeds cluster node count limit",
			want:   AutoscalerLog{Kind: CAMaxTotalNodes, Group: "tpu-pool"},
			wantOK: true,
		},
		{
			name:   "no expansion options",
			line:   "I1227 10:48:23.118148       1 scale_up.go:186] No expansion options",
			want:   AutoscalerLog{Kind: CANoExpansionOptions},
			wantOK: true,
		},
		{
			name:   "best option",
			line:   "I0101 00:00:00.000000 1 orchestrator.go:190] Best option to resize: eks-workers-2a",
			want:   AutoscalerLog{Kind: CABestOption, Group: "eks-workers-2a"},
			wantOK: true,
		},
		{
			name:   "estimated",
			line:   "I0101 00:00:00.000000 1 orchestrator.go:195] Estimated 4 nodes needed in eks-workers-2a",
			want:   AutoscalerLog{Kind: CAEstimated, Count: 4, Group: "eks-workers-2a"},
			wantOK: true,
		},
		{
			name: "final plan with two groups",
			line: "I0101 00:00:00.000000 1 orchestrator.go:250] Final scale-up plan: [{eks-workers-2a 1->3 (max: 10)} {eks-workers-2b 2->4 (max: 10)}]",
			want: AutoscalerLog{Kind: CAScaleUpPlan, Resizes: []GroupResize{
				{Group: "eks-workers-2a", From: 1, To: 3, Max: 10}, {Group: "eks-workers-2b", From: 2, To: 4, Max: 10},
			}},
			wantOK: true,
		},
		{
			name:   "final plan cut",
			line:   "Final scale-up plan: [{eks-workers-2a 1->3 (max: 10)} {eks-wor",
			want:   AutoscalerLog{Kind: CAScaleUpPlan, Resizes: []GroupResize{{Group: "eks-workers-2a", From: 1, To: 3, Max: 10}}},
			wantOK: true,
		},
		{
			name:   "min size plan",
			line:   "ScaleUpToNodeGroupMinSize: final scale-up plan: [{ng-a 0->2 (max: 5)}]",
			want:   AutoscalerLog{Kind: CAScaleUpPlan, Resizes: []GroupResize{{Group: "ng-a", From: 0, To: 2, Max: 5}}},
			wantOK: true,
		},
		{
			name:   "scale-up log",
			line:   "I0313 12:34:34.470823       1 executor.go:147] Scale-up: setting group eks-inference-02c6 size to 7",
			want:   AutoscalerLog{Kind: CAScaleUp, Group: "eks-inference-02c6", To: 7},
			wantOK: true,
		},
		{
			name:   "scale-up event with sizes",
			line:   "Scale-up: group eks-inference-02c6 size set to 7 instead of 5 (max: 12)",
			want:   AutoscalerLog{Kind: CAScaleUp, Group: "eks-inference-02c6", From: 5, To: 7, Max: 12},
			wantOK: true,
		},
		{
			name: "failed adding, AWS placeholder",
			line: `I0511 21:29:05.854410       1 clusterstate.go:1084] Failed adding 68 nodes (68 unseen previously) to group compute-1-ASG due to OutOfResource.placeholder-cannot-be-fulfilled; errorMessages=[]string{"AWS cannot provision any more instances for this node group"}`,
			want: AutoscalerLog{Kind: CAScaleUpFailed, Count: 68, Group: "compute-1-ASG", ErrorClass: "OutOfResource",
				ErrorCode: "placeholder-cannot-be-fulfilled", Detail: `[]string{"AWS cannot provision any more instances for this node group"}`},
			wantOK: true,
		},
		{
			name: "ScaleUpFailed event, quota",
			line: "Failed adding 3 nodes to group https://www.googleapis.com/compute/v1/projects/p/zones/z/instanceGroups/gke-a-grp due to OutOfResource.QUOTA_EXCEEDED; source errors: Instance 'gke-a-x' creation failed: Quota 'CPUS' exceeded. Limit: 24.0 in region us-central1.",
			want: AutoscalerLog{Kind: CAScaleUpFailed, Count: 3, Group: "https://www.googleapis.com/compute/v1/projects/p/zones/z/instanceGroups/gke-a-grp",
				ErrorClass: "OutOfResource", ErrorCode: "QUOTA_EXCEEDED",
				Detail: "Instance 'gke-a-x' creation failed: Quota 'CPUS' exceeded. Limit: 24.0 in region us-central1."},
			wantOK: true,
		},
		{
			name:   "FailedToScaleUpGroup event",
			line:   "Scale-up failed for group ng-a: InsufficientInstanceCapacity: no capacity in us-east-1a",
			want:   AutoscalerLog{Kind: CAScaleUpFailed, Group: "ng-a", Detail: "InsufficientInstanceCapacity: no capacity in us-east-1a"},
			wantOK: true,
		},
		{
			name:   "failed to scale up",
			line:   "E0101 00:00:00.000000 1 static_autoscaler.go:454] Failed to scale up: failed to increase node group size: could not set desired capacity",
			want:   AutoscalerLog{Kind: CAScaleUpFailed, Detail: "failed to increase node group size: could not set desired capacity"},
			wantOK: true,
		},
		{
			name:   "timed out",
			line:   "W0313 12:49:40.563382       1 clusterstate.go:266] Scale-up timed out for node group eks-inference-02c6 after 15m5.500491908s",
			want:   AutoscalerLog{Kind: CAScaleUpTimedOut, Group: "eks-inference-02c6", Detail: "15m5.500491908s"},
			wantOK: true,
		},
		{
			name:   "ScaleUpTimedOut event",
			line:   "Nodes added to group ng-a failed to register within 15m0.2s",
			want:   AutoscalerLog{Kind: CAScaleUpTimedOut, Group: "ng-a", Detail: "15m0.2s"},
			wantOK: true,
		},
		{
			name: "backoff with error class",
			line: "W0313 12:49:40.584456       1 clusterstate.go:297] Disabling scale-up for node group eks-inference-02c6 until 2024-03-13 12:54:40.13918732 +0000 UTC m=+2030.419314682; errorClass=Other; errorCode=timeout",
			want: AutoscalerLog{Kind: CABackoff, Group: "eks-inference-02c6", ErrorClass: "Other", ErrorCode: "timeout",
				Until: time.Date(2024, 3, 13, 12, 54, 40, 139187320, time.UTC)},
			wantOK: true,
		},
		{
			name: "old backoff",
			line: "W0101 10:00:00.000000 1 clusterstate.go:222] Disabling scale-up for node group ng-a until 2019-01-01 10:05:00.5 +0000 UTC",
			want: AutoscalerLog{Kind: CABackoff, Group: "ng-a",
				Until: time.Date(2019, 1, 1, 10, 5, 0, 500000000, time.UTC)},
			wantOK: true,
		},
		{
			name:   "not ready - backoff",
			line:   "W0511 21:29:30.133720       1 orchestrator.go:511] Node group compute-1-ASG is not ready for scaleup - backoff",
			want:   AutoscalerLog{Kind: CABackoff, Group: "compute-1-ASG"},
			wantOK: true,
		},
		{
			name:   "not ready - backoff with status",
			line:   "Node group ng-a is not ready for scaleup - backoff with status: {true {OutOfResource QUOTA_EXCEEDED quota}}",
			want:   AutoscalerLog{Kind: CABackoff, Group: "ng-a", Detail: "{true {OutOfResource QUOTA_EXCEEDED quota}}"},
			wantOK: true,
		},
		{
			name:   "unhealthy group",
			line:   "Node group ng-a is not ready for scaleup - unhealthy",
			want:   AutoscalerLog{Kind: CAGroupUnhealthy, Group: "ng-a"},
			wantOK: true,
		},
		{
			name:   "old scale-down empty",
			line:   "I1218 06:59:41.025378       1 scale_down.go:594] Scale-down: removing empty node ip-172-20-62-212.ap-southeast-1.compute.internal",
			want:   AutoscalerLog{Kind: CAScaleDown, Empty: true, Node: "ip-172-20-62-212.ap-southeast-1.compute.internal"},
			wantOK: true,
		},
		{
			name:   "ScaleDownEmpty event quotes the node",
			line:   `Scale-down: removing empty node "aks-pool1-vmss000002"`,
			want:   AutoscalerLog{Kind: CAScaleDown, Empty: true, Node: "aks-pool1-vmss000002"},
			wantOK: true,
		},
		{
			name:   "scale-down with drain",
			line:   "Scale-down: removing node n-7, utilization: {0.12 0.3 0 cpu 0.3}, pods to reschedule: shop/cart-1,shop/cart-2",
			want:   AutoscalerLog{Kind: CAScaleDown, Node: "n-7"},
			wantOK: true,
		},
		{
			name:   "structured scale-down",
			line:   `I0101 00:00:00.000000 1 actuator.go:212] "Scale-down: removing empty node" node="n-8"`,
			want:   AutoscalerLog{Kind: CAScaleDown, Empty: true, Node: "n-8"},
			wantOK: true,
		},
		{name: "structured scale-down without the node", line: `"Scale-down: removing node"`},
		{name: "unrelated autoscaler line", line: "I0129 18:57:37.957252       1 static_autoscaler.go:138] Starting main loop"},
		{name: "cut header", line: "I1227 10:48"},
		{name: "empty", line: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseAutoscalerLog(tt.line)
			if ok != tt.wantOK {
				t.Fatalf("ParseAutoscalerLog(%q) ok = %v, want %v", tt.line, ok, tt.wantOK)
			}
			if diff := cmp.Diff(tt.want, got, ignoreLine); diff != "" {
				t.Errorf("ParseAutoscalerLog(%q) mismatch (-want +got):\n%s", tt.line, diff)
			}
		})
	}
}

func TestParseAutoscalerLogLine(t *testing.T) {
	a, ok := ParseAutoscalerLog("2023-05-11T21:29:05.8Z I0511 21:29:05.806767       1 scale_up.go:92] Upcoming 0 nodes")
	if !ok || a.Line.File != "scale_up.go" {
		t.Fatalf("got %+v, %v", a, ok)
	}
	if got, ok := a.Line.Time.Time(); !ok || !got.Equal(time.Date(2023, 5, 11, 21, 29, 5, 806767000, time.UTC)) {
		t.Errorf("time = %v, %v", got, ok)
	}
}

func TestParseGoTime(t *testing.T) {
	tests := []struct {
		in     string
		want   time.Time
		wantOK bool
	}{
		{"2021-09-30 16:13:18.791229527 +0000 UTC m=+10531772.496293969", time.Date(2021, 9, 30, 16, 13, 18, 791229527, time.UTC), true},
		{"2021-12-15 19:22:59.462702674 +0800 CST m=+78880.835736331", time.Date(2021, 12, 15, 11, 22, 59, 462702674, time.UTC), true},
		{"2018-07-25 22:59:22 +0000 UTC", time.Date(2018, 7, 25, 22, 59, 22, 0, time.UTC), true},
		{`"2023-11-24T04:28:19Z"`, time.Date(2023, 11, 24, 4, 28, 19, 0, time.UTC), true},
		{"2025-12-11T14:40:54.65491129Z", time.Date(2025, 12, 11, 14, 40, 54, 654911290, time.UTC), true},
		{"0001-01-01 00:00:00 +0000 UTC", time.Time{}, false},
		{"2021-09-30 16:13", time.Time{}, false},
		{"", time.Time{}, false},
	}
	for _, tt := range tests {
		got, ok := ParseGoTime(tt.in)
		if ok != tt.wantOK || !got.Equal(tt.want) {
			t.Errorf("ParseGoTime(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}

func FuzzParseAutoscalerLog(f *testing.F) {
	for _, s := range []string{
		"I1227 10:48:23.118126       1 scale_up.go:116] Skipping node group nodes.X - max size reached",
		"Final scale-up plan: [{a 1->3 (max: 10)} {b 2->",
		"Disabling scale-up for node group a until 2024-03-13 12:54:40.13918732 +0000 UTC m=+2030.4; errorClass=Other; errorCode=timeout",
		`"Scale-down: removing empty node" node="n-8"`,
		"Failed adding 3 nodes to group g due to OutOfResource.QUOTA_EXCEEDED; source errors: x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		a, ok := ParseAutoscalerLog(line)
		if !ok {
			if diff := cmp.Diff(AutoscalerLog{}, a); diff != "" {
				t.Fatalf("not ok but non-zero result:\n%s", diff)
			}
			return
		}
		if a.Kind == "" || a.Count < 0 || a.From < 0 || a.To < 0 || a.Max < 0 {
			t.Errorf("bad result %+v", a)
		}
		for _, r := range a.Resizes {
			if r.Group == "" {
				t.Errorf("resize without group: %+v", r)
			}
		}
		if !a.Until.IsZero() && a.Until.Location() != time.UTC {
			t.Errorf("until not in UTC: %v", a.Until)
		}
	})
}
