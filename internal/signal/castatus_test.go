package signal

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// utc builds an expected time.
func utc(y int, mo time.Month, d, h, mi, s, ns int) time.Time {
	return time.Date(y, mo, d, h, mi, s, ns, time.UTC)
}

const textStatusWhole = `Cluster-autoscaler status at 2022-03-14 09:26:53.53 +0000 UTC:
Cluster-wide:
  Health:      Healthy (ready=5 unready=1 (resourceUnready=0) notStarted=2 longNotStarted=0 registered=8 longUnregistered=0)
               LastProbeTime:      2022-03-14 09:26:53.1 +0000 UTC m=+9.5
               LastTransitionTime: 2022-03-14 08:00:00 +0000 UTC m=+1.0
  ScaleUp:     InProgress (ready=5 registered=8)
               LastProbeTime:      2022-03-14 09:26:53.1 +0000 UTC m=+9.5
               LastTransitionTime: 2022-03-14 09:20:00 +0000 UTC m=+5.0
  ScaleDown:   NoCandidates (candidates=0)
               LastProbeTime:      2022-03-14 09:26:53.1 +0000 UTC m=+9.5
               LastTransitionTime: 0001-01-01 00:00:00 +0000 UTC

NodeGroups:
  Name:        pool-a-asg
  Health:      Healthy (ready=3 unready=0 notStarted=2 longNotStarted=0 registered=5 longUnregistered=0 cloudProviderTarget=6 (minSize=1, maxSize=6))
               LastProbeTime:      2022-03-14 09:26:53.1 +0000 UTC m=+9.5
               LastTransitionTime: 2022-03-14 08:00:00 +0000 UTC m=+1.0
  ScaleUp:     InProgress (ready=3 cloudProviderTarget=6)
               LastProbeTime:      2022-03-14 09:26:53.1 +0000 UTC m=+9.5
               LastTransitionTime: 2022-03-14 09:20:00 +0000 UTC m=+5.0
  ScaleDown:   NoCandidates (candidates=0)
               LastProbeTime:      2022-03-14 09:26:53.1 +0000 UTC m=+9.5
               LastTransitionTime: 2022-03-14 08:00:00 +0000 UTC m=+1.0

`

const yamlStatusWhole = `time: 2025-02-03 10:11:12.5 +0000 UTC
autoscalerStatus: Running
clusterWide:
  health:
    status: Healthy
    nodeCounts:
      registered:
        total: 9
        ready: 7
        notStarted: 1
        unready:
          total: 1
          resourceUnready: 1
      longUnregistered: 0
      unregistered: 2
    lastProbeTime: "2025-02-03T10:11:12Z"
    lastTransitionTime: "2025-02-03T09:00:00Z"
  scaleUp:
    status: InProgress
    lastProbeTime: "2025-02-03T10:11:12Z"
    lastTransitionTime: "2025-02-03T10:05:00Z"
  scaleDown:
    status: NoCandidates
    lastProbeTime: "2025-02-03T10:11:12Z"
    lastTransitionTime: "2025-02-03T09:00:00Z"
nodeGroups:
- name: gke-prod-pool-b-grp
  health:
    status: Healthy
    nodeCounts:
      registered:
        total: 4
        ready: 4
      longUnregistered: 0
      unregistered: 2
    cloudProviderTarget: 6
    minSize: 0
    maxSize: 6
    lastProbeTime: "2025-02-03T10:11:12Z"
    lastTransitionTime: "2025-02-03T09:00:00Z"
  scaleUp:
    status: Backoff
    backoffInfo:
      errorCode: QUOTA_EXCEEDED
      errorMessage: "Instance 'gke-prod-pool-b-x' creation failed: Quota 'CPUS' exceeded."
    lastProbeTime: "2025-02-03T10:11:12Z"
    lastTransitionTime: "2025-02-03T10:07:00Z"
  scaleDown:
    status: NoCandidates
    candidates: 0
    lastProbeTime: "2025-02-03T10:11:12Z"
    lastTransitionTime: "2025-02-03T09:00:00Z"
`

func TestParseAutoscalerStatus(t *testing.T) {
	probe := utc(2022, 3, 14, 9, 26, 53, 100000000)
	wholeText := AutoscalerStatus{
		Format: StatusText, Time: utc(2022, 3, 14, 9, 26, 53, 530000000),
		ClusterWide: &GroupStatus{
			Health: HealthStatus{Status: "Healthy", Ready: 5, Unready: 1, NotStarted: 2, Registered: 8,
				LastProbeTime: probe, LastTransitionTime: utc(2022, 3, 14, 8, 0, 0, 0)},
			ScaleUp: ScaleUpStatus{Status: "InProgress", Ready: 5, Registered: 8,
				LastProbeTime: probe, LastTransitionTime: utc(2022, 3, 14, 9, 20, 0, 0)},
			ScaleDown: ScaleDownStatus{Status: "NoCandidates", LastProbeTime: probe},
		},
		NodeGroups: []GroupStatus{{
			Name: "pool-a-asg",
			Health: HealthStatus{Status: "Healthy", Ready: 3, NotStarted: 2, Registered: 5,
				CloudProviderTarget: 6, MinSize: 1, MaxSize: 6, SizeKnown: true,
				LastProbeTime: probe, LastTransitionTime: utc(2022, 3, 14, 8, 0, 0, 0)},
			ScaleUp: ScaleUpStatus{Status: "InProgress", Ready: 3, CloudProviderTarget: 6,
				LastProbeTime: probe, LastTransitionTime: utc(2022, 3, 14, 9, 20, 0, 0)},
			ScaleDown: ScaleDownStatus{Status: "NoCandidates",
				LastProbeTime: probe, LastTransitionTime: utc(2022, 3, 14, 8, 0, 0, 0)},
		}},
	}
	yProbe := utc(2025, 2, 3, 10, 11, 12, 0)
	yTrans := utc(2025, 2, 3, 9, 0, 0, 0)
	wholeYAML := AutoscalerStatus{
		Format: StatusYAML, Time: utc(2025, 2, 3, 10, 11, 12, 500000000), State: "Running",
		ClusterWide: &GroupStatus{
			Health: HealthStatus{Status: "Healthy", Registered: 9, Ready: 7, NotStarted: 1, Unready: 1,
				ResourceUnready: 1, Unregistered: 2, LastProbeTime: yProbe, LastTransitionTime: yTrans},
			ScaleUp:   ScaleUpStatus{Status: "InProgress", LastProbeTime: yProbe, LastTransitionTime: utc(2025, 2, 3, 10, 5, 0, 0)},
			ScaleDown: ScaleDownStatus{Status: "NoCandidates", LastProbeTime: yProbe, LastTransitionTime: yTrans},
		},
		NodeGroups: []GroupStatus{{
			Name: "gke-prod-pool-b-grp",
			Health: HealthStatus{Status: "Healthy", Registered: 4, Ready: 4, Unregistered: 2,
				CloudProviderTarget: 6, MaxSize: 6, SizeKnown: true, LastProbeTime: yProbe, LastTransitionTime: yTrans},
			ScaleUp: ScaleUpStatus{Status: "Backoff", BackoffErrorCode: "QUOTA_EXCEEDED",
				BackoffErrorMessage: "Instance 'gke-prod-pool-b-x' creation failed: Quota 'CPUS' exceeded.",
				LastProbeTime:       yProbe, LastTransitionTime: utc(2025, 2, 3, 10, 7, 0, 0)},
			ScaleDown: ScaleDownStatus{Status: "NoCandidates", LastProbeTime: yProbe, LastTransitionTime: yTrans},
		}},
	}

	tests := []struct {
		name   string
		text   string
		want   AutoscalerStatus
		wantOK bool
	}{
		{name: "text, whole", text: textStatusWhole, want: wholeText, wantOK: true},
		{
			name: "text inside kubectl describe",
			text: "Name:         cluster-autoscaler-status\nNamespace:    kube-system\nLabels:       <none>\n" +
				"Annotations:  cluster-autoscaler.kubernetes.io/last-updated: 2022-03-14 09:26:53.53 +0000 UTC\n\nData\n====\nstatus:\n----\n" +
				textStatusWhole + "\nBinaryData\n====\n\nEvents:\n  Type    Reason          Age   From                Message\n" +
				"  Normal  ScaleDownEmpty  42m   cluster-autoscaler  Scale-down: removing empty node n1\n",
			want: wholeText, wantOK: true,
		},
		{
			name: "text inside kubectl get -o yaml",
			text: "apiVersion: v1\ndata:\n  status: |+\n" + indent(textStatusWhole, "    ") +
				"kind: ConfigMap\nmetadata:\n  name: cluster-autoscaler-status\n  namespace: kube-system\n",
			want: wholeText, wantOK: true,
		},
		{
			name: "text fragment, one group indented, next one cut after its name",
			text: `      Name:        eks-workers-a-NodeGroup-AU4D
      Health:      Healthy (ready=2 unready=0 notStarted=0 longNotStarted=0 registered=2 longUnregistered=0 cloudProviderTarget=8 (minSize=0, maxSize=8))
                   LastProbeTime:      2021-09-30 16:13:18.791229527 +0000 UTC m=+10531772.496293969
                   LastTransitionTime: 2021-09-30 15:46:22.863867587 +0000 UTC m=+10530156.568932028
      ScaleUp:     InProgress (ready=2 cloudProviderTarget=8)
                   LastProbeTime:      2021-09-30 16:13:18.791229527 +0000 UTC m=+10531772.496293969
                   LastTransitionTime: 2021-09-30 15:58:40.202629511 +0000 UTC m=+10530893.907693954
      ScaleDown:   NoCandidates (candidates=0)
                   LastProbeTime:      2021-09-30 16:13:18.791229527 +0000 UTC m=+10531772.496293969
                   LastTransitionTime: 2021-09-30 15:26:54.12862169 +0000 UTC m=+10528987.833686150

      Name:        eks-workers-b-NodeGroup-LMJQ`,
			want: AutoscalerStatus{
				Format: StatusText, Truncated: true,
				NodeGroups: []GroupStatus{
					{
						Name: "eks-workers-a-NodeGroup-AU4D",
						Health: HealthStatus{Status: "Healthy", Ready: 2, Registered: 2, CloudProviderTarget: 8, MaxSize: 8, SizeKnown: true,
							LastProbeTime: utc(2021, 9, 30, 16, 13, 18, 791229527), LastTransitionTime: utc(2021, 9, 30, 15, 46, 22, 863867587)},
						ScaleUp: ScaleUpStatus{Status: "InProgress", Ready: 2, CloudProviderTarget: 8,
							LastProbeTime: utc(2021, 9, 30, 16, 13, 18, 791229527), LastTransitionTime: utc(2021, 9, 30, 15, 58, 40, 202629511)},
						ScaleDown: ScaleDownStatus{Status: "NoCandidates",
							LastProbeTime: utc(2021, 9, 30, 16, 13, 18, 791229527), LastTransitionTime: utc(2021, 9, 30, 15, 26, 54, 128621690)},
					},
					{Name: "eks-workers-b-NodeGroup-LMJQ"},
				},
			},
			wantOK: true,
		},
		{
			name: "text cut inside a health message",
			text: "> Name:        pool-c\n> Health:      Unhealthy (ready=1 unready=3 notStarted=0 longNotStarted=0 registered=4 longUnregistered=1 cloudProviderTarget=1",
			want: AutoscalerStatus{Format: StatusText, Truncated: true, NodeGroups: []GroupStatus{{
				Name:   "pool-c",
				Health: HealthStatus{Status: "Unhealthy", Ready: 1, Unready: 3, Registered: 4, LongUnregistered: 1},
			}}},
			wantOK: true,
		},
		{
			name: "text cut inside a time",
			text: "Name: pool-d\nHealth: Healthy (ready=1 registered=1 cloudProviderTarget=1 (minSize=1, maxSize=3))\n  LastProbeTime: 2021-09-30 16:1",
			want: AutoscalerStatus{Format: StatusText, Truncated: true, NodeGroups: []GroupStatus{{
				Name:   "pool-d",
				Health: HealthStatus{Status: "Healthy", Ready: 1, Registered: 1, CloudProviderTarget: 1, MinSize: 1, MaxSize: 3, SizeKnown: true},
			}}},
			wantOK: true,
		},
		{
			name: "oldest text, groups without names",
			text: `Cluster-wide:
  Health:      Healthy (ready=2 unready=0 notStarted=0 longNotStarted=0 registered=2)
  ScaleUp:     NoActivity (ready=2 registered=2)
  ScaleDown:   NoCandidates (candidates=0)

NodeGroups:
  Health:      Healthy (ready=1 unready=0 notStarted=0 longNotStarted=0 registered=1 cloudProviderTarget=1 (minSize=1, maxSize=5))
  ScaleUp:     NoActivity (ready=1 cloudProviderTarget=1)
  ScaleDown:   NoCandidates (candidates=0)

  Health:      Healthy (ready=1 unready=0 notStarted=0 longNotStarted=0 registered=1 cloudProviderTarget=1 (minSize=0, maxSize=2))
  ScaleUp:     NoActivity (ready=1 cloudProviderTarget=1)
  ScaleDown:   CandidatesPresent (candidates=1)
`,
			want: AutoscalerStatus{
				Format: StatusText,
				ClusterWide: &GroupStatus{
					Health:    HealthStatus{Status: "Healthy", Ready: 2, Registered: 2},
					ScaleUp:   ScaleUpStatus{Status: "NoActivity", Ready: 2, Registered: 2},
					ScaleDown: ScaleDownStatus{Status: "NoCandidates"},
				},
				NodeGroups: []GroupStatus{
					{
						Health:    HealthStatus{Status: "Healthy", Ready: 1, Registered: 1, CloudProviderTarget: 1, MinSize: 1, MaxSize: 5, SizeKnown: true},
						ScaleUp:   ScaleUpStatus{Status: "NoActivity", Ready: 1, CloudProviderTarget: 1},
						ScaleDown: ScaleDownStatus{Status: "NoCandidates"},
					},
					{
						Health:    HealthStatus{Status: "Healthy", Ready: 1, Registered: 1, CloudProviderTarget: 1, MaxSize: 2, SizeKnown: true},
						ScaleUp:   ScaleUpStatus{Status: "NoActivity", Ready: 1, CloudProviderTarget: 1},
						ScaleDown: ScaleDownStatus{Status: "CandidatesPresent", Candidates: 1},
					},
				},
			},
			wantOK: true,
		},
		{
			name: "text cluster-wide pasted without its header",
			text: "  Health:      Healthy (ready=2 registered=2)\n  ScaleUp:     NoActivity (ready=2 registered=2)\n  ScaleDown:   NoCandidates (candidates=0)\n\nNodeGroups:\n  Name: g1\n" +
				"  Health: Healthy (ready=2 registered=2 cloudProviderTarget=2 (minSize=0, maxSize=4))\n  ScaleUp: NoActivity (ready=2 cloudProviderTarget=2)\n  ScaleDown: NoCandidates (candidates=0)\n",
			want: AutoscalerStatus{
				Format: StatusText,
				ClusterWide: &GroupStatus{
					Health:    HealthStatus{Status: "Healthy", Ready: 2, Registered: 2},
					ScaleUp:   ScaleUpStatus{Status: "NoActivity", Ready: 2, Registered: 2},
					ScaleDown: ScaleDownStatus{Status: "NoCandidates"},
				},
				NodeGroups: []GroupStatus{{
					Name:      "g1",
					Health:    HealthStatus{Status: "Healthy", Ready: 2, Registered: 2, CloudProviderTarget: 2, MaxSize: 4, SizeKnown: true},
					ScaleUp:   ScaleUpStatus{Status: "NoActivity", Ready: 2, CloudProviderTarget: 2},
					ScaleDown: ScaleDownStatus{Status: "NoCandidates"},
				}},
			},
			wantOK: true,
		},
		{name: "yaml, whole", text: yamlStatusWhole, want: wholeYAML, wantOK: true},
		{
			name: "yaml inside kubectl get -o yaml",
			text: "apiVersion: v1\ndata:\n  status: |\n" + indent(yamlStatusWhole, "    ") +
				"kind: ConfigMap\nmetadata:\n  annotations:\n    cluster-autoscaler.kubernetes.io/last-updated: 2025-02-03 10:11:12.5 +0000 UTC\n" +
				"  name: cluster-autoscaler-status\n  namespace: kube-system\n",
			want: wholeYAML, wantOK: true,
		},
		{
			name: "yaml fragment: list item indented, keys in another order",
			text: `    - health:
        cloudProviderTarget: 1
        maxSize: 3
        minSize: 0
        nodeCounts:
          registered:
            ready: 1
            total: 1
        status: Healthy
      name: shoot--gpu-z1
      scaleDown:
        status: NoCandidates
      scaleUp:
        status: NoActivity
`,
			want: AutoscalerStatus{Format: StatusYAML, NodeGroups: []GroupStatus{{
				Name:      "shoot--gpu-z1",
				Health:    HealthStatus{Status: "Healthy", Ready: 1, Registered: 1, CloudProviderTarget: 1, MaxSize: 3, SizeKnown: true},
				ScaleUp:   ScaleUpStatus{Status: "NoActivity"},
				ScaleDown: ScaleDownStatus{Status: "NoCandidates"},
			}}},
			wantOK: true,
		},
		{
			name: "yaml fragment without list marks, two entries, cut in a key",
			text: `  name: ng-1
  health:
    status: Unhealthy
    cloudProviderTarget: 4
    maxSize: 10
  scaleUp:
    status: Backoff
  scaleDown:
    status: NoCandidates
  name: ng-2
  health:
    status: Healthy
    cloudProviderTa`,
			want: AutoscalerStatus{Format: StatusYAML, Truncated: true, NodeGroups: []GroupStatus{
				{
					Name:      "ng-1",
					Health:    HealthStatus{Status: "Unhealthy", CloudProviderTarget: 4, MaxSize: 10, SizeKnown: true},
					ScaleUp:   ScaleUpStatus{Status: "Backoff"},
					ScaleDown: ScaleDownStatus{Status: "NoCandidates"},
				},
				{Name: "ng-2", Health: HealthStatus{Status: "Healthy"}},
			}},
			wantOK: true,
		},
		{
			name: "yaml cut inside a quoted message",
			text: "nodeGroups:\n- name: ng-3\n  scaleUp:\n    status: Backoff\n    backoffInfo:\n      errorCode: QUOTA_EXCEEDED\n      errorMessage: \"Instance creation fai",
			want: AutoscalerStatus{Format: StatusYAML, Truncated: true, NodeGroups: []GroupStatus{{
				Name:    "ng-3",
				ScaleUp: ScaleUpStatus{Status: "Backoff", BackoffErrorCode: "QUOTA_EXCEEDED", BackoffErrorMessage: "Instance creation fai"},
			}}},
			wantOK: true,
		},
		{
			name: "yaml after a text-style header",
			text: "Cluster-autoscaler status at 2025-02-03 10:11:12 +0000 UTC:\nnodeGroups:\n- name: ng-4\n  health:\n    status: Healthy\n  scaleUp:\n    status: NoActivity\n  scaleDown:\n    status: NoCandidates\n",
			want: AutoscalerStatus{Format: StatusYAML, Time: utc(2025, 2, 3, 10, 11, 12, 0), NodeGroups: []GroupStatus{{
				Name: "ng-4", Health: HealthStatus{Status: "Healthy"}, ScaleUp: ScaleUpStatus{Status: "NoActivity"},
				ScaleDown: ScaleDownStatus{Status: "NoCandidates"},
			}}},
			wantOK: true,
		},
		{name: "not a status", text: "NAME   READY   STATUS\nweb-1  1/1     Running\n"},
		{name: "describe header only", text: "Name:         cluster-autoscaler-status\nNamespace:    kube-system\n"},
		{name: "empty", text: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseAutoscalerStatus(tt.text)
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tt.wantOK)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// indent prefixes every non-empty line of s, as kubectl does with a block scalar.
func indent(s, prefix string) string {
	var out []byte
	start := true
	for i := 0; i < len(s); i++ {
		if start && s[i] != '\n' {
			out = append(out, prefix...)
		}
		out = append(out, s[i])
		start = s[i] == '\n'
	}
	return string(out)
}

func FuzzParseAutoscalerStatus(f *testing.F) {
	for _, s := range []string{
		textStatusWhole,
		yamlStatusWhole,
		"Name: a\nHealth: Healthy (ready=1 cloudProviderTarget=2 (minSize=0, maxSize=3",
		"- name: a\n  health:\n    status: \"Heal",
		"data:\n  status: |\n    nodeGroups:\n    - name: x\n      scaleUp:\n        status: Backoff\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		st, ok := ParseAutoscalerStatus(text)
		if !ok {
			if diff := cmp.Diff(AutoscalerStatus{}, st); diff != "" {
				t.Fatalf("not ok but non-zero result:\n%s", diff)
			}
			return
		}
		if st.Format != StatusText && st.Format != StatusYAML {
			t.Errorf("bad format %q", st.Format)
		}
		for _, g := range st.NodeGroups {
			h := g.Health
			if h.Ready < 0 || h.Registered < 0 || h.MaxSize < 0 || h.CloudProviderTarget < 0 {
				t.Errorf("negative count in %+v", g)
			}
		}
	})
}
