package history

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/fixtures"
)

// span is a span as "tone from–to" (to empty when it lasts to the window's end), in UTC.
func span(s Span) string {
	out := s.Tone + " " + s.From.UTC().Format(time.RFC3339) + "–"
	if !s.To.IsZero() {
		out += s.To.UTC().Format(time.RFC3339)
	}
	return out
}

// spansOf are the spans of the lanes of a group, by lane name, each as span writes it, ended
// at the window's end (end).
func spansOf(g Group, end time.Time) map[string][]string {
	out := map[string][]string{}
	for _, l := range g.Lanes {
		for _, s := range l.Spans {
			if s.To.Equal(end) {
				s.To = time.Time{}
			}
			out[l.Name] = append(out[l.Name], span(s))
		}
	}
	return out
}

// TestEvictedHubTimes: IL-0070's hub pod, created on 30 January and evicted at 17:06 on 1
// February, is drawn Failed only from 17:06 and unknown before (not Failed since it was
// created); its DisruptionTarget condition, the eviction, is trouble from 17:06; its container
// ran from its start to 17:06, then is terminated.
func TestEvictedHubTimes(t *testing.T) {
	h, ok := Build(Input{Model: fixtures.IL0070Model(t)}, Object{Kind: "Pod", Namespace: "prod", Name: "hub-8sr9zr4gx7-js2fw"})
	if !ok {
		t.Fatal("no history of the hub pod")
	}
	const created, evicted = "2023-01-30T09:12:44Z", "2023-02-01T17:06:00Z"
	got := spansOf(h.Groups[0], h.To)
	want := map[string][]string{
		"status (snapshot)":          {"unknown " + created + "–" + evicted, "bad " + evicted + "–"},
		"condition DisruptionTarget": {"unknown " + created + "–" + evicted, "bad " + evicted + "–"},
		"condition Ready":            {"unknown " + created + "–" + evicted, "bad " + evicted + "–"},
		"condition ContainersReady":  {"unknown " + created + "–" + evicted, "bad " + evicted + "–"},
		// The second unknown between creation and these, wholly before the window, is not kept.
		"condition Initialized":      {"ok 2023-01-30T09:12:45Z–"},
		"condition PodScheduled":     {"ok 2023-01-30T09:12:45Z–"},
		"container hub · restarts 0": {"info 2023-01-30T09:13:05Z–" + evicted, "bad " + evicted + "–"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("spans (-want +got):\n%s", d)
	}
	if s := h.Groups[0].Lanes[0].Spans; len(s) == 2 && s[1].State[:len("Failed (Evicted)")] != "Failed (Evicted)" {
		t.Errorf("the state from 17:06 is %q", s[1].State)
	}
}

// TestConditionTones: a condition reads by what its type means; True is trouble for some.
func TestConditionTones(t *testing.T) {
	T, F, U := corev1.ConditionTrue, corev1.ConditionFalse, corev1.ConditionUnknown
	for _, tt := range []struct {
		pod  corev1.PodConditionType
		node corev1.NodeConditionType
		s    corev1.ConditionStatus
		want string
	}{
		{pod: corev1.DisruptionTarget, s: T, want: ToneBad},
		{pod: corev1.DisruptionTarget, s: F, want: ToneOK},
		{pod: corev1.PodReady, s: T, want: ToneOK},
		{pod: corev1.PodReady, s: F, want: ToneBad},
		{pod: corev1.PodReady, s: U, want: ToneWarning},
		{pod: corev1.ContainersReady, s: F, want: ToneBad},
		{pod: corev1.PodScheduled, s: F, want: ToneBad},
		{pod: corev1.PodInitialized, s: F, want: ToneWarning},
		{pod: corev1.PodResizePending, s: T, want: ToneWarning},
		{pod: corev1.PodResizeInProgress, s: T, want: ToneInfo},
		{pod: "example.com/gate", s: T, want: ToneOK},
		{pod: "example.com/gate", s: F, want: ToneWarning},
		{node: corev1.NodeReady, s: T, want: ToneOK},
		{node: corev1.NodeReady, s: F, want: ToneBad},
		{node: corev1.NodeReady, s: U, want: ToneBad},
		{node: corev1.NodeMemoryPressure, s: T, want: ToneBad},
		{node: corev1.NodeMemoryPressure, s: F, want: ToneOK},
		{node: corev1.NodeDiskPressure, s: T, want: ToneBad},
		{node: corev1.NodePIDPressure, s: T, want: ToneBad},
		{node: corev1.NodePIDPressure, s: U, want: ToneWarning},
		{node: corev1.NodeNetworkUnavailable, s: T, want: ToneBad},
		{node: corev1.NodeMaintenancePlanned, s: T, want: ToneInfo},
		{node: "KernelDeadlock", s: T, want: ToneBad},
		{node: "KernelDeadlock", s: F, want: ToneOK},
	} {
		var got string
		if tt.pod != "" {
			got = podConditionTone(tt.pod, tt.s)
		} else {
			got = nodeConditionTone(tt.node, tt.s)
		}
		if got != tt.want {
			t.Errorf("%s%s=%s: %s, want %s", tt.pod, tt.node, tt.s, got, tt.want)
		}
	}
}

// TestKnownFrom: each state of a pod is drawn from when it is known to have begun, unknown
// from the pod's creation to then: a running pod's state from its container's start (merely
// running until ContainersReady turned True, ready since; restarted, a warning, not bad for
// how its container last stopped), a restarted container's last run and the time it waited
// to restart; a Failed pod that records no time of its failure from the latest time of the
// evidence, an evicted one from the event of its eviction; a pod known since its creation has
// no unknown time.
func TestKnownFrom(t *testing.T) {
	at := func(m int) time.Time { return t2.Add(time.Duration(m) * time.Minute) }
	ts := func(m int) string { return at(m).Format(time.RFC3339) }
	pod := func(name string, status corev1.PodStatus) *cluster.Object {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "prod", CreationTimestamp: metav1.NewTime(at(0))}, Status: status}
		return &cluster.Object{APIVersion: "v1", Kind: cluster.KindPod, Namespace: "prod", Name: name, Pod: cluster.PodOf(p)}
	}
	restarted := pod("restarted", corev1.PodStatus{Phase: corev1.PodRunning, StartTime: &metav1.Time{Time: at(1)},
		Conditions: []corev1.PodCondition{{Type: corev1.ContainersReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(at(9))}},
		ContainerStatuses: []corev1.ContainerStatus{{Name: "hub", Ready: true, RestartCount: 1,
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(at(7))}},
			LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "OOMKilled", ExitCode: 137,
				StartedAt: metav1.NewTime(at(2)), FinishedAt: metav1.NewTime(at(5))}}}}})
	failed := pod("failed", corev1.PodStatus{Phase: corev1.PodFailed, Reason: "Evicted"})
	pending := pod("pending", corev1.PodStatus{Phase: corev1.PodPending})
	evicted := pod("evicted", corev1.PodStatus{Phase: corev1.PodFailed, Reason: "Evicted"})
	ev := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "evicted.1", Namespace: "prod"}, Reason: "Evicted", Type: "Warning",
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "prod", Name: "evicted"}, FirstTimestamp: metav1.NewTime(at(6))}
	end := at(20)
	in := Input{Model: cluster.NewModel(nil, []*cluster.Object{restarted, failed, pending, evicted,
		{APIVersion: "v1", Kind: cluster.KindEvent, Namespace: "prod", Name: ev.Name, Event: cluster.EventOf(ev)}}), Report: analysis.Report{Inputs: analysis.Inputs{From: &t2, To: &end}}}
	for _, tt := range []struct {
		name string
		want map[string][]string
	}{
		{"restarted", map[string][]string{
			"status (snapshot)":          {"unknown " + ts(0) + "–" + ts(9), "warning " + ts(9) + "–"}, // restarted, not failing
			"condition ContainersReady":  {"unknown " + ts(0) + "–" + ts(9), "ok " + ts(9) + "–"},
			"container hub · restarts 1": {"unknown " + ts(0) + "–" + ts(2), "info " + ts(2) + "–" + ts(5), "warning " + ts(5) + "–" + ts(7), "info " + ts(7) + "–" + ts(9), "ok " + ts(9) + "–"},
		}},
		{"failed", map[string][]string{"status (snapshot)": {"unknown " + ts(0) + "–" + ts(20), "bad " + ts(20) + "–"}}},
		{"pending", map[string][]string{"status (snapshot)": {"warning " + ts(0) + "–"}}},
		{"evicted", map[string][]string{"status (snapshot)": {"unknown " + ts(0) + "–" + ts(6), "bad " + ts(6) + "–"}}}, // the kubelet's event
	} {
		t.Run(tt.name, func(t *testing.T) {
			h, ok := Build(in, Object{Kind: "Pod", Namespace: "prod", Name: tt.name})
			if !ok {
				t.Fatal("no history")
			}
			if d := cmp.Diff(tt.want, spansOf(h.Groups[0], h.To)); d != "" {
				t.Errorf("spans (-want +got):\n%s", d)
			}
		})
	}
}

// TestUnknownBefore: the time from an object's creation to its lane's first known state is
// unknown; a lane known since creation, or of an object whose creation is not known, has no
// unknown time.
func TestUnknownBefore(t *testing.T) {
	l := Lane{Name: "x", Spans: []Span{{From: t2, State: "Failed", Tone: ToneBad}}}
	got := unknownBefore(l, t1)
	if len(got.Spans) != 2 || got.Spans[0].Tone != ToneUnknown || !got.Spans[0].From.Equal(t1) || !got.Spans[0].To.Equal(t2) || got.Spans[1].Tone != ToneBad {
		t.Errorf("unknownBefore: %+v", got.Spans)
	}
	for _, from := range []time.Time{t2, t2.Add(time.Second), {}} {
		if got := unknownBefore(l, from); len(got.Spans) != 1 {
			t.Errorf("unknownBefore from %s: %+v", from, got.Spans)
		}
	}
}

// TestToldSince: a container's waiting reason is known from the first event after a time that
// tells it, of its own container (or of none named), of a reason that tells that wait.
func TestToldSince(t *testing.T) {
	ev := func(reason, field string, m int) *cluster.Event {
		return &cluster.Event{Reason: reason, InvolvedObject: cluster.ObjectReference{Kind: "Pod", FieldPath: field},
			FirstTimestamp: cluster.InstantOf(t2.Add(time.Duration(m) * time.Minute))}
	}
	events := []*cluster.Event{ev("BackOff", "spec.containers{sidecar}", 1), ev("Pulling", "", 2),
		ev("BackOff", "spec.containers{hub}", 5), ev("BackOff", "", 9), ev("Failed", "spec.containers{hub}", -3)}
	for _, tt := range []struct {
		reason string
		want   int // minutes after t2; -1 none
	}{
		{"ImagePullBackOff", 5},
		{"CrashLoopBackOff", 5},
		{"ErrImagePull", -1}, // its Failed was before
		{"ContainerCreating", -1},
	} {
		got := toldSince(events, "hub", tt.reason, t2)
		if want := t2.Add(time.Duration(tt.want) * time.Minute); tt.want < 0 && !got.IsZero() || tt.want >= 0 && !got.Equal(want) {
			t.Errorf("%s: %s, want %d minutes after", tt.reason, got, tt.want)
		}
	}
}
