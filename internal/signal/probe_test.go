package signal

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseProbe(t *testing.T) {
	tests := []struct {
		name   string
		msg    string
		want   Probe
		wantOK bool
	}{
		{
			name:   "liveness timeout (corpus 07)",
			msg:    `Liveness probe failed: Get "http://10.244.54.71:18051/healthcheck": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
			want:   Probe{Type: "Liveness", Outcome: "failed", Output: `Get "http://10.244.54.71:18051/healthcheck": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`},
			wantOK: true,
		},
		{
			name:   "liveness connection refused (corpus 43)",
			msg:    `Liveness probe failed: Get "http://10.244.0.36:8080/healthzzzzz": dial tcp 10.244.0.36:8080: connect: connection refused`,
			want:   Probe{Type: "Liveness", Outcome: "failed", Output: `Get "http://10.244.0.36:8080/healthzzzzz": dial tcp 10.244.0.36:8080: connect: connection refused`},
			wantOK: true,
		},
		{
			name:   "readiness errored",
			msg:    "Readiness probe errored: rpc error: code = Unknown desc = container not running",
			want:   Probe{Type: "Readiness", Outcome: "errored", Output: "rpc error: code = Unknown desc = container not running"},
			wantOK: true,
		},
		{
			name:   "startup warning",
			msg:    "Startup probe warning: Probe terminated redirects, Response body: ",
			want:   Probe{Type: "Startup", Outcome: "warning", Output: "Probe terminated redirects, Response body:"},
			wantOK: true,
		},
		{
			name:   "multi-line exec output",
			msg:    "Liveness probe failed: line one\nline two\n",
			want:   Probe{Type: "Liveness", Outcome: "failed", Output: "line one\nline two"},
			wantOK: true,
		},
		{name: "empty output", msg: "Readiness probe failed: ", want: Probe{Type: "Readiness", Outcome: "failed"}, wantOK: true},
		{name: "unrelated", msg: "Back-off restarting failed container"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseProbe(tt.msg)
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tt.wantOK)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseKilling(t *testing.T) {
	tests := []struct {
		name   string
		msg    string
		want   Kill
		wantOK bool
	}{
		{
			name:   "liveness (corpus 43)",
			msg:    "Container trivy-dojo-report-operator failed liveness probe, will be restarted",
			want:   Kill{Container: "trivy-dojo-report-operator", Cause: KillLiveness, Detail: "failed liveness probe"},
			wantOK: true,
		},
		{
			name:   "startup",
			msg:    "Container app failed startup probe, will be restarted",
			want:   Kill{Container: "app", Cause: KillStartup, Detail: "failed startup probe"},
			wantOK: true,
		},
		{
			name:   "definition changed",
			msg:    "Container app definition changed, will be restarted",
			want:   Kill{Container: "app", Cause: KillDefinition, Detail: "definition changed"},
			wantOK: true,
		},
		{
			name:   "other restart reason",
			msg:    "Container app resize requires restart, will be restarted",
			want:   Kill{Container: "app", Cause: KillOther, Detail: "resize requires restart"},
			wantOK: true,
		},
		{name: "stopping (corpus 01)", msg: "Stopping container minecraft", want: Kill{Container: "minecraft"}, wantOK: true},
		{
			name:   "pre-1.11 liveness",
			msg:    "Killing container with id docker://app:Container failed liveness probe.. Container will be killed and recreated.",
			want:   Kill{Container: "docker://app", Cause: KillLiveness, Detail: "Container failed liveness probe.. Container will be killed and recreated."},
			wantOK: true,
		},
		{
			name:   "pre-1.11 plain",
			msg:    "Killing container with id docker://4f1e2a:Need to kill Pod",
			want:   Kill{Container: "docker://4f1e2a", Detail: "Need to kill Pod"},
			wantOK: true,
		},
		{name: "unrelated", msg: "Started container app"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseKilling(tt.msg)
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tt.wantOK)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseBackOff(t *testing.T) {
	tests := []struct {
		name   string
		msg    string
		want   BackOff
		wantOK bool
	}{
		{
			name:   "current form",
			msg:    "Back-off restarting failed container command-broken in pod command-broken-785d44fdcd-lqj5t_default(0b2c3d4e-1111-2222-3333-444455556666)",
			want:   BackOff{Container: "command-broken", Pod: "command-broken-785d44fdcd-lqj5t", Namespace: "default", UID: "0b2c3d4e-1111-2222-3333-444455556666"},
			wantOK: true,
		},
		{name: "old bare form (corpus 53)", msg: "Back-off restarting failed container", wantOK: true},
		{name: "old docker form", msg: "Back-off restarting failed docker container", wantOK: true},
		{name: "cut before the pod", msg: "Back-off restarting failed container app in pod web-1_prod(12", want: BackOff{Container: "app"}, wantOK: true},
		{name: "image back-off is not a restart", msg: `Back-off pulling image "nginx:l4t3st"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseBackOff(tt.msg)
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tt.wantOK)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzParseProbe(f *testing.F) {
	for _, s := range []string{
		`Liveness probe failed: Get "http://10.244.0.36:8080/healthzzzzz": dial tcp 10.244.0.36:8080: connect: connection refused`,
		"Container app failed liveness probe, will be restarted",
		"Stopping container app",
		"Back-off restarting failed container app in pod web-1_prod(uid)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		if p, ok := ParseProbe(msg); ok {
			switch {
			case p.Type != "Liveness" && p.Type != "Readiness" && p.Type != "Startup":
				t.Errorf("bad type %q", p.Type)
			case p.Outcome != "failed" && p.Outcome != "errored" && p.Outcome != "warning":
				t.Errorf("bad outcome %q", p.Outcome)
			}
		}
		if k, ok := ParseKilling(msg); ok && k.Container == "" {
			t.Errorf("kill without container: %+v", k)
		}
		if b, ok := ParseBackOff(msg); ok && b.Pod != "" && (b.Namespace == "" || b.Container == "") {
			t.Errorf("pod without namespace or container: %+v", b)
		}
	})
}
