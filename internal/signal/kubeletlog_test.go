package signal

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// clock builds a time of day for expected LogTimes.
func clock(h, m, s, micro int) time.Duration {
	return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute +
		time.Duration(s)*time.Second + time.Duration(micro)*time.Microsecond
}

func TestParseKlog(t *testing.T) {
	tests := []struct {
		name   string
		line   string
		want   KlogLine
		wantOK bool
	}{
		{
			name: "bare text line",
			line: "I0312 08:14:02.552190       1 scale_up.go:300] Upcoming 2 nodes",
			want: KlogLine{
				Severity: "I", Time: LogTime{Month: time.March, Day: 12, Clock: clock(8, 14, 2, 552190)},
				Thread: 1, File: "scale_up.go", Line: 300, Message: "Upcoming 2 nodes",
			},
			wantOK: true,
		},
		{
			name: "markdown quote",
			line: ">  W0312 08:14:03.000001       1 orchestrator.go:582] Node group ng-a is not ready for scaleup - backoff",
			want: KlogLine{
				Severity: "W", Time: LogTime{Month: time.March, Day: 12, Clock: clock(8, 14, 3, 1)},
				Thread: 1, File: "orchestrator.go", Line: 582, Message: "Node group ng-a is not ready for scaleup - backoff",
			},
			wantOK: true,
		},
		{
			name: "journald prefix and structured list",
			line: `Mar 12 08:14:02 ip-10-0-3-7 kubelet[1843]: I0312 08:14:02.552190    1843 eviction_manager.go:367] "Eviction manager: pods ranked for eviction" pods=["web/api-6d9c7","kube-system/fluentd-x2"]`,
			want: KlogLine{
				Severity: "I", Time: LogTime{Month: time.March, Day: 12, Clock: clock(8, 14, 2, 552190)},
				Thread: 1843, File: "eviction_manager.go", Line: 367,
				Message: "Eviction manager: pods ranked for eviction", Structured: true,
				Values: []KeyValue{{"pods", `["web/api-6d9c7","kube-system/fluentd-x2"]`}},
				Prefix: LinePrefix{Raw: "Mar 12 08:14:02 ip-10-0-3-7 kubelet[1843]:", Host: "ip-10-0-3-7", Process: "kubelet", PID: 1843},
			},
			wantOK: true,
		},
		{
			name: "journald short-iso gives the year, dotted identifier",
			line: `2024-06-17T16:18:42+0000 lab-1 microk8s.daemon-kubelite[381]: I0617 16:18:42.212181     381 eviction_manager.go:392] "Eviction manager: must evict pod(s) to reclaim" resourceName="ephemeral-storage"`,
			want: KlogLine{
				Severity: "I", Time: LogTime{Year: 2024, Month: time.June, Day: 17, Clock: clock(16, 18, 42, 212181)},
				Thread: 381, File: "eviction_manager.go", Line: 392,
				Message: "Eviction manager: must evict pod(s) to reclaim", Structured: true,
				Values: []KeyValue{{"resourceName", "ephemeral-storage"}},
				Prefix: LinePrefix{
					Raw:  "2024-06-17T16:18:42+0000 lab-1 microk8s.daemon-kubelite[381]:",
					Host: "lab-1", Process: "microk8s.daemon-kubelite", PID: 381,
					Time: time.Date(2024, 6, 17, 16, 18, 42, 0, time.UTC),
				},
			},
			wantOK: true,
		},
		{
			name: "kubectl logs --timestamps across new year",
			line: "2025-01-01T00:00:00.100000000Z I1231 23:59:59.990000       1 static_autoscaler.go:400] Starting main loop",
			want: KlogLine{
				Severity: "I", Time: LogTime{Year: 2024, Month: time.December, Day: 31, Clock: clock(23, 59, 59, 990000)},
				Thread: 1, File: "static_autoscaler.go", Line: 400, Message: "Starting main loop",
				Prefix: LinePrefix{Raw: "2025-01-01T00:00:00.100000000Z", Time: time.Date(2025, 1, 1, 0, 0, 0, 100000000, time.UTC)},
			},
			wantOK: true,
		},
		{
			name: "kubectl logs --prefix --timestamps with an offset",
			line: "[pod/cluster-autoscaler-5d8f9/cluster-autoscaler] 2025-03-01T10:00:00.5+01:00 I0301 09:00:00.400000 1 klogx.go:87] Pod a/b is unschedulable",
			want: KlogLine{
				Severity: "I", Time: LogTime{Year: 2025, Month: time.March, Day: 1, Clock: clock(9, 0, 0, 400000)},
				Thread: 1, File: "klogx.go", Line: 87, Message: "Pod a/b is unschedulable",
				Prefix: LinePrefix{
					Raw:    "[pod/cluster-autoscaler-5d8f9/cluster-autoscaler] 2025-03-01T10:00:00.5+01:00",
					Source: "pod/cluster-autoscaler-5d8f9/cluster-autoscaler",
					Time:   time.Date(2025, 3, 1, 9, 0, 0, 500000000, time.UTC),
				},
			},
			wantOK: true,
		},
		{
			name: "CRI log file",
			line: "2025-03-01T09:00:00.123456789Z stderr F E0301 09:00:00.123000       1 static_autoscaler.go:450] Failed to scale up: boom",
			want: KlogLine{
				Severity: "E", Time: LogTime{Year: 2025, Month: time.March, Day: 1, Clock: clock(9, 0, 0, 123000)},
				Thread: 1, File: "static_autoscaler.go", Line: 450, Message: "Failed to scale up: boom",
				Prefix: LinePrefix{Raw: "2025-03-01T09:00:00.123456789Z stderr F", Time: time.Date(2025, 3, 1, 9, 0, 0, 123456789, time.UTC)},
			},
			wantOK: true,
		},
		{
			name: "log viewer timestamp without zone",
			line: "2026-01-11 19:21:27.430 I0111 13:51:27.430029       1 clusterstate.go:1145] Found 2 instances",
			want: KlogLine{
				Severity: "I", Time: LogTime{Year: 2026, Month: time.January, Day: 11, Clock: clock(13, 51, 27, 430029)},
				Thread: 1, File: "clusterstate.go", Line: 1145, Message: "Found 2 instances",
				Prefix: LinePrefix{Raw: "2026-01-11 19:21:27.430", Time: time.Date(2026, 1, 11, 19, 21, 27, 430000000, time.UTC)},
			},
			wantOK: true,
		},
		{
			name: "structured with escaped quotes and a map",
			line: `E0528 16:05:54.802914    2269 eviction_manager.go:620] "Eviction manager: pod failed to evict" err="timeout waiting for \"app\"" pod="sre/a" stats=map[x:1 y:2]`,
			want: KlogLine{
				Severity: "E", Time: LogTime{Month: time.May, Day: 28, Clock: clock(16, 5, 54, 802914)},
				Thread: 2269, File: "eviction_manager.go", Line: 620,
				Message: "Eviction manager: pod failed to evict", Structured: true,
				Values: []KeyValue{{"err", `timeout waiting for "app"`}, {"pod", "sre/a"}, {"stats", "map[x:1 y:2]"}},
			},
			wantOK: true,
		},
		{
			name: "structured cut inside a list",
			line: `I0528 16:05:50.514706 2269 eviction_manager.go:405] "Eviction manager: pods ranked for eviction" pods=["sre/a","sre/b`,
			want: KlogLine{
				Severity: "I", Time: LogTime{Month: time.May, Day: 28, Clock: clock(16, 5, 50, 514706)},
				Thread: 2269, File: "eviction_manager.go", Line: 405,
				Message: "Eviction manager: pods ranked for eviction", Structured: true,
				Values: []KeyValue{{"pods", `["sre/a","sre/b`}}, Truncated: true,
			},
			wantOK: true,
		},
		{
			name: "structured cut inside the message",
			line: `I0528 16:05:50.514706 2269 eviction_manager.go:405] "Eviction manager: pods ranked for evi`,
			want: KlogLine{
				Severity: "I", Time: LogTime{Month: time.May, Day: 28, Clock: clock(16, 5, 50, 514706)},
				Thread: 2269, File: "eviction_manager.go", Line: 405,
				Message: "Eviction manager: pods ranked for evi", Structured: true, Truncated: true,
			},
			wantOK: true,
		},
		{
			name: "glog without fraction after a line number",
			line: "46948 I0617 03:05:13 5478 eviction_manager.go:346] eviction manager: must evict pod(s) to reclaim imagefs",
			want: KlogLine{
				Severity: "I", Time: LogTime{Month: time.June, Day: 17, Clock: clock(3, 5, 13, 0)},
				Thread: 5478, File: "eviction_manager.go", Line: 346,
				Message: "eviction manager: must evict pod(s) to reclaim imagefs",
				Prefix:  LinePrefix{Raw: "46948"},
			},
			wantOK: true,
		},
		{name: "header cut", line: "May 28 16:05:54 host kubelet[1]: I0528 16:0"},
		{name: "invalid month", line: "I1327 10:00:00.000000 1 a.go:1] x"},
		{name: "header glued to a word", line: "xI0528 16:05:54.802914 1 a.go:1] x"},
		{name: "not klog", line: "Normal  Scheduled  default-scheduler  Successfully assigned"},
		{name: "empty", line: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseKlog(tt.line)
			if ok != tt.wantOK {
				t.Fatalf("ParseKlog(%q) ok = %v, want %v", tt.line, ok, tt.wantOK)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseKlog(%q) mismatch (-want +got):\n%s", tt.line, diff)
			}
		})
	}
}

func TestLogTime(t *testing.T) {
	lt := LogTime{Month: time.May, Day: 28, Clock: clock(16, 5, 50, 514706)}
	if _, ok := lt.Time(); ok {
		t.Errorf("Time() ok without a year")
	}
	want := time.Date(2025, 5, 28, 16, 5, 50, 514706000, time.UTC)
	if got := lt.In(2025); !got.Equal(want) {
		t.Errorf("In(2025) = %v, want %v", got, want)
	}
	lt.Year = 2025
	if got, ok := lt.Time(); !ok || !got.Equal(want) {
		t.Errorf("Time() = %v, %v; want %v, true", got, ok, want)
	}
	if !(LogTime{}).IsZero() || lt.IsZero() {
		t.Errorf("IsZero wrong")
	}
}

func TestParseKubeletLog(t *testing.T) {
	// ignore drops the klog line from the comparison except where a case checks it.
	ignoreLine := cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Line" }, cmp.Ignore())
	tests := []struct {
		name   string
		line   string
		want   KubeletLog
		wantOK bool
	}{
		{
			name: "structured ranked",
			line: `I0603 11:02:10.100200    5645 eviction_manager.go:410] "Eviction manager: pods ranked for eviction" pods=["shop/cart-7f9c-2kq","kube-system/coredns-5d78c9869d-h7x"]`,
			want: KubeletLog{Kind: KubeletRanked, Pods: []PodRef{
				{Namespace: "shop", Name: "cart-7f9c-2kq"}, {Namespace: "kube-system", Name: "coredns-5d78c9869d-h7x"},
			}},
			wantOK: true,
		},
		{
			name:   "structured ranked, older klog list without quotes",
			line:   `I0308 00:29:47.508884   24749 eviction_manager.go:367] "Eviction manager: pods ranked for eviction" pods=[kube-system/calico-node-9x, shop/db-0]`,
			want:   KubeletLog{Kind: KubeletRanked, Pods: []PodRef{{Namespace: "kube-system", Name: "calico-node-9x"}, {Namespace: "shop", Name: "db-0"}}},
			wantOK: true,
		},
		{
			name: "structured ranked cut in the list",
			line: `I0603 11:02:10.100200    5645 eviction_manager.go:410] "Eviction manager: pods ranked for eviction" pods=["shop/cart-7f9c-2kq","kube-sys`,
			want: KubeletLog{Kind: KubeletRanked, Pods: []PodRef{{Namespace: "shop", Name: "cart-7f9c-2kq"}}, Truncated: true},
			// "kube-sys" has no slash: it cannot be a pod and is dropped.
			wantOK: true,
		},
		{
			name: "old ranked with uids",
			line: "I0617 03:05:13.803169    5478 eviction_manager.go:364] eviction manager: pods ranked for eviction: web-7c9d_prod(0a1b2c3d-1111), node-exporter-q2_monitoring(5f8f-2222)",
			want: KubeletLog{Kind: KubeletRanked, Pods: []PodRef{
				{Namespace: "prod", Name: "web-7c9d", UID: "0a1b2c3d-1111"}, {Namespace: "monitoring", Name: "node-exporter-q2", UID: "5f8f-2222"},
			}},
			wantOK: true,
		},
		{
			name: "old ranked cut",
			line: "I0617 03:05:13.803169    5478 eviction_manager.go:364] eviction manager: pods ranked for eviction: web-7c9d_prod(0a1b2c3d-1111), nginx-proxy-no",
			want: KubeletLog{Kind: KubeletRanked, Pods: []PodRef{
				{Namespace: "prod", Name: "web-7c9d", UID: "0a1b2c3d-1111"},
			}, Truncated: true},
			wantOK: true,
		},
		{
			name:   "old reclaim nodefs (glog warning)",
			line:   "W1102 09:40:01.000100    2301 eviction_manager.go:332] eviction manager: attempting to reclaim nodefs",
			want:   KubeletLog{Kind: KubeletReclaim, Resource: "ephemeral-storage", ResourceAsWritten: "nodefs"},
			wantOK: true,
		},
		{
			name:   "old reclaim inodes of imagefs",
			line:   "W1102 09:40:01.000100    2301 eviction_manager.go:332] eviction manager: attempting to reclaim imagefsInodes",
			want:   KubeletLog{Kind: KubeletReclaim, Resource: "inodes", ResourceAsWritten: "imagefsInodes"},
			wantOK: true,
		},
		{
			name:   "structured reclaim",
			line:   `I0903 10:07:19.008233    1187 eviction_manager.go:366] "Eviction manager: attempting to reclaim" resourceName="ephemeral-storage"`,
			want:   KubeletLog{Kind: KubeletReclaim, Resource: "ephemeral-storage", ResourceAsWritten: "ephemeral-storage"},
			wantOK: true,
		},
		{
			name:   "old must evict imagefs",
			line:   "I0617 03:05:13.803095    5478 eviction_manager.go:346] eviction manager: must evict pod(s) to reclaim imagefs",
			want:   KubeletLog{Kind: KubeletMustEvict, Resource: "ephemeral-storage", ResourceAsWritten: "imagefs"},
			wantOK: true,
		},
		{
			name:   "structured must evict memory",
			line:   `I0903 10:07:19.008233    1187 eviction_manager.go:392] "Eviction manager: must evict pod(s) to reclaim" resourceName="memory"`,
			want:   KubeletLog{Kind: KubeletMustEvict, Resource: "memory", ResourceAsWritten: "memory"},
			wantOK: true,
		},
		{
			name:   "old able to reduce",
			line:   "I1102 09:40:05.1 2301 eviction_manager.go:340] eviction manager: able to reduce imagefs pressure without evicting pods.",
			want:   KubeletLog{Kind: KubeletReclaimed, Resource: "ephemeral-storage", ResourceAsWritten: "imagefs"},
			wantOK: true,
		},
		{
			name:   "structured able to reduce",
			line:   `I1102 09:40:05.100000 2301 eviction_manager.go:386] "Eviction manager: able to reduce resource pressure without evicting pods." resourceName="ephemeral-storage"`,
			want:   KubeletLog{Kind: KubeletReclaimed, Resource: "ephemeral-storage", ResourceAsWritten: "ephemeral-storage"},
			wantOK: true,
		},
		{
			name:   "1.8 evicted successfully",
			line:   "I0115 12:00:00.000000 900 eviction_manager.go:400] eviction manager: pod web-1_prod(1f2e) evicted successfully",
			want:   KubeletLog{Kind: KubeletEvicted, Pods: []PodRef{{Namespace: "prod", Name: "web-1", UID: "1f2e"}}},
			wantOK: true,
		},
		{
			name:   "1.1x is evicted successfully",
			line:   "I0115 12:00:00.000000 900 eviction_manager.go:578] eviction manager: pod web-1_prod(1f2e) is evicted successfully",
			want:   KubeletLog{Kind: KubeletEvicted, Pods: []PodRef{{Namespace: "prod", Name: "web-1", UID: "1f2e"}}},
			wantOK: true,
		},
		{
			name:   "structured evicted",
			line:   `I0115 12:00:00.000000 900 eviction_manager.go:627] "Eviction manager: pod is evicted successfully" pod="prod/web-1"`,
			want:   KubeletLog{Kind: KubeletEvicted, Pods: []PodRef{{Namespace: "prod", Name: "web-1"}}},
			wantOK: true,
		},
		{
			name:   "old failed to evict",
			line:   "I0115 12:00:00.000000 900 eviction_manager.go:560] eviction manager: pod web-1_prod(1f2e) failed to evict timeout waiting to kill pod",
			want:   KubeletLog{Kind: KubeletEvictFailed, Pods: []PodRef{{Namespace: "prod", Name: "web-1", UID: "1f2e"}}, Detail: "timeout waiting to kill pod"},
			wantOK: true,
		},
		{
			name:   "structured failed to evict",
			line:   `E0115 12:00:00.000000 900 eviction_manager.go:620] "Eviction manager: pod failed to evict" err="context deadline exceeded" pod="prod/web-1"`,
			want:   KubeletLog{Kind: KubeletEvictFailed, Pods: []PodRef{{Namespace: "prod", Name: "web-1"}}, Detail: "context deadline exceeded"},
			wantOK: true,
		},
		{
			name:   "structured critical pod",
			line:   `E0115 12:00:00.000000 900 eviction_manager.go:605] "Eviction manager: cannot evict a critical pod" pod="kube-system/kube-proxy-k2"`,
			want:   KubeletLog{Kind: KubeletEvictFailed, Pods: []PodRef{{Namespace: "kube-system", Name: "kube-proxy-k2"}}, Detail: "critical pod"},
			wantOK: true,
		},
		{
			name:   "unable to evict",
			line:   "I0115 12:00:00.000000 900 eviction_manager.go:411] eviction manager: unable to evict any pods from the node",
			want:   KubeletLog{Kind: KubeletUnableToEvict, Detail: "unable to evict any pods from the node"},
			wantOK: true,
		},
		{
			name:   "no pods active",
			line:   `E0115 12:00:00.000000 900 eviction_manager.go:398] "Eviction manager: eviction thresholds have been met, but no pods are active to evict"`,
			want:   KubeletLog{Kind: KubeletUnableToEvict, Detail: "eviction thresholds have been met, but no pods are active to evict"},
			wantOK: true,
		},
		{
			name: "old threshold observed",
			line: "I0115 12:00:00.000000 900 helpers.go:829] eviction manager: thresholds - ignoring grace period: threshold [signal=memory.available, quantity=100Mi] observed 97680Ki",
			want: KubeletLog{Kind: KubeletThreshold, Stage: "thresholds - ignoring grace period", Signal: "memory.available",
				Threshold: "100Mi", Observed: "97680Ki", Resource: "memory", ResourceAsWritten: "memory.available"},
			wantOK: true,
		},
		{
			name: "old threshold without observation",
			line: "I0115 12:00:00.000000 900 helpers.go:831] eviction manager: thresholds - reclaim not satisfied: threshold [signal=pid.available] had no observation",
			want: KubeletLog{Kind: KubeletThreshold, Stage: "thresholds - reclaim not satisfied", Signal: "pid.available",
				Resource: "pids", ResourceAsWritten: "pid.available"},
			wantOK: true,
		},
		{
			name: "structured threshold",
			line: `I0115 12:00:00.000000 900 helpers.go:960] "Eviction manager: threshold observed resource" log="thresholds - grace periods satisfied" signal="nodefs.inodesFree" resourceName="inodes" quantity="5%" available="412"`,
			want: KubeletLog{Kind: KubeletThreshold, Stage: "thresholds - grace periods satisfied", Signal: "nodefs.inodesFree",
				Threshold: "5%", Observed: "412", Resource: "inodes", ResourceAsWritten: "inodes"},
			wantOK: true,
		},
		{
			name:   "old node conditions",
			line:   "I0115 12:00:00.000000 900 eviction_manager.go:300] eviction manager: node conditions - observed: [DiskPressure]",
			want:   KubeletLog{Kind: KubeletNodeConditions, Conditions: []string{"DiskPressure"}},
			wantOK: true,
		},
		{
			name:   "structured node conditions",
			line:   `I0115 12:00:00.000000 900 eviction_manager.go:311] "Eviction manager: node conditions - observed" nodeCondition=[MemoryPressure DiskPressure]`,
			want:   KubeletLog{Kind: KubeletNodeConditions, Conditions: []string{"MemoryPressure", "DiskPressure"}},
			wantOK: true,
		},
		{
			name: "old reclaim error",
			line: "E0115 12:00:00.000000 900 eviction_manager.go:420] eviction manager: unexpected error when attempting to reduce nodefs pressure: wanted to free 9223372036854775807 bytes, but freed 0 bytes",
			want: KubeletLog{Kind: KubeletReclaimError, Resource: "ephemeral-storage", ResourceAsWritten: "nodefs",
				Detail: "wanted to free 9223372036854775807 bytes, but freed 0 bytes"},
			wantOK: true,
		},
		{
			name: "structured reclaim error",
			line: `I0115 12:00:00.000000 900 eviction_manager.go:456] "Eviction manager: unexpected error when attempting to reduce resource pressure" resourceName="ephemeral-storage" err="failed to garbage collect required amount of images"`,
			want: KubeletLog{Kind: KubeletReclaimError, Resource: "ephemeral-storage", ResourceAsWritten: "ephemeral-storage",
				Detail: "failed to garbage collect required amount of images"},
			wantOK: true,
		},
		{
			name:   "structured other with pods",
			line:   `I0115 12:00:00.000000 900 eviction_manager.go:200] "Eviction manager: pods evicted, waiting for pod to be cleaned up" pods=["prod/web-1"]`,
			want:   KubeletLog{Kind: KubeletEvictionOther, Pods: []PodRef{{Namespace: "prod", Name: "web-1"}}},
			wantOK: true,
		},
		{
			name:   "structured admission refused",
			line:   `I0115 12:00:00.000000 900 eviction_manager.go:180] "Failed to admit pod to node" pod="prod/web-2" nodeCondition=[DiskPressure]`,
			want:   KubeletLog{Kind: KubeletAdmitRejected, Pods: []PodRef{{Namespace: "prod", Name: "web-2"}}, Conditions: []string{"DiskPressure"}},
			wantOK: true,
		},
		{
			name:   "old admission refused",
			line:   "W0115 12:00:00.000000 900 eviction_manager.go:150] Failed to admit pod web-2_prod(77aa) - node has conditions: [DiskPressure]",
			want:   KubeletLog{Kind: KubeletAdmitRejected, Pods: []PodRef{{Namespace: "prod", Name: "web-2", UID: "77aa"}}, Conditions: []string{"DiskPressure"}},
			wantOK: true,
		},
		{
			name:   "structured node status event",
			line:   `Jun 03 15:36:24 node02 kubelet[5645]: I0603 15:36:24.878735    5645 kubelet_node_status.go:687] "Recording event message for node" node="node02" event="NodeHasDiskPressure"`,
			want:   KubeletLog{Kind: KubeletNodeStatus, Node: "node02", Event: "NodeHasDiskPressure"},
			wantOK: true,
		},
		{
			name:   "old node status event",
			line:   "I0603 15:36:24.878735    5645 kubelet_node_status.go:443] Recording NodeHasInsufficientMemory event message for node node02",
			want:   KubeletLog{Kind: KubeletNodeStatus, Node: "node02", Event: "NodeHasInsufficientMemory"},
			wantOK: true,
		},
		{
			name: "controller node event is not a node status",
			line: `I0405 07:42:07.749250 11 controller_utils.go:173] "Recording event message for node" event="Removing Node n1 from Controller" node="n1"`,
		},
		{
			name:   "bare message",
			line:   "eviction manager: must evict pod(s) to reclaim memory",
			want:   KubeletLog{Kind: KubeletMustEvict, Resource: "memory", ResourceAsWritten: "memory"},
			wantOK: true,
		},
		{name: "other kubelet line", line: `I0603 15:36:24.878735 5645 kubelet.go:2400] "SyncLoop (PLEG): event for pod" pod="prod/web-1"`},
		{name: "empty", line: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseKubeletLog(tt.line)
			if ok != tt.wantOK {
				t.Fatalf("ParseKubeletLog(%q) ok = %v, want %v", tt.line, ok, tt.wantOK)
			}
			if diff := cmp.Diff(tt.want, got, ignoreLine); diff != "" {
				t.Errorf("ParseKubeletLog(%q) mismatch (-want +got):\n%s", tt.line, diff)
			}
		})
	}
}

// TestParseKubeletLogLine checks what ingest reads from the line itself: the journald host
// and the time, which carries no year unless a prefix gives one.
func TestParseKubeletLogLine(t *testing.T) {
	k, ok := ParseKubeletLog(`May 28 16:05:54 192-168-250-5 kubelet[2269385]: I0528 16:05:54.802914 2269385 eviction_manager.go:627] "Eviction manager: pod is evicted successfully" pod="sre/infras-logstash-d484d57fc-rkx95"`)
	if !ok {
		t.Fatal("not ok")
	}
	if k.Line.Prefix.Host != "192-168-250-5" {
		t.Errorf("host = %q", k.Line.Prefix.Host)
	}
	wantTime := LogTime{Month: time.May, Day: 28, Clock: clock(16, 5, 54, 802914)}
	if diff := cmp.Diff(wantTime, k.Line.Time); diff != "" {
		t.Errorf("time mismatch (-want +got):\n%s", diff)
	}
	if k.Line.Time.HasYear() {
		t.Errorf("journald short prefix gave a year")
	}
}

func TestEvictionResource(t *testing.T) {
	for in, want := range map[string]string{
		"memory": "memory", "allocatableMemory.available": "memory", "nodefs": "ephemeral-storage",
		"imagefs.available": "ephemeral-storage", "containerfs.available": "ephemeral-storage",
		"nodefsInodes": "inodes", "imagefs.inodesFree": "inodes", "pid.available": "pids",
		"pids": "pids", "cpu": "cpu", "": "",
	} {
		if got := EvictionResource(in); got != want {
			t.Errorf("EvictionResource(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzParseKlog(f *testing.F) {
	for _, s := range []string{
		"I0312 08:14:02.552190       1 scale_up.go:300] Upcoming 2 nodes",
		`Mar 12 08:14:02 h kubelet[1843]: I0312 08:14:02.552190    1843 eviction_manager.go:367] "Eviction manager: pods ranked for eviction" pods=["web/a","b/c"]`,
		`[pod/x/y] 2025-03-01T10:00:00.5+01:00 I0301 09:00:00.400000 1 a.go:1] "m" k=map[a:[1 2] b:<nil>] e="x\"`,
		"I0617 03:05:13 5478 eviction_manager.go:364] eviction manager: pods ranked for eviction: a_b(c), d_e(",
		"> W1102 09:40:01.000100    2301 eviction_manager.go:332] eviction manager: attempting to reclaim nodefs",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		l, ok := ParseKlog(line)
		if !ok {
			if diff := cmp.Diff(KlogLine{}, l); diff != "" {
				t.Fatalf("not ok but non-zero result:\n%s", diff)
			}
		} else {
			if l.Time.Month < 1 || l.Time.Month > 12 || l.Time.Clock < 0 || l.Time.Clock >= 25*time.Hour {
				t.Errorf("bad time %+v", l.Time)
			}
			if len(l.Severity) != 1 || l.File == "" {
				t.Errorf("bad header %+v", l)
			}
		}
		k, ok := ParseKubeletLog(line)
		if !ok {
			return
		}
		if k.Kind == "" {
			t.Errorf("ok without a kind")
		}
		for _, p := range k.Pods {
			if p.Namespace == "" || p.Name == "" {
				t.Errorf("pod without namespace or name: %+v", p)
			}
		}
	})
}
