package signal

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseTriggeredScaleUp(t *testing.T) {
	tests := []struct {
		name   string
		msg    string
		want   []GroupResize
		wantOK bool
	}{
		{
			name:   "URL group id (corpus 21)",
			msg:    "pod triggered scale-up: [{ibm://acc///cluster1/nodegroup1 1->2 (max: 8)}]",
			want:   []GroupResize{{Group: "ibm://acc///cluster1/nodegroup1", From: 1, To: 2, Max: 8}},
			wantOK: true,
		},
		{
			name: "several groups",
			msg:  "pod triggered scale-up: [{https://www.googleapis.com/compute/v1/projects/p/zones/us-central1-a/instanceGroups/gke-pool-1-grp 2->3 (max: 7)} {aks-gpunp-98036146-vmss 1->2 (max: 2)}]",
			want: []GroupResize{
				{Group: "https://www.googleapis.com/compute/v1/projects/p/zones/us-central1-a/instanceGroups/gke-pool-1-grp", From: 2, To: 3, Max: 7},
				{Group: "aks-gpunp-98036146-vmss", From: 1, To: 2, Max: 2},
			},
			wantOK: true,
		},
		{
			name:   "truncated second group",
			msg:    "pod triggered scale-up: [{a 1->2 (max: 3)} {b 4-",
			want:   []GroupResize{{Group: "a", From: 1, To: 2, Max: 3}},
			wantOK: true,
		},
		{
			name:   "quoted by Kubeflow's notebook controller",
			msg:    "Reissued from pod/gpu1-0: pod triggered scale-up: [{gke-kf-nap-n1-standard-1-grp 0->1 (max: 1000)}]",
			want:   []GroupResize{{Group: "gke-kf-nap-n1-standard-1-grp", From: 0, To: 1, Max: 1000}},
			wantOK: true,
		},
		{
			name:   "0.x-1.1 form",
			msg:    "pod triggered scale-up, group: nodes.example.com, sizes (current/new): 2/3",
			want:   []GroupResize{{Group: "nodes.example.com", From: 2, To: 3}},
			wantOK: true,
		},
		{name: "inside a word", msg: "xpod triggered scale-up: [{a 1->2 (max: 3)}]"},
		{name: "empty list", msg: "pod triggered scale-up: []", wantOK: true},
		{name: "unrelated", msg: "pod didn't trigger scale-up: 1 max node group size reached"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseTriggeredScaleUp(tt.msg)
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tt.wantOK)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseScaledUpGroup(t *testing.T) {
	tests := []struct {
		name   string
		msg    string
		want   GroupResize
		wantOK bool
	}{
		{
			name:   "current form",
			msg:    "Scale-up: setting group ibm://acc///cluster1/nodegroup1 size to 2 instead of 1 (max: 8)",
			want:   GroupResize{Group: "ibm://acc///cluster1/nodegroup1", From: 1, To: 2, Max: 8},
			wantOK: true,
		},
		{
			name:   "older form without current size",
			msg:    "Scale-up: setting group aks-nodepool1-vmss size to 3",
			want:   GroupResize{Group: "aks-nodepool1-vmss", To: 3},
			wantOK: true,
		},
		{name: "cut", msg: "Scale-up: setting group a size to"},
		{name: "unrelated", msg: "Scale-down: removing empty node n1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseScaledUpGroup(tt.msg)
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tt.wantOK)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseNotTriggerScaleUp(t *testing.T) {
	tests := []struct {
		name     string
		msg      string
		want     []ReasonCount
		maxTotal bool
		wantOK   bool
	}{
		{
			name:   "current form, map order",
			msg:    "pod didn't trigger scale-up: 2 Insufficient cpu, 1 max node group size reached",
			want:   []ReasonCount{{1, "max node group size reached"}, {2, "Insufficient cpu"}},
			wantOK: true,
		},
		{
			name: "reasons with inner commas",
			msg:  "pod didn't trigger scale-up: 1 node(s) had taint {a: b}, that the pod didn't tolerate, 3 max cluster cpu, memory limit reached",
			want: []ReasonCount{
				{1, "node(s) had taint {a: b}, that the pod didn't tolerate"},
				{3, "max cluster cpu, memory limit reached"},
			},
			wantOK: true,
		},
		{
			name:   "older form",
			msg:    "pod didn't trigger scale-up (it wouldn't fit if a new node is added): 1 Insufficient memory",
			want:   []ReasonCount{{1, "Insufficient memory"}},
			wantOK: true,
		},
		{name: "older form, no reasons", msg: "pod didn't trigger scale-up (it wouldn't fit if a new node is added)", wantOK: true},
		{name: "empty reasons", msg: "pod didn't trigger scale-up:", wantOK: true},
		{name: "max total", msg: "pod didn't trigger scale-up: max total nodes in cluster reached", maxTotal: true, wantOK: true},
		{name: "unrelated", msg: "pod triggered scale-up: [{a 1->2 (max: 3)}]"},
	}
	byReason := func(rs []ReasonCount) []ReasonCount {
		out := append([]ReasonCount(nil), rs...)
		sort.Slice(out, func(i, j int) bool { return out[i].Reason < out[j].Reason })
		return out
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, maxTotal, ok := ParseNotTriggerScaleUp(tt.msg)
			if ok != tt.wantOK || maxTotal != tt.maxTotal {
				t.Fatalf("ok, maxTotal = %v, %v; want %v, %v", ok, maxTotal, tt.wantOK, tt.maxTotal)
			}
			if diff := cmp.Diff(byReason(tt.want), byReason(got)); diff != "" {
				t.Errorf("reasons mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzParseScaleUp(f *testing.F) {
	for _, s := range []string{
		"pod triggered scale-up: [{ibm://acc///cluster1/nodegroup1 1->2 (max: 8)}]",
		"Scale-up: setting group g size to 2 instead of 1 (max: 8)",
		"pod didn't trigger scale-up: 2 Insufficient cpu, 1 max node group size reached",
		"pod didn't trigger scale-up: max total nodes in cluster reached",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		groups, _ := ParseTriggeredScaleUp(msg)
		g, ok := ParseScaledUpGroup(msg)
		if ok {
			groups = append(groups, g)
		}
		for _, g := range groups {
			if g.Group == "" || g.From < 0 || g.To < 0 || g.Max < 0 {
				t.Errorf("bad resize %+v", g)
			}
		}
		reasons, maxTotal, ok := ParseNotTriggerScaleUp(msg)
		if !ok && (maxTotal || reasons != nil) {
			t.Errorf("not ok but result set")
		}
		for _, r := range reasons {
			if r.Count < 0 || r.Reason == "" {
				t.Errorf("bad reason %+v", r)
			}
		}
	})
}
