package text

import (
	"testing"
	"time"
)

// TestUnwrap takes lines out of the records log collectors keep them in, with the time each
// record gives, and leaves every other line as it is.
func TestUnwrap(t *testing.T) {
	at := time.Date(2024, 3, 1, 12, 0, 0, 123456789, time.UTC)
	tests := []struct {
		name string
		in   string
		want string
		at   time.Time
		ok   bool
	}{
		{"CRI log file", "2024-03-01T12:00:00.123456789Z stderr F NAME    READY   STATUS", "NAME    READY   STATUS", at, true},
		{"CRI partial line", "2024-03-01T12:00:00.123456789Z stdout P web-1   0/1", "web-1   0/1", at, true},
		{"Docker json-file", `{"log":"web-1   0/1   Evicted\n","stream":"stdout","time":"2024-03-01T12:00:00.123456789Z"}`, "web-1   0/1   Evicted", at, true},
		{"Fluent Bit record", `{"log":"I0301 x","kubernetes":{"pod_name":"p"}}`, "I0301 x", time.Time{}, true},
		{"journal JSON", `{"__REALTIME_TIMESTAMP":"1709294400000000","_HOSTNAME":"node-1","SYSLOG_IDENTIFIER":"kernel","MESSAGE":"Memory cgroup out of memory: Killed process 1234 (java)"}`,
			"2024-03-01T12:00:00+0000 node-1 kernel: Memory cgroup out of memory: Killed process 1234 (java)", time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC), true},
		{"journal JSON with a pid", `{"_HOSTNAME":"node-1","SYSLOG_IDENTIFIER":"kubelet","_PID":"735","MESSAGE":"E0301 12:00:00.000000 735 x.go:1] boom"}`,
			"node-1 kubelet[735]: E0301 12:00:00.000000 735 x.go:1] boom", time.Time{}, true},
		{"Cloud Logging", `{"textPayload":"Liveness probe failed: HTTP probe failed with statuscode: 500","timestamp":"2024-03-01T12:00:00.123456789Z"}`,
			"Liveness probe failed: HTTP probe failed with statuscode: 500", at, true},
		{"Elastic document", `{"@timestamp":"2024-03-01T12:00:00.123456789Z","message":"Back-off restarting failed container"}`, "Back-off restarting failed container", at, true},
		{"CloudWatch CSV row", `2024-03-01 12:00:00.123456789,"I0301 12:00:00 1 x.go:1] ""Event occurred"" object=""prod/web-1"""`,
			`I0301 12:00:00 1 x.go:1] "Event occurred" object="prod/web-1"`, at, true},
		{"CSV row with epoch milliseconds", `1709294400123,"Evicted pod"`, "Evicted pod", time.UnixMilli(1709294400123).UTC(), true},
		{"an event as JSON is data, not a wrapper", `{"kind":"Event","@timestamp":"2024-03-01T12:00:00Z","message":"Evicted","involvedObject":{"name":"x"}}`, "", time.Time{}, false},
		{"a zap line's message is data", `{"level":"INFO","time":"2024-03-01T12:00:00Z","message":"launched nodeclaim","nodeclaim":"default-x"}`, "", time.Time{}, false},
		{"a log line with its own time", "2024-03-01T12:00:00.123Z INFO controller launched", "", time.Time{}, false},
		{"a table row", "web-1   0/1   Evicted   0   5m", "", time.Time{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, gotAt, ok := unwrap(tt.in)
			if !tt.ok {
				if ok || got != tt.in {
					t.Fatalf("unwrap(%q) = %q, %v; want it unchanged", tt.in, got, ok)
				}
				return
			}
			if !ok || got != tt.want || !gotAt.Equal(tt.at) {
				t.Errorf("unwrap(%q) = %q, %v, %v; want %q, %v", tt.in, got, gotAt, ok, tt.want, tt.at)
			}
		})
	}
}

// TestCNIArgsPod reads the pod a runtime's CNI_ARGS, a plugin's protobuf text of them or the
// kubelet's labels of a container name, and no pod from a masked or placeholder name.
func TestCNIArgsPod(t *testing.T) {
	tests := []struct{ in, ns, name string }{
		{"Args:K8S_POD_UID=e4c6;IgnoreUnknown=1;K8S_POD_NAMESPACE=orq;K8S_POD_NAME=db-0;K8S_POD_INFRA_CONTAINER_ID=37d6 Path:", "orq", "db-0"},
		{`"msg":"AddNetworkRequest: K8S_POD_NAME:\"myapp-7dbf-gsnsn\" K8S_POD_NAMESPACE:\"streamnative\" K8S_POD_INFRA_CONTAINER_ID:\"2329\""`, "streamnative", "myapp-7dbf-gsnsn"},
		{"container oom 29d7 (io.kubernetes.container.name=nb, io.kubernetes.pod.name=jupyter-ana, io.kubernetes.pod.namespace=jhub)", "jhub", "jupyter-ana"},
		{"container oom 29d7 (io.kubernetes.pod.name=jupyter-******, io.kubernetes.pod.namespace=jhub)", "", ""},
		{"nothing of a pod here", "", ""},
	}
	for _, tt := range tests {
		ns, name, _ := cniArgsPod(tt.in)
		if ns != tt.ns || name != tt.name {
			t.Errorf("cniArgsPod(%q) = %q, %q; want %q, %q", tt.in, ns, name, tt.ns, tt.name)
		}
	}
}
