package signal

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseEviction(t *testing.T) {
	tests := []struct {
		name   string
		msg    string
		want   Eviction
		wantOK bool
	}{
		{
			name: "new container form with threshold (corpus 27)",
			msg:  "The node was low on resource: ephemeral-storage. Threshold quantity: 1Gi, available: 898240Ki. Container discovery was using 4Ki, request is 0, has larger consumption of ephemeral-storage. ",
			want: Eviction{
				Resource: "ephemeral-storage", Threshold: "1Gi", Available: "898240Ki",
				Offenders: []ContainerUsage{{Name: "discovery", Usage: "4Ki", Request: "0", Resource: "ephemeral-storage"}},
			},
			wantOK: true,
		},
		{
			name: "old container form (corpus 01)",
			msg:  "The node was low on resource: memory. Container minecraft was using 1924152Ki, which exceeds its request of 0.",
			want: Eviction{
				Resource:  "memory",
				Offenders: []ContainerUsage{{Name: "minecraft", Usage: "1924152Ki", Request: "0"}},
			},
			wantOK: true,
		},
		{
			name: "old container form with request and trailing space (corpus 23)",
			msg:  "The node was low on resource: memory. Container proprietary-crawler was using 9402820Ki, which exceeds its request of 7G. ",
			want: Eviction{
				Resource:  "memory",
				Offenders: []ContainerUsage{{Name: "proprietary-crawler", Usage: "9402820Ki", Request: "7G"}},
			},
			wantOK: true,
		},
		{
			name: "several containers, plain byte quantities",
			msg:  "The node was low on resource: memory. Threshold quantity: 100Mi, available: 97680Ki. Container a was using 1900004Ki, request is 1Gi, has larger consumption of memory. Container b was using 471859200, request is 0, has larger consumption of memory. ",
			want: Eviction{
				Resource: "memory", Threshold: "100Mi", Available: "97680Ki",
				Offenders: []ContainerUsage{
					{Name: "a", Usage: "1900004Ki", Request: "1Gi", Resource: "memory"},
					{Name: "b", Usage: "471859200", Request: "0", Resource: "memory"},
				},
			},
			wantOK: true,
		},
		{
			name: "pod-level resources",
			msg:  "The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. Pod web-0 was using 2Gi, request is 1Gi, has larger consumption of memory. ",
			want: Eviction{
				Resource: "memory", Threshold: "100Mi", Available: "50Mi",
				Offenders: []ContainerUsage{{Name: "web-0", Pod: true, Usage: "2Gi", Request: "1Gi", Resource: "memory"}},
			},
			wantOK: true,
		},
		{
			name:   "pids",
			msg:    "The node was low on resource: pids. Threshold quantity: 100, available: 42. ",
			want:   Eviction{Resource: "pids", Threshold: "100", Available: "42"},
			wantOK: true,
		},
		{
			name:   "old bracket form with Pod prefix (corpus 04)",
			msg:    "Pod The node was low on resource: [DiskPressure]. ",
			want:   Eviction{Condition: "DiskPressure"},
			wantOK: true,
		},
		{
			name:   "old bracket form in a person's sentence",
			msg:    "Pod The node was low on resource: [DiskPressure], when loading my workspace. It won't load.",
			want:   Eviction{Condition: "DiskPressure", Unparsed: "when loading my workspace. It won't load.", Truncated: false},
			wantOK: true,
		},
		{
			name:   "old bracket form without prefix",
			msg:    "The node was low on resource: [DiskPressure]. ",
			want:   Eviction{Condition: "DiskPressure"},
			wantOK: true,
		},
		{
			name:   "node condition",
			msg:    "The node had condition: [MemoryPressure]. ",
			want:   Eviction{Condition: "MemoryPressure"},
			wantOK: true,
		},
		{
			name:   "container ephemeral storage limit",
			msg:    `Container app exceeded its local ephemeral storage limit "1Gi". `,
			want:   Eviction{Limit: &LimitEviction{Kind: LimitContainerEphemeralStorage, Container: "app", Limit: "1Gi"}},
			wantOK: true,
		},
		{
			name:   "pod ephemeral storage total limit",
			msg:    "Pod ephemeral local storage usage exceeds the total limit of containers 2Gi. ",
			want:   Eviction{Limit: &LimitEviction{Kind: LimitPodEphemeralStorage, Limit: "2Gi"}},
			wantOK: true,
		},
		{
			name:   "emptyDir limit",
			msg:    `Usage of EmptyDir volume "cache" exceeds the limit "512Mi". `,
			want:   Eviction{Limit: &LimitEviction{Kind: LimitEmptyDir, Volume: "cache", Limit: "512Mi"}},
			wantOK: true,
		},
		{
			name: "missing final period",
			msg:  "The node was low on resource: memory. Container memory-bomb-container was using 23313696Ki, which exceeds its request of 0",
			want: Eviction{
				Resource:  "memory",
				Offenders: []ContainerUsage{{Name: "memory-bomb-container", Usage: "23313696Ki", Request: "0"}},
			},
			wantOK: true,
		},
		{
			name: "truncated mid-offender keeps what is certain",
			msg:  "The node was low on resource: ephemeral-storage. Threshold quantity: 1Gi, available: 898240Ki. Container discovery was using 4Ki, request is 0, has",
			want: Eviction{
				Resource: "ephemeral-storage", Threshold: "1Gi", Available: "898240Ki",
				Offenders: []ContainerUsage{{Name: "discovery", Usage: "4Ki", Request: "0"}},
				Unparsed:  "Container discovery was using 4Ki, request is 0, has",
				Truncated: true,
			},
			wantOK: true,
		},
		{
			name: "truncated inside the usage",
			msg:  "The node was low on resource: memory. Container app was using 19",
			want: Eviction{
				Resource: "memory", Unparsed: "Container app was using 19", Truncated: true,
			},
			wantOK: true,
		},
		{
			name: "combined prefix",
			msg:  CombinedPrefix + "The node was low on resource: memory. ",
			want: Eviction{Resource: "memory"}, wantOK: true,
		},
		{name: "cut inside the leading sentence", msg: "The node was low on reso"},
		{name: "offender without leading sentence", msg: "Container a was using 1Gi, request is 0, has larger consumption of memory. "},
		{name: "unrelated", msg: "Preempted by pod 1234 on node n1"},
		{name: "empty", msg: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseEviction(tt.msg)
			if ok != tt.wantOK {
				t.Fatalf("ParseEviction(%q) ok = %v, want %v", tt.msg, ok, tt.wantOK)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseEviction(%q) mismatch (-want +got):\n%s", tt.msg, diff)
			}
		})
	}
}

func TestEvictionFromAnnotations(t *testing.T) {
	tests := []struct {
		name   string
		ann    map[string]string
		want   Eviction
		wantOK bool
	}{
		{
			name: "containers",
			ann: map[string]string{
				"offending_containers":       "app,sidecar",
				"offending_containers_usage": "1900004Ki,471859200",
				"starved_resource":           "memory",
			},
			want: Eviction{Resource: "memory", Offenders: []ContainerUsage{
				{Name: "app", Usage: "1900004Ki", Resource: "memory"},
				{Name: "sidecar", Usage: "471859200", Resource: "memory"},
			}},
			wantOK: true,
		},
		{
			name: "pod level",
			ann: map[string]string{
				"offending_containers": "", "offending_containers_usage": "",
				"starved_resource": "memory", "offending_pod": "web-0", "offending_pod_usage": "2Gi",
			},
			want:   Eviction{Resource: "memory", Offenders: []ContainerUsage{{Name: "web-0", Pod: true, Usage: "2Gi", Resource: "memory"}}},
			wantOK: true,
		},
		{
			name: "resource per container and missing usage",
			ann: map[string]string{
				"offending_containers": "a, b", "offending_containers_usage": "1Gi",
				"starved_resource": "memory,ephemeral-storage",
			},
			want: Eviction{Resource: "memory", Offenders: []ContainerUsage{
				{Name: "a", Usage: "1Gi", Resource: "memory"},
				{Name: "b", Resource: "ephemeral-storage"},
			}},
			wantOK: true,
		},
		{
			name:   "no offenders",
			ann:    map[string]string{"starved_resource": "ephemeral-storage", "offending_containers": ""},
			want:   Eviction{Resource: "ephemeral-storage"},
			wantOK: true,
		},
		{name: "unrelated annotations", ann: map[string]string{"a": "b"}},
		{name: "nil", ann: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := EvictionFromAnnotations(tt.ann)
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tt.wantOK)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzParseEviction(f *testing.F) {
	for _, s := range []string{
		"The node was low on resource: ephemeral-storage. Threshold quantity: 1Gi, available: 898240Ki. Container discovery was using 4Ki, request is 0, has larger consumption of ephemeral-storage. ",
		"The node was low on resource: memory. Container minecraft was using 1924152Ki, which exceeds its request of 0.",
		"Pod The node was low on resource: [DiskPressure]. ",
		`Usage of EmptyDir volume "cache" exceeds the limit "512Mi". `,
		"The node was low on resource: memory. Pod p was using 2Gi, request is 1Gi, has",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		ev, ok := ParseEviction(msg)
		if !ok {
			if diff := cmp.Diff(Eviction{}, ev); diff != "" {
				t.Fatalf("not ok but non-zero result:\n%s", diff)
			}
			return
		}
		for _, o := range ev.Offenders {
			if o.Name == "" || o.Usage == "" {
				t.Errorf("offender without name or usage: %+v", o)
			}
		}
		if ev.Limit != nil && ev.Limit.Kind == "" {
			t.Errorf("limit without kind: %+v", ev.Limit)
		}
		if ev.Truncated && ev.Unparsed == "" {
			t.Errorf("truncated without unparsed text")
		}
	})
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
