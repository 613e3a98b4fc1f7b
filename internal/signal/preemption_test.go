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
