package alert_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/alert"
)

// firing is a payload as Alertmanager 0.25+ sends it: one firing alert of a pod.
const firing = `{"receiver":"rootline","status":"firing","alerts":[{"status":"firing",
"labels":{"alertname":"KubePodCrashLooping","namespace":"prod","pod":"hub-7c9","severity":"critical"},
"annotations":{"summary":"hub is crash looping","description":"connect postgres://app:hunter2@db failed","api_key":"abc123"},
"startsAt":"2026-03-01T10:00:00.123Z","endsAt":"0001-01-01T00:00:00Z","generatorURL":"http://prom:9090/graph?g0.expr=up",
"fingerprint":"5a1d2c3b4e5f6a7b"}],"groupLabels":{"alertname":"KubePodCrashLooping"},
"commonLabels":{"alertname":"KubePodCrashLooping"},"commonAnnotations":{},"externalURL":"http://am:9093",
"version":"4","groupKey":"{}:{alertname=\"KubePodCrashLooping\"}","truncatedAlerts":0}`

func TestDecode(t *testing.T) {
	start := time.Date(2026, 3, 1, 10, 0, 0, 123e6, time.UTC)
	tests := []struct {
		name    string
		in      string
		lim     alert.Limits
		want    *alert.Group
		wantErr string // part of the message; "too large" for ErrTooLarge
	}{
		{
			name: "firing, annotations redacted",
			in:   firing,
			want: &alert.Group{Receiver: "rootline", Status: "firing", GroupKey: `{}:{alertname="KubePodCrashLooping"}`, ExternalURL: "http://am:9093",
				Alerts: []alert.Alert{{Fingerprint: "5a1d2c3b4e5f6a7b", Status: "firing",
					Labels: map[string]string{"alertname": "KubePodCrashLooping", "namespace": "prod", "pod": "hub-7c9", "severity": "critical"},
					Annotations: map[string]string{"summary": "hub is crash looping", "description": "connect postgres://app:[redacted]@db failed",
						"api_key": "[redacted]"},
					StartsAt: start, GeneratorURL: "http://prom:9090/graph?g0.expr=up"}}},
		},
		{
			name: "labels redacted as annotations are; control characters cleaned",
			in: `{"version":"4","status":"firing","alerts":[{"status":"firing","fingerprint":"ab","startsAt":"2026-03-01T10:00:00Z",
				"labels":{"alertname":"DBDown","password":"hunter2","api_key":"abc123","db_url":"postgres://app:hunter2@db/app","severity":"critical"},
				"annotations":{"summary":"line one\nline\u0000two"},"generatorURL":"http://prom:9090/graph\u0000?g0.expr=up"}]}`,
			want: &alert.Group{Status: "firing", Alerts: []alert.Alert{{Fingerprint: "ab", Status: "firing",
				Labels: map[string]string{"alertname": "DBDown", "password": "[redacted]", "api_key": "[redacted]",
					"db_url": "postgres://app:[redacted]@db/app", "severity": "critical"},
				Annotations: map[string]string{"summary": "line one\nline\uFFFDtwo"}, StartsAt: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC),
				GeneratorURL: "http://prom:9090/graph\uFFFD?g0.expr=up"}}},
		},
		{name: "resolved before its start", // an end in another zone is the same instant: 09:05Z
			in: `{"version":"4","status":"resolved","alerts":[{"status":"resolved","fingerprint":"ab","startsAt":"2026-03-01T10:00:00Z",
				"endsAt":"2026-03-01T10:05:00+01:00"}]}`,
			wantErr: "endsAt is missing or before startsAt"},
		{name: "resolved without an end",
			in:      `{"version":"4","status":"resolved","alerts":[{"status":"resolved","fingerprint":"ab","startsAt":"2026-03-01T10:00:00Z"}]}`,
			wantErr: "endsAt is missing or before startsAt"},
		{
			name: "resolved",
			in: `{"version":"4","status":"resolved","alerts":[{"status":"resolved","fingerprint":"ab","startsAt":"2026-03-01T10:00:00Z",
				"endsAt":"2026-03-01T10:05:00Z"}]}`,
			want: &alert.Group{Status: "resolved", Alerts: []alert.Alert{{Fingerprint: "ab", Status: "resolved", Labels: map[string]string{},
				Annotations: map[string]string{}, StartsAt: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC), EndsAt: time.Date(2026, 3, 1, 10, 5, 0, 0, time.UTC)}}},
		},
		{name: "empty group", in: `{"version":"4","status":"firing","alerts":[]}`, want: &alert.Group{Status: "firing", Alerts: []alert.Alert{}}},
		{name: "version 3", in: `{"version":"3","status":"firing","alerts":[]}`, wantErr: `version "3" is not supported`},
		{name: "no version", in: `{"status":"firing","alerts":[]}`, wantErr: `version "" is not supported`},
		{name: "unknown field", in: `{"version":"4","status":"firing","alerts":[],"extra":1}`, wantErr: `unknown field "extra"`},
		{name: "unknown alert field", in: `{"version":"4","status":"firing","alerts":[{"value":1}]}`, wantErr: `unknown field "value"`},
		{name: "trailing data", in: `{"version":"4","status":"firing","alerts":[]} {}`, wantErr: "something follows"},
		{name: "not an object", in: `[]`, wantErr: "malformed payload"},
		{name: "empty", in: ``, wantErr: "malformed payload"},
		{name: "bad group status", in: `{"version":"4","status":"burning","alerts":[]}`, wantErr: `status "burning"`},
		{name: "bad alert status", in: `{"version":"4","status":"firing","alerts":[{"status":"x","fingerprint":"ab","startsAt":"2026-03-01T10:00:00Z"}]}`,
			wantErr: `alert 0: status "x"`},
		{name: "no fingerprint", in: `{"version":"4","status":"firing","alerts":[{"status":"firing","startsAt":"2026-03-01T10:00:00Z"}]}`,
			wantErr: "alert 0: fingerprint"},
		{name: "fingerprint not hex", in: `{"version":"4","status":"firing","alerts":[{"status":"firing","fingerprint":"../x","startsAt":"2026-03-01T10:00:00Z"}]}`,
			wantErr: "alert 0: fingerprint"},
		{name: "no start", in: `{"version":"4","status":"firing","alerts":[{"status":"firing","fingerprint":"ab"}]}`, wantErr: "startsAt missing"},
		{name: "too many alerts", lim: alert.Limits{MaxAlerts: 1},
			in:      `{"version":"4","status":"firing","alerts":[{"status":"firing","fingerprint":"ab","startsAt":"2026-03-01T10:00:00Z"},{}]}`,
			wantErr: "2 alerts: at most 1"},
		{name: "too many labels", lim: alert.Limits{MaxPairs: 1},
			in:      `{"version":"4","status":"firing","alerts":[{"status":"firing","fingerprint":"ab","startsAt":"2026-03-01T10:00:00Z","labels":{"a":"1","b":"2"}}]}`,
			wantErr: "alert 0: labels: 2 pairs"},
		{name: "annotation too long", lim: alert.Limits{MaxValueBytes: 4},
			in:      `{"version":"4","status":"firing","alerts":[{"status":"firing","fingerprint":"ab","startsAt":"2026-03-01T10:00:00Z","annotations":{"summary":"12345"}}]}`,
			wantErr: "alert 0: annotations: summary: value longer than 4 bytes"},
		{name: "empty label name",
			in:      `{"version":"4","status":"firing","alerts":[{"status":"firing","fingerprint":"ab","startsAt":"2026-03-01T10:00:00Z","labels":{"":"1"}}]}`,
			wantErr: "alert 0: labels: name"},
		{name: "too large", lim: alert.Limits{MaxBytes: 32}, in: firing, wantErr: "too large"},
		{name: "too large after the object", lim: alert.Limits{MaxBytes: 45}, in: `{"version":"4","status":"firing","alerts":[]}` + strings.Repeat(" ", 10),
			wantErr: "too large"},
		{name: "too large in whitespace after the object", lim: alert.Limits{MaxBytes: 1 << 10},
			in: `{"version":"4","status":"firing","alerts":[]}` + strings.Repeat(" ", 64<<10), wantErr: "too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := alert.Decode(strings.NewReader(tt.in), tt.lim)
			if tt.wantErr != "" {
				if tt.wantErr == "too large" {
					if !errors.Is(err, alert.ErrTooLarge) {
						t.Fatalf("Decode: %v, want ErrTooLarge", err)
					}
					return
				}
				var ae *alert.Error
				if !errors.As(err, &ae) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Decode: %v, want an *alert.Error saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Decode (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzDecode checks that Decode never panics, and that whatever it accepts is within its limits
// and redacted.
func FuzzDecode(f *testing.F) {
	f.Add(firing)
	f.Add(`{"version":"4","status":"resolved","alerts":[{"status":"resolved","fingerprint":"ab","startsAt":"2026-03-01T10:00:00Z","endsAt":"2026-03-01T10:05:00Z"}]}`)
	f.Add(`{"version":"4","status":"firing","alerts":[{"status":"firing","fingerprint":"ab","startsAt":"2026-03-01T10:00:00Z","annotations":{"token":"x"}}]}`)
	f.Add(`{"version":"4"`)
	lim := alert.Limits{MaxBytes: 4096, MaxAlerts: 4, MaxPairs: 4, MaxNameBytes: 16, MaxValueBytes: 64}
	f.Fuzz(func(t *testing.T, in string) {
		g, err := alert.Decode(strings.NewReader(in), lim)
		if err != nil {
			var ae *alert.Error
			if !errors.Is(err, alert.ErrTooLarge) && !errors.As(err, &ae) {
				t.Fatalf("Decode: %v is neither ErrTooLarge nor an *alert.Error", err)
			}
			return
		}
		if int64(len(in)) > lim.MaxBytes {
			t.Fatalf("accepted %d bytes, more than %d", len(in), lim.MaxBytes)
		}
		if len(g.Alerts) > lim.MaxAlerts {
			t.Fatalf("accepted %d alerts", len(g.Alerts))
		}
		for _, a := range g.Alerts {
			if a.Fingerprint == "" || a.StartsAt.IsZero() || (a.Status == alert.Resolved) == a.EndsAt.IsZero() {
				t.Fatalf("accepted alert %+v", a)
			}
			if len(a.Labels) > lim.MaxPairs || len(a.Annotations) > lim.MaxPairs {
				t.Fatalf("accepted alert with %d labels, %d annotations", len(a.Labels), len(a.Annotations))
			}
			if v, ok := a.Annotations["token"]; ok && v != "[redacted]" {
				t.Fatalf("annotation token kept: %q", v)
			}
		}
	})
}
