package text

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestParseEventsExports checks events exported from a log store as CSV: each row an
// event of the object its own cells name, whatever prefix the store put on the field paths,
// and a header without the object's name, the reason or the message left to the other readers.
func TestParseEventsExports(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"Kibana's CSV of kubernetes-event-exporter's records, times as Kibana prints them",
			`"@timestamp","object.involvedObject.kind","object.involvedObject.namespace","object.involvedObject.name","object.reason","object.type","object.message"
"Mar 4, 2024 @ 10:02:11.000",Pod,prod,web-7d9f8-x2k4p,BackOff,Warning,"Back-off restarting failed container web in pod web-7d9f8-x2k4p_prod(8ea8c461-b6a8-4c16-9b57-71ba32ae8cba)"
"Mar 4, 2024 @ 10:01:40.000",Pod,prod,web-7d9f8-x2k4p,Unhealthy,Warning,"Liveness probe failed: Get ""http://10.2.0.14:8080/healthz"": context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
"Mar 4, 2024 @ 09:58:02.000",Pod,prod,api-5c6d7-q9w8e,FailedScheduling,Warning,"0/6 nodes are available: 6 Insufficient memory. preemption: 0/6 nodes are available: 6 No preemption victims found for incoming pod."
`, []string{
				`2 Event prod/web-7d9f8-x2k4p.BackOff.2 Warning BackOff on Pod prod/web-7d9f8-x2k4p at 2024-03-04T10:02:11Z "Back-off restarting failed container web in pod web-7d9f8-x2k4p_prod(8ea8c461-b6a8-4c16-9b57-71ba32ae8cba)"`,
				`3 Event prod/web-7d9f8-x2k4p.Unhealthy.3 Warning Unhealthy on Pod prod/web-7d9f8-x2k4p at 2024-03-04T10:01:40Z "Liveness probe failed: Get \"http://10.2.0.14:8080/healthz\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)"`,
				`4 Event prod/api-5c6d7-q9w8e.FailedScheduling.4 Warning FailedScheduling on Pod prod/api-5c6d7-q9w8e at 2024-03-04T09:58:02Z "0/6 nodes are available: 6 Insufficient memory. preemption: 0/6 nodes are available: 6 No preemption victims found for incoming pod."`,
			}},
		{"Metricbeat's kubernetes.event, snake case, the namespace of the record and a count",
			`@timestamp,kubernetes.event.involved_object.kind,kubernetes.event.involved_object.name,kubernetes.namespace,kubernetes.event.reason,kubernetes.event.message,kubernetes.event.count
2024-03-04T10:02:11.000Z,Pod,web-7d9f8-x2k4p,prod,BackOff,Back-off restarting failed container web in pod web-7d9f8-x2k4p_prod(8ea8c461-b6a8-4c16-9b57-71ba32ae8cba),14
2024-03-04T09:58:02.000Z,Pod,api-5c6d7-q9w8e,prod,FailedScheduling,"0/6 nodes are available: 6 Insufficient memory. preemption: 0/6 nodes are available: 6 No preemption victims found for incoming pod.",3
`, []string{
				`2 Event prod/web-7d9f8-x2k4p.BackOff.2  BackOff on Pod prod/web-7d9f8-x2k4p x14 at 2024-03-04T10:02:11Z "Back-off restarting failed container web in pod web-7d9f8-x2k4p_prod(8ea8c461-b6a8-4c16-9b57-71ba32ae8cba)"`,
				`3 Event prod/api-5c6d7-q9w8e.FailedScheduling.3  FailedScheduling on Pod prod/api-5c6d7-q9w8e x3 at 2024-03-04T09:58:02Z "0/6 nodes are available: 6 Insufficient memory. preemption: 0/6 nodes are available: 6 No preemption victims found for incoming pod."`,
			}},
		{"events.k8s.io/v1 fields: regarding and note, a node's event",
			"eventTime,regarding.kind,regarding.name,reason,type,note,reportingController\n" +
				"2024-03-04T10:05:00.000000Z,Node,ip-10-0-3-17.ec2.internal,NodeNotReady,Normal,Node ip-10-0-3-17.ec2.internal status is now: NodeNotReady,node-controller\n",
			[]string{`2 Event ip-10-0-3-17.ec2.internal.NodeNotReady.2 Normal NodeNotReady on Node /ip-10-0-3-17.ec2.internal at 2024-03-04T10:05:00Z "Node ip-10-0-3-17.ec2.internal status is now: NodeNotReady"`}},
		{"Kibana's Discover copied as columns: a time with spaces in it first, no reason (the message gives it), no kind",
			"@timestamp                      object.involvedObject.name                 object.message\n" +
				"Sep 7, 2023 @ 10:15:01.123      kube-apiserver-i-0a1b2c3d4e5f67890         Liveness probe failed: HTTP probe failed with statuscode: 500\n" +
				"Sep 7, 2023 @ 10:14:31.087      kube-apiserver-i-0f9e8d7c6b5a43210         Readiness probe failed: HTTP probe failed with statuscode: 500\n",
			[]string{`2 Event kube-apiserver-i-0a1b2c3d4e5f67890.Unhealthy.2  Unhealthy on Pod /kube-apiserver-i-0a1b2c3d4e5f67890 at 2023-09-07T10:15:01Z "Liveness probe failed: HTTP probe failed with statuscode: 500"`,
				`3 Event kube-apiserver-i-0f9e8d7c6b5a43210.Unhealthy.3  Unhealthy on Pod /kube-apiserver-i-0f9e8d7c6b5a43210 at 2023-09-07T10:14:31Z "Readiness probe failed: HTTP probe failed with statuscode: 500"`}},
		{"a row of other cells ends the export; a line of prose after it is prose",
			"involvedObject.name,reason,message\nweb-1,OOMKilling,\"Memory cgroup out of memory: Killed process 4242 (java)\"\nthat was all we saw, no more rows\n",
			[]string{`2 Event web-1.OOMKilling.2  OOMKilling on  /web-1 "Memory cgroup out of memory: Killed process 4242 (java)"`}},
		{"a header without the object's name is not an export of events this reads: its message is a phrase",
			"@timestamp,reason,message\n2024-03-04T10:02:11Z,BackOff,Back-off restarting failed container\n",
			[]string{`2 Event unknown.in.BackOff.2 Warning BackOff on Pod / loose at 2024-03-04T10:02:11Z "Back-off restarting failed container"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			objs, _ := parseAll(t, "in", []byte(tt.in))
			var got []string
			for _, o := range objs {
				s := summary(o)
				if o.Event != nil && !o.Event.LastTimestamp.IsZero() {
					s = strings.Replace(s, ` "`, " at "+o.Event.LastTimestamp.Time().Format(time.RFC3339)+` "`, 1)
				}
				got = append(got, s)
			}
			if diff := cmp.Diff(byLine(tt.want), byLine(got)); diff != "" {
				t.Errorf("objects (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNamesAnotherPod checks which names on a line are another pod's than the paste's one pod.
func TestNamesAnotherPod(t *testing.T) {
	t.Parallel()
	const pod = "web-7d9f8-x2k4p"
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"name=api-5c6d7b9f8-q9w8x reason=FailedScheduling", true}, // a ReplicaSet's pod
		{"2024-03-04;prod;fluentd-x7k2p;BackOff", true},            // a DaemonSet's pod
		{"3:00:50 PM jenkins-1-snmgs Pod Warning", true},           // a DeploymentConfig's pod
		{"name=web-7d9f8-x2k4p reason=BackOff", false},             // the pod itself
		{"name=web-7d9f8 reason=FailedScheduling", false},          // its ReplicaSet
		{"Successfully assigned prod/web-7d9f8-x2k4p to node-2", false},
		{"the rhythm-thwmp of the pager", false}, // five consonants, no digit: a word
		{"0/6 nodes are available: 6 Insufficient memory.", false},
	} {
		if got := namesAnotherPod(tt.line, pod); got != tt.want {
			t.Errorf("namesAnotherPod(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

// TestEventsExportHeaders checks which headers open an export of events, and which do not.
func TestEventsExportHeaders(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		header string
		want   bool
	}{
		{`"@timestamp","object.involvedObject.name","object.reason","object.message"`, true},
		{"@timestamp  object.involvedObject.name  object.message", true},
		{"object.involvedObject.name  object.reason  object.message", true},
		{"@timestamp  object.message  object.involvedObject.name", false},         // the message not last: its words would run into the name
		{"@timestamp  object.involvedObject.name  object.reason", false},          // no message
		{"@timestamp  kubernetes.pod.name  message", false},                       // a log line's pod, not an event's object
		{"@timestamp  object.involvedObject.name  host.ip  object.message", true}, // a column not read
		{"NAME  READY  STATUS  RESTARTS  AGE", false},
		{"time,name,reason,message of the day", false},
	} {
		if got := newCSVEventsTable(tt.header) != nil; got != tt.want {
			t.Errorf("newCSVEventsTable(%q) = %v, want %v", tt.header, got, tt.want)
		}
	}
}
