package signal

import (
	"testing"
)

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
