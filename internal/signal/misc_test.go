package signal

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParsePreempted(t *testing.T) {
	tests := []struct {
		name   string
		msg    string
		want   Preemption
		wantOK bool
	}{
		{
			name:   "by namespace/name",
			msg:    "Preempted by kube-system/critical-pod on node node-1",
			want:   Preemption{ByNamespace: "kube-system", ByName: "critical-pod", Node: "node-1"},
			wantOK: true,
		},
		{
			name:   "by uid",
			msg:    "Preempted by pod 6b1a4c2e-0f3d-4e8a-9b7c-1d2e3f4a5b6c on node node-1",
			want:   Preemption{ByUID: "6b1a4c2e-0f3d-4e8a-9b7c-1d2e3f4a5b6c", Node: "node-1"},
			wantOK: true,
		},
		{name: "cut", msg: "Preempted by pod 6b1a4c2e on no"},
		{name: "unrelated", msg: "Stopping container app"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParsePreempted(tt.msg)
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tt.wantOK)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseSystemOOM(t *testing.T) {
	tests := []struct {
		name       string
		msg        string
		wantVictim string
		wantPID    int
		wantOK     bool
	}{
		{name: "victim", msg: "System OOM encountered, victim process: java, pid: 41234", wantVictim: "java", wantPID: 41234, wantOK: true},
		{name: "comm with comma", msg: "System OOM encountered, victim process: a, b, pid: 7", wantVictim: "a, b", wantPID: 7, wantOK: true},
		{name: "old bare form", msg: "System OOM encountered", wantOK: true},
		{name: "pid overflow", msg: "System OOM encountered, victim process: x, pid: 99999999999999999999"},
		{name: "unrelated", msg: "OOMKilling"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			victim, pid, ok := ParseSystemOOM(tt.msg)
			if victim != tt.wantVictim || pid != tt.wantPID || ok != tt.wantOK {
				t.Errorf("ParseSystemOOM(%q) = %q, %d, %v; want %q, %d, %v",
					tt.msg, victim, pid, ok, tt.wantVictim, tt.wantPID, tt.wantOK)
			}
		})
	}
}

func TestParseNodeStatus(t *testing.T) {
	tests := []struct {
		msg        string
		wantNode   string
		wantReason string
		wantOK     bool
	}{
		{msg: "Node aks-nodepool1-1234-vmss000000 status is now: NodeHasInsufficientMemory", wantNode: "aks-nodepool1-1234-vmss000000", wantReason: "NodeHasInsufficientMemory", wantOK: true},
		{msg: "Node 10.0.10.132 status is now: NodeHasDiskPressure", wantNode: "10.0.10.132", wantReason: "NodeHasDiskPressure", wantOK: true},
		{msg: "Node n1 status is now: NodeNotReady", wantNode: "n1", wantReason: "NodeNotReady", wantOK: true},
		{msg: "Node is not ready"},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			node, reason, ok := ParseNodeStatus(tt.msg)
			if node != tt.wantNode || reason != tt.wantReason || ok != tt.wantOK {
				t.Errorf("got %q, %q, %v; want %q, %q, %v", node, reason, ok, tt.wantNode, tt.wantReason, tt.wantOK)
			}
		})
	}
}

func TestParseTaintEviction(t *testing.T) {
	tests := []struct {
		msg      string
		wantNS   string
		wantName string
		wantOK   bool
	}{
		{msg: "Marking for deletion Pod kube-system/coredns-5dd5756b68-2zrhr", wantNS: "kube-system", wantName: "coredns-5dd5756b68-2zrhr", wantOK: true},
		{msg: "Cancelling deletion of Pod kube-system/coredns-5dd5756b68-2zrhr"},
		{msg: "Marking for deletion Pod coredns"},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			ns, name, ok := ParseTaintEviction(tt.msg)
			if ns != tt.wantNS || name != tt.wantName || ok != tt.wantOK {
				t.Errorf("got %q, %q, %v; want %q, %q, %v", ns, name, ok, tt.wantNS, tt.wantName, tt.wantOK)
			}
		})
	}
}

func TestStripCombined(t *testing.T) {
	tests := []struct {
		msg          string
		want         string
		wantCombined bool
	}{
		{msg: "(combined from similar events): Liveness probe failed: x", want: "Liveness probe failed: x", wantCombined: true},
		{msg: "Liveness probe failed: x", want: "Liveness probe failed: x"},
		{msg: "", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			got, combined := StripCombined(tt.msg)
			if got != tt.want || combined != tt.wantCombined {
				t.Errorf("got %q, %v; want %q, %v", got, combined, tt.want, tt.wantCombined)
			}
		})
	}
}
