package timeline

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// TestAlertRows: each alert is a row of its own at its start, lasting until it resolved, its
// severity from its severity label, its summary from its annotations, its object from its
// labels (a node only when the model holds it), linked to the symptoms on the same object,
// which link back; entries given are not changed.
func TestAlertRows(t *testing.T) {
	t0 := time.Date(2023, 2, 1, 17, 0, 0, 0, time.UTC)
	end := t0.Add(20 * time.Minute)
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "core-1"}}
	m := cluster.NewModel(nil, []*cluster.Object{{APIVersion: "v1", Kind: cluster.KindNode, Name: "core-1", Node: node}})
	at, later := t0.Add(5*time.Minute), t0.Add(6*time.Minute)
	rep := analysis.Report{Symptoms: []analysis.Symptom{
		{ID: "S1", Kind: analysis.CrashLoopBackOff, At: &at, Summary: "hub-1 crash loops", Objects: []analysis.ObjectRef{{Kind: "Pod", Namespace: "prod", Name: "hub-1"}}},
		{ID: "S2", Kind: analysis.NodeNotReady, At: &at, Summary: "core-1 not ready", Node: "core-1", Objects: []analysis.ObjectRef{{Kind: "Node", Name: "core-1"}}},
		// A pod's symptom on the node: a node's alert is about it too.
		{ID: "S3", Kind: analysis.PodEvicted, At: &later, Summary: "worker-1 evicted", Node: "core-1", Objects: []analysis.ObjectRef{{Kind: "Pod", Namespace: "dask", Name: "worker-1"}}},
	}}
	built := Build(m, rep, nil)
	tests := []struct {
		name string
		in   alert.Alert
		want Entry
		back string // the symptom that links back to the row
	}{
		{
			name: "a pod's, resolved",
			in: alert.Alert{Fingerprint: "aa01", Status: alert.Resolved, StartsAt: t0, EndsAt: end,
				Labels:      map[string]string{"alertname": "KubePodCrashLooping", "namespace": "prod", "pod": "hub-1", "severity": "critical"},
				Annotations: map[string]string{"summary": "hub-1 is crash looping", "description": "long"}},
			want: Entry{At: t0, Last: &end, Type: TypeAlert, Kind: "resolved", Severity: SeverityCritical, Summary: "KubePodCrashLooping: hub-1 is crash looping",
				Namespace: "prod", Object: "Pod prod/hub-1", Of: analysis.ObjectRef{Kind: "Pod", Namespace: "prod", Name: "hub-1"}, Ref: "alert-aa01-20230201T170000Z", Links: []string{"S1"}},
			back: "S1",
		},
		{
			name: "a node's, by instance, firing",
			in: alert.Alert{Fingerprint: "bb02", Status: alert.Firing, StartsAt: t0,
				Labels:      map[string]string{"alertname": "NodeDown", "instance": "core-1:9100", "severity": "warning"},
				Annotations: map[string]string{"description": "core-1 down"}},
			want: Entry{At: t0, Type: TypeAlert, Kind: "firing", Severity: SeverityWarning, Summary: "NodeDown: core-1 down",
				Node: "core-1", Object: "Node core-1", Of: analysis.ObjectRef{Kind: "Node", Name: "core-1"}, Ref: "alert-bb02-20230201T170000Z", Links: []string{"S2", "S3"}},
			back: "S2",
		},
		{
			name: "an instance the model does not hold",
			in: alert.Alert{Fingerprint: "cc03", Status: alert.Firing, StartsAt: t0,
				Labels: map[string]string{"alertname": "TargetDown", "instance": "10.0.0.9:9100", "severity": "none"}},
			want: Entry{At: t0, Type: TypeAlert, Kind: "firing", Severity: SeverityInfo, Summary: "TargetDown", Ref: "alert-cc03-20230201T170000Z"},
		},
		{
			name: "a node's, from kube-state-metrics scraped with its own pod",
			in: alert.Alert{Fingerprint: "ee05", Status: alert.Firing, StartsAt: t0,
				Labels: map[string]string{"alertname": "KubeNodeNotReady", "node": "core-1", "job": "kube-state-metrics",
					"namespace": "monitoring", "pod": "kube-state-metrics-6f9c7d8b4-x2x9k", "severity": "warning"}},
			want: Entry{At: t0, Type: TypeAlert, Kind: "firing", Severity: SeverityWarning, Summary: "KubeNodeNotReady",
				Node: "core-1", Object: "Node core-1", Of: analysis.ObjectRef{Kind: "Node", Name: "core-1"}, Ref: "alert-ee05-20230201T170000Z", Links: []string{"S2", "S3"}},
			back: "S2",
		},
		{
			name: "a pod's, its container named as its workload (not an exporter's pod)",
			in: alert.Alert{Fingerprint: "ab07", Status: alert.Firing, StartsAt: t0,
				Labels: map[string]string{"alertname": "KubePodCrashLooping", "job": "kube-state-metrics", "namespace": "prod", "pod": "hub-1", "container": "hub"}},
			want: Entry{At: t0, Type: TypeAlert, Kind: "firing", Severity: SeverityInfo, Summary: "KubePodCrashLooping",
				Namespace: "prod", Object: "Pod prod/hub-1", Of: analysis.ObjectRef{Kind: "Pod", Namespace: "prod", Name: "hub-1"}, Ref: "alert-ab07-20230201T170000Z", Links: []string{"S1"}},
			back: "S1",
		},
		{
			name: "an application's own, scraped from its pod",
			in: alert.Alert{Fingerprint: "ab08", Status: alert.Firing, StartsAt: t0,
				Labels: map[string]string{"alertname": "HubLatencyHigh", "job": "hub", "namespace": "prod", "pod": "hub-1"}},
			want: Entry{At: t0, Type: TypeAlert, Kind: "firing", Severity: SeverityInfo, Summary: "HubLatencyHigh",
				Namespace: "prod", Object: "Pod prod/hub-1", Of: analysis.ObjectRef{Kind: "Pod", Namespace: "prod", Name: "hub-1"}, Ref: "alert-ab08-20230201T170000Z", Links: []string{"S1"}},
			back: "S1",
		},
		{
			name: "a node's, from node-exporter scraped with its own pod",
			in: alert.Alert{Fingerprint: "ab09", Status: alert.Firing, StartsAt: t0,
				Labels: map[string]string{"alertname": "NodeFilesystemAlmostOutOfSpace", "instance": "core-1:9100", "job": "node-exporter",
					"namespace": "monitoring", "pod": "prometheus-node-exporter-x7k2p"}},
			want: Entry{At: t0, Type: TypeAlert, Kind: "firing", Severity: SeverityInfo, Summary: "NodeFilesystemAlmostOutOfSpace",
				Node: "core-1", Object: "Node core-1", Of: analysis.ObjectRef{Kind: "Node", Name: "core-1"}, Ref: "alert-ab09-20230201T170000Z", Links: []string{"S2", "S3"}},
			back: "S2",
		},
		{
			name: "a pod's, its labels exported beside the exporter's",
			in: alert.Alert{Fingerprint: "ff06", Status: alert.Firing, StartsAt: t0,
				Labels: map[string]string{"alertname": "KubePodCrashLooping", "job": "kube-state-metrics", "namespace": "monitoring",
					"pod": "kube-state-metrics-6f9c7d8b4-x2x9k", "exported_namespace": "prod", "exported_pod": "hub-1"}},
			want: Entry{At: t0, Type: TypeAlert, Kind: "firing", Severity: SeverityInfo, Summary: "KubePodCrashLooping",
				Namespace: "prod", Object: "Pod prod/hub-1", Of: analysis.ObjectRef{Kind: "Pod", Namespace: "prod", Name: "hub-1"}, Ref: "alert-ff06-20230201T170000Z", Links: []string{"S1"}},
			back: "S1",
		},
		{
			name: "a deployment's, no name",
			in: alert.Alert{Fingerprint: "dd04", Status: alert.Firing, StartsAt: t0,
				Labels: map[string]string{"namespace": "prod", "deployment": "hub"}},
			want: Entry{At: t0, Type: TypeAlert, Kind: "firing", Severity: SeverityInfo, Summary: "alert dd04", Namespace: "prod",
				Object: "Deployment prod/hub", Of: analysis.ObjectRef{Kind: "Deployment", Namespace: "prod", Name: "hub"}, Ref: "alert-dd04-20230201T170000Z"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := cmp.Diff(nil, built)
			got := WithAlerts(built, m, []alert.Alert{tt.in})
			if cmp.Diff(nil, built) != before {
				t.Fatal("WithAlerts changed the entries it was given")
			}
			rows := map[string]Entry{}
			for i, e := range got {
				rows[e.Ref] = e
				if i > 0 && e.At.Before(got[i-1].At) {
					t.Errorf("row %d (%s) out of time order", i, e.Ref)
				}
			}
			if d := cmp.Diff(tt.want, rows[tt.want.Ref]); d != "" {
				t.Errorf("the alert row (-want +got):\n%s", d)
			}
			for _, s := range []string{"S1", "S2"} {
				links := rows[s].Links
				linked := len(links) > 0 && links[len(links)-1] == tt.want.Ref
				if linked != (s == tt.back) {
					t.Errorf("symptom %s links %v: linked to the alert %v, want %v", s, links, linked, s == tt.back)
				}
			}
		})
	}
	if got := WithAlerts(built, m, nil); len(got) != len(built) {
		t.Errorf("no alerts: %d rows, want %d", len(got), len(built))
	}
	if _, total := Apply(WithAlerts(built, m, []alert.Alert{tests[0].in}), Filter{Types: []string{TypeAlert}, Limit: 10}); total != 1 {
		t.Errorf("type=alert: %d rows, want 1", total)
	}
}
