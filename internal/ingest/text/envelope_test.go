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
