package signal

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// il0070 is the FailedScheduling message of incident IL-0070.
const il0070 = "0/126 nodes are available: 14 node(s) didn't match Pod's node affinity/selector, 23 Insufficient cpu, 24 Insufficient memory, 6 node(s) had untolerated taint {node.kubernetes.io/network-unavailable: }, 9 node(s) had untolerated taint {hub.jupyter.org_dedicated: user}, 96 node(s) had untolerated taint {node.kubernetes.io/not-ready: }."

func TestParseFailedScheduling(t *testing.T) {
	tests := []struct {
		name   string
		msg    string
		want   Scheduling
		wantOK bool
	}{
		{
			name: "IL-0070",
			msg:  il0070,
			want: Scheduling{Available: 0, Total: 126, Reasons: []ReasonCount{
				{14, "node(s) didn't match Pod's node affinity/selector"},
				{23, "Insufficient cpu"},
				{24, "Insufficient memory"},
				{6, "node(s) had untolerated taint {node.kubernetes.io/network-unavailable: }"},
				{9, "node(s) had untolerated taint {hub.jupyter.org_dedicated: user}"},
				{96, "node(s) had untolerated taint {node.kubernetes.io/not-ready: }"},
			}},
			wantOK: true,
		},
		{
			name:   "1.1's FitError, one predicate and no count",
			msg:    "Failed for reason PodFitsResources and possibly others",
			want:   Scheduling{Reasons: []ReasonCount{{0, "PodFitsResources"}}},
			wantOK: true,
		},
		{
			name:   "1.0's FitError, its predicates listed",
			msg:    "For each of these fitness predicates, pod frontend failed on at least one node: PodFitsResources, PodFitsPorts.",
			want:   Scheduling{Reasons: []ReasonCount{{0, "PodFitsResources"}, {0, "PodFitsPorts"}}},
			wantOK: true,
		},
		{
			name: "diagnosis quoted without its count of nodes",
			msg:  "1 node(s) didn't have free ports for the requested pod ports, 1 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate.",
			want: Scheduling{Reasons: []ReasonCount{
				{1, "node(s) didn't have free ports for the requested pod ports"},
				{1, "node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate"},
			}},
			wantOK: true,
		},
		{
			name:   "headless diagnosis with its preemption",
			msg:    "3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
			want:   Scheduling{Reasons: []ReasonCount{{3, "Insufficient memory"}}, PostFilter: "preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.", Preemption: []ReasonCount{{3, "No preemption victims found for incoming pod"}}},
			wantOK: true,
		},
		{
			name: "a count of something else is no diagnosis",
			msg:  "3 nodes ran out of memory",
		},
		{
			name:   "2020 taint form with inner comma (corpus 01)",
			msg:    "0/1 nodes are available: 1 node(s) had taint {node.kubernetes.io/memory-pressure: }, that the pod didn't tolerate.",
			want:   Scheduling{Total: 1, Reasons: []ReasonCount{{1, "node(s) had taint {node.kubernetes.io/memory-pressure: }, that the pod didn't tolerate"}}},
			wantOK: true,
		},
		{
			name: "oldest taint form",
			msg:  "0/3 nodes are available: 1 node(s) had taints that the pod didn't tolerate, 2 Insufficient cpu.",
			want: Scheduling{Total: 3, Reasons: []ReasonCount{
				{1, "node(s) had taints that the pod didn't tolerate"}, {2, "Insufficient cpu"},
			}},
			wantOK: true,
		},
		{
			name: "untolerated taint(s) with Too many pods",
			msg:  "0/7 nodes are available: 2 Too many pods, 5 node(s) had untolerated taint(s).",
			want: Scheduling{Total: 7, Reasons: []ReasonCount{
				{2, "Too many pods"}, {5, "node(s) had untolerated taint(s)"},
			}},
			wantOK: true,
		},
		{
			name: "preemption with trailing .. (corpus 05)",
			msg:  "0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling..",
			want: Scheduling{
				Total:      1,
				Reasons:    []ReasonCount{{1, "node(s) had untolerated taint {node.kubernetes.io/not-ready: }"}},
				PostFilter: "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling..",
				Preemption: []ReasonCount{{1, "Preemption is not helpful for scheduling"}},
			},
			wantOK: true,
		},
		{
			name: "preemption with two items (corpus 21)",
			msg:  "0/6 nodes are available: 2 node(s) didn't match Pod's node affinity/selector, 4 Insufficient cpu. preemption: 0/6 nodes are available: 2 Preemption is not helpful for scheduling, 4 No preemption victims found for incoming pod.",
			want: Scheduling{
				Total:      6,
				Reasons:    []ReasonCount{{2, "node(s) didn't match Pod's node affinity/selector"}, {4, "Insufficient cpu"}},
				PostFilter: "preemption: 0/6 nodes are available: 2 Preemption is not helpful for scheduling, 4 No preemption victims found for incoming pod.",
				Preemption: []ReasonCount{{2, "Preemption is not helpful for scheduling"}, {4, "No preemption victims found for incoming pod"}},
			},
			wantOK: true,
		},
		{
			name: "DRA prefix before preemption",
			msg:  "0/3 nodes are available: 3 cannot allocate all claims. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
			want: Scheduling{
				Total:      3,
				Reasons:    []ReasonCount{{3, "cannot allocate all claims"}},
				PostFilter: "no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
				Preemption: []ReasonCount{{3, "Preemption is not helpful for scheduling"}},
			},
			wantOK: true,
		},
		{
			name: "PreFilter message",
			msg:  `0/3 nodes are available: persistentvolumeclaim "data-db-0" not found. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..`,
			want: Scheduling{
				Total:      3,
				PreFilter:  `persistentvolumeclaim "data-db-0" not found`,
				PostFilter: "preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..",
				Preemption: []ReasonCount{{3, "Preemption is not helpful for scheduling"}},
			},
			wantOK: true,
		},
		{
			name: "truncated inside the reasons drops the cut item",
			msg:  "0/126 nodes are available: 14 node(s) didn't match Pod's node affinity/selector, 23 Insufficient cpu, 9 node(s) had untolerated taint {hub.jupy ...",
			want: Scheduling{Total: 126, Truncated: true, Reasons: []ReasonCount{
				{14, "node(s) didn't match Pod's node affinity/selector"}, {23, "Insufficient cpu"},
			}},
			wantOK: true,
		},
		{
			name: "truncated inside preemption keeps the reasons",
			msg:  "0/6 nodes are available: 4 Insufficient cpu. preemption: 0/6 nodes are available: 2 Preemption is not helpful for scheduling, 4 No preemption vic ...",
			want: Scheduling{
				Total: 6, Truncated: true,
				Reasons:    []ReasonCount{{4, "Insufficient cpu"}},
				PostFilter: "preemption: 0/6 nodes are available: 2 Preemption is not helpful for scheduling, 4 No preemption vic",
				Preemption: []ReasonCount{{2, "Preemption is not helpful for scheduling"}},
			},
			wantOK: true,
		},
		{
			name:   "truncated right after a complete list",
			msg:    "0/2 nodes are available: 2 Insufficient cpu. ...",
			want:   Scheduling{Total: 2, Truncated: true, Reasons: []ReasonCount{{2, "Insufficient cpu"}}},
			wantOK: true,
		},
		{
			name:   "cut without marker inside a taint",
			msg:    "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {node.kub",
			want:   Scheduling{Total: 2, Truncated: true, Reasons: []ReasonCount{{1, "Insufficient cpu"}}},
			wantOK: true,
		},
		{
			name:   "old form, volume reason (corpus 35)",
			msg:    "0/1 nodes are available: 1 node(s) didn't find available persistent volumes to bind.",
			want:   Scheduling{Total: 1, Reasons: []ReasonCount{{1, "node(s) didn't find available persistent volumes to bind"}}},
			wantOK: true,
		},
		{
			name:   "old predicate count form (corpus 15)",
			msg:    "0/3 nodes are available: 3 Insufficient memory.",
			want:   Scheduling{Total: 3, Reasons: []ReasonCount{{3, "Insufficient memory"}}},
			wantOK: true,
		},
		{
			name:   "pre-1.11 predicates form",
			msg:    "No nodes are available that match all of the following predicates:: Insufficient cpu (2), MatchNodeSelector (1).",
			want:   Scheduling{Reasons: []ReasonCount{{2, "Insufficient cpu"}, {1, "MatchNodeSelector"}}},
			wantOK: true,
		},
		{
			name:   "pre-1.11 predicates form cut",
			msg:    "No nodes are available that match all of the following predicates:: Insufficient cpu (4), NoVolumeZon",
			want:   Scheduling{Truncated: true, Reasons: []ReasonCount{{4, "Insufficient cpu"}}},
			wantOK: true,
		},
		{
			name:   "1.2-era fit failure summary",
			msg:    "pod (web-1) failed to fit in any node\nfit failure summary on nodes : PodFitsResources (3), MatchNodeSelector (2)",
			want:   Scheduling{Reasons: []ReasonCount{{3, "PodFitsResources"}, {2, "MatchNodeSelector"}}},
			wantOK: true,
		},
		{
			name:   "no nodes in the cluster",
			msg:    "no nodes available to schedule pods",
			want:   Scheduling{PreFilter: "no nodes available to schedule pods"},
			wantOK: true,
		},
		{
			name:   "combined prefix",
			msg:    CombinedPrefix + "0/7 nodes are available: 7 Insufficient memory.",
			want:   Scheduling{Total: 7, Reasons: []ReasonCount{{7, "Insufficient memory"}}},
			wantOK: true,
		},
		{
			name:   "quoted by Kubeflow's notebook controller",
			msg:    "Reissued from pod/gpu1-0: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.",
			want:   Scheduling{Total: 2, Reasons: []ReasonCount{{2, "Insufficient nvidia.com/gpu"}}},
			wantOK: true,
		},
		{
			name:   "quoted after a condition's reason",
			msg:    "Unschedulable: No nodes are available that match all of the following predicates:: Insufficient memory (2).",
			want:   Scheduling{Reasons: []ReasonCount{{2, "Insufficient memory"}}},
			wantOK: true,
		},
		{name: "only a preemption part", msg: "something: preemption: 0/3 nodes are available: 3 No preemption victims found."},
		{name: "a count inside a word", msg: "build10/2 nodes are available: 2 Insufficient cpu."},
		{name: "cut header", msg: "0/126 nodes are avail"},
		{name: "count overflow", msg: "0/99999999999999999999999 nodes are available: 1 Insufficient cpu."},
		{name: "unrelated", msg: "Successfully assigned default/x to node-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseFailedScheduling(tt.msg)
			if ok != tt.wantOK {
				t.Fatalf("ParseFailedScheduling(%q) ok = %v, want %v", tt.msg, ok, tt.wantOK)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseFailedScheduling(%q) mismatch (-want +got):\n%s", tt.msg, diff)
			}
		})
	}
}

// TestParseFailedSchedulingNoteLimit cuts a long message the way the scheduler does, at
// NoteLengthLimit (1024) with a " ..." suffix.
func TestParseFailedSchedulingNoteLimit(t *testing.T) {
	var items []string
	for i := range 60 {
		items = append(items, "1 node(s) had untolerated taint {key1: node"+string(rune('a'+i%26))+"}")
	}
	full := "0/60 nodes are available: " + strings.Join(items, ", ") + "."
	msg := full[:1024-len(" ...")] + " ..."
	got, ok := ParseFailedScheduling(msg)
	if !ok || !got.Truncated {
		t.Fatalf("ok = %v, Truncated = %v, want both true", ok, got.Truncated)
	}
	for _, r := range got.Reasons {
		if _, ok := r.Taint(); !ok {
			t.Errorf("reason %q: Taint() not ok; a cut item was kept", r.Reason)
		}
	}
}

func FuzzParseFailedScheduling(f *testing.F) {
	for _, s := range []string{
		il0070,
		"0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling..",
		"No nodes are available that match all of the following predicates:: Insufficient cpu (2), MatchNodeSelector (1).",
		`0/3 nodes are available: persistentvolumeclaim "x" not found.`,
		"0/3 nodes are available: 1 node(s) had taint {a: b}, that the pod didn't tolerate, 2 Insufficient cpu ...",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		sc, ok := ParseFailedScheduling(msg)
		if !ok {
			return
		}
		if sc.Available < 0 || sc.Total < 0 {
			t.Errorf("negative node counts: %+v", sc)
		}
		if len(sc.Reasons) > 0 && sc.PreFilter != "" {
			t.Errorf("both Reasons and PreFilter set: %+v", sc)
		}
		for _, r := range append(sc.Reasons, sc.Preemption...) {
			if r.Count < 0 || r.Reason == "" {
				t.Errorf("bad item %+v", r)
			}
			if r.Class() == "" {
				t.Errorf("empty class for %q", r.Reason)
			}
			_ = r.Resource()
			if tn, ok := r.Taint(); ok && tn.Key == "" {
				t.Errorf("taint without key from %q", r.Reason)
			}
		}
	})
}
