package rules

import (
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// TestRestartFromALastStateAlone: a describe pasted from "Last State:" on (neither the current
// state nor the restart count) shows a container that restarted, or is about to; one whose
// current state is in the paste, waiting to start again with no restart counted, does not.
func TestRestartFromALastStateAlone(t *testing.T) {
	t.Parallel()
	const head = "Name:         crm-7d9f8-x2x\nNamespace:    web\nContainers:\n  crm:\n    Image:          crm:8\n"
	const last = "    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    7\n" +
		"      Started:      Thu, 10 Dec 2020 17:10:37 +1100\n      Finished:     Thu, 10 Dec 2020 17:14:28 +1100\n"
	for _, tt := range []struct {
		name, paste string
		want        string // the evidence's value, "" for no container_restarted
	}{
		{"the last state alone", head + last, "restarted, or about to"},
		{"running again, no count", head + "    State:          Running\n      Started:      Thu, 10 Dec 2020 17:14:40 +1100\n" + last,
			"restarted (a last termination, and running again"},
		{"waiting, none counted", head + "    State:          Waiting\n      Reason:       CrashLoopBackOff\n" + last + "    Ready:          False\n    Restart Count:  0\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := Run(model(t, tt.paste), analysis.Options{})
			var got []analysis.Symptom
			for _, s := range rep.Symptoms {
				if s.Kind == analysis.ContainerRestarted {
					got = append(got, s)
				}
			}
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("container_restarted %+v, want none", got)
			case tt.want == "":
			case len(got) != 1:
				t.Fatalf("%d container_restarted symptoms, want 1: %v", len(got), kinds(rep.Symptoms))
			case len(got[0].Objects) != 1 || got[0].Objects[0].Name != "crm-7d9f8-x2x" || len(got[0].Evidence) == 0 ||
				!strings.HasPrefix(got[0].Evidence[0].Value, tt.want) || !strings.Contains(got[0].Evidence[0].Value, "Error, exit code 7"):
				t.Errorf("symptom %+v, want crm-7d9f8-x2x with evidence %q…", got[0], tt.want)
			}
		})
	}
}

// TestRestartCutAtItsLastState: a describe cut right after "Last State: Terminated" shows a
// restart, and no exit code: the symptom says so, and carries none (not a 0 it never read).
func TestRestartCutAtItsLastState(t *testing.T) {
	t.Parallel()
	paste := "Name:         kube-dns-v20-bdcfg\nNamespace:    kube-system\nContainers:\n  kubedns:\n    Image:          kubedns-amd64:1.8\n" +
		"    State:          Running\n      Started:      Tue, 25 Aug 2020 08:20:35 +0000\n    Last State:     Terminated\n"
	rep := Run(model(t, paste), analysis.Options{})
	var got []analysis.Symptom
	for _, s := range rep.Symptoms {
		if s.Kind == analysis.ContainerRestarted {
			got = append(got, s)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d container_restarted symptoms, want 1: %v", len(got), kinds(rep.Symptoms))
	}
	if d := got[0].Details; d.ExitCode != nil || d.Reason != "" {
		t.Errorf("details %+v: an exit code or reason the paste does not hold", d)
	}
	if v := got[0].Evidence[0].Value; !strings.Contains(v, "its reason and exit code are not in the input") || strings.Contains(v, "exit code 0") {
		t.Errorf("evidence %q", v)
	}
}
