package alert

import "testing"

func TestSelector(t *testing.T) {
	sel, err := ParseSelector(" severity = critical, team=data ")
	if err != nil || sel.String() != "severity=critical,team=data" {
		t.Fatalf("%v, %v", sel, err)
	}
	for _, tt := range []struct {
		labels map[string]string
		want   bool
	}{
		{map[string]string{"severity": "critical", "team": "data", "alertname": "KubePodCrashLooping"}, true},
		{map[string]string{"severity": "critical"}, false},
		{map[string]string{"severity": "warning", "team": "data"}, false},
		{nil, false},
	} {
		if got := sel.Matches(tt.labels); got != tt.want {
			t.Errorf("%v: %v, want %v", tt.labels, got, tt.want)
		}
	}
	if empty, err := ParseSelector(""); err != nil || empty.Matches(map[string]string{"a": "b"}) {
		t.Errorf("the empty selector: %v picks, err %v", empty, err)
	}
	for _, bad := range []string{"severity", "=critical", "severity=", "sev-erity=critical", "a=b,,c=d"} {
		if _, err := ParseSelector(bad); err == nil {
			t.Errorf("%q: taken", bad)
		}
	}
}
