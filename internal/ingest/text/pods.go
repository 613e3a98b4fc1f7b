package text

import (
	"slices"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/catalog"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/lazyre"
)

var (
	readyRe    = lazyre.New(`^(\d{1,4})/(\d{1,4})$`)
	restartsRe = lazyre.New(`^(\d{1,9})(?:\s+\((\S+)\s+ago\))?$`)
)

// podsTable reads the rows of a `kubectl get pods` table: [NAMESPACE] NAME READY STATUS
// RESTARTS AGE, with -o wide's IP NODE NOMINATED NODE READINESS GATES, and any extra columns
// (--show-labels, -L) ignored.
type podsTable struct {
	cols    []string
	wide    bool  // the NODE column is shown
	partial *line // a long row that stopped short: the next line may hold its rest
	rows    int   // the rows read
}

// podsHeaderRest are the columns of a pods header that a narrow terminal or a ticket can wrap
// onto the next line: "… STATUS RESTARTS" / "AGE IP NODE NOMINATED NODE READINESS GATES".
var podsHeaderRest = []string{"RESTARTS", "AGE", "IP", "NODE", "NOMINATED NODE", "READINESS GATES"}

// newPodsTable returns a table reader when s is a pods header, or nil.
func newPodsTable(s string) *podsTable {
	cols := headerColumns(s)
	if len(cols) == 0 || (cols[0] != "NAME" && cols[0] != "NAMESPACE") {
		return nil
	}
	for _, c := range []string{"NAME", "READY", "STATUS", "RESTARTS"} {
		if !slices.Contains(cols, c) {
			return nil
		}
	}
	return &podsTable{cols: cols, wide: slices.Contains(cols, "NODE")}
}

func (t *podsTable) row(p *parser, ln line) (bool, error) {
	if t.partial != nil {
		first := *t.partial
		t.partial = nil
		if ok, err := t.row(p, joinRow(first, ln)); ok || err != nil {
			return ok, err
		}
		first.eol = false // not continued: read as far as it goes
		if _, err := t.row(p, first); err != nil {
			return false, err
		}
	}
	if t.rows == 0 && t.partial == nil {
		if rest := headerColumns(ln.text); len(rest) > 0 && !slices.ContainsFunc(rest, func(c string) bool {
			return !slices.Contains(podsHeaderRest, c) || slices.Contains(t.cols, c)
		}) {
			t.cols = append(t.cols, rest...) // the header's wrapped rest
			t.wide = t.wide || slices.Contains(rest, "NODE")
			return true, nil
		}
	}
	cells := cellsOf(ln.text)
	if len(cells) < len(t.cols) && len(cells) >= 2 && ln.eol && ln.raw >= wrapWidth {
		t.partial = &ln // a row wrapped onto the next line
		return true, nil
	}
	if len(cells) != len(t.cols) {
		if len(cells) < len(t.cols) && !ln.eol && len(cells) >= 4 {
			// The last row of a paste cut short: read what it has.
			cells = append(cells, make([]string, len(t.cols)-len(cells))...)
		} else {
			return headerColumns(ln.text) != nil && len(cells) == len(t.cols), nil
		}
	}
	f := map[string]string{}
	for i, c := range t.cols {
		f[c] = cells[i]
	}
	if f["READY"] == "READY" {
		return true, nil // a repeated header
	}
	pod, listed, ok := p.podRow(f, t.wide)
	if !ok {
		return false, nil
	}
	t.rows++
	return true, p.emitListed(pod, listed, ln)
}

// joinRow is a row a wrap cut into first and ln, as one line: first's number and offset, the
// cells of both.
func joinRow(first, ln line) line {
	joined := ln
	joined.text, joined.num, joined.off = first.text+"   "+strings.TrimSpace(ln.text), first.num, first.off
	return joined
}

// close reads a row held for its continuation as far as it goes.
func (t *podsTable) close(p *parser) error {
	if t.partial == nil {
		return nil
	}
	first := *t.partial
	t.partial = nil
	first.eol = false
	_, err := t.row(p, first)
	return err
}

// podRows reads `kubectl get pods` rows without their header, as grep leaves them and as
// people paste a few rows: [NAMESPACE] NAME READY STATUS RESTARTS AGE [IP NODE NOMINATED
// READINESS], told apart from other text by the READY and RESTARTS cells.
// A row a narrow terminal wrapped after its READY cell ("ns  web-1  0/1" / "Evicted  0  38d
// …") is held until the next line gives its rest.
type podRows struct {
	half *line // the first part of a wrapped row
}

func (t *podRows) row(p *parser, ln line) (bool, error) {
	if t.half != nil {
		joined := joinRow(*t.half, ln)
		t.half = nil
		if f, wide, ok := headerlessPodCells(joined); ok {
			if pod, listed, ok := p.podRow(f, wide); ok {
				return true, p.emitListed(pod, listed, joined)
			}
		}
	}
	if halfPodRow(ln) {
		t.half = &ln
		return true, nil
	}
	f, wide, ok := headerlessPodCells(ln)
	if !ok {
		return false, nil
	}
	pod, listed, ok := p.podRow(f, wide)
	if !ok {
		return false, nil
	}
	return true, p.emitListed(pod, listed, ln)
}

// halfPodRow reports whether ln is the first part of a header-less pods row wrapped after its
// READY cell: [NAMESPACE] NAME READY, padded wide, and nothing else.
func halfPodRow(ln line) bool {
	cells := cellsOf(ln.text)
	if len(cells) < 2 || len(cells) > 3 || !ln.eol || ln.raw < wrapWidth || !readyRe.MatchString(cells[len(cells)-1]) {
		return false
	}
	for _, c := range cells[:len(cells)-1] {
		if !objectNameRe.MatchString(c) {
			return false
		}
	}
	return true
}

// objectNameRe is a pod, node or namespace name as pasted: DNS names, and the elided names
// people write when they redact ("jupyter-...-488").
var objectNameRe = lazyre.New(`^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$`)

// statusWordRe is a STATUS cell: "Running", "Init:0/1", "Init:CrashLoopBackOff", "Evicted".
var statusWordRe = lazyre.New(`^[A-Z][A-Za-z]*(?::[\w/-]+)?$`)

// headerlessPodCells maps a header-less pods row onto the columns of a pods table.
func headerlessPodCells(ln line) (f map[string]string, wide, ok bool) {
	cells := cellsOf(ln.text)
	for r := 1; r <= 2 && r < len(cells); r++ {
		if !readyRe.MatchString(cells[r]) {
			continue
		}
		if len(cells) == r+2 && troubleStatus(cells[r+1]) {
			// "kubeflow  training-operator-85…  0/1  OOMKilled": a row cut after its STATUS,
			// quoted alone, whose status is a reason the catalogue knows a container by.
			cells = append(slices.Clip(cells), "")
		} else if len(cells) < r+3 || (len(cells) < r+4 && ln.eol) {
			return nil, false, false // an age is required, unless the row was cut
		}
		f = map[string]string{"NAME": cells[r-1], "READY": cells[r], "STATUS": cells[r+1], "RESTARTS": cells[r+2]}
		if r == 2 {
			f["NAMESPACE"] = cells[0]
			if !objectNameRe.MatchString(cells[0]) {
				return nil, false, false
			}
		}
		if !objectNameRe.MatchString(strings.TrimPrefix(f["NAME"], "pod/")) || !statusWordRe.MatchString(f["STATUS"]) {
			return nil, false, false // kubectl get all names its pods "pod/<name>"
		}
		if len(cells) > r+3 {
			f["AGE"] = cells[r+3]
		}
		if rest := cells[min(r+4, len(cells)):]; len(rest) >= 2 {
			f["IP"], f["NODE"], wide = rest[0], rest[1], true
			if len(rest) >= 3 {
				f["NOMINATED NODE"] = rest[2]
			}
		}
		return f, wide, true
	}
	return nil, false, false
}

// troubleStatus reports whether a STATUS cell is a container's waiting or terminated reason
// the catalogue knows as a sign of a symptom (OOMKilled, CrashLoopBackOff, ErrImagePull), or
// Evicted: words that name a failing pod however short the row that shows them.
func troubleStatus(status string) bool {
	if status == "Evicted" {
		return true
	}
	for _, e := range catalog.Default().Words(status) {
		if e.Symptom != "" && slices.ContainsFunc(e.In, func(in string) bool { return in == "waiting" || in == "terminated" }) {
			return true
		}
	}
	return false
}

// cellsOf splits a table row into its cells: runs of spaces separate them, and a cell with a
// parenthesised group after it ("1 (114m ago)") stays whole.
func cellsOf(s string) []string {
	toks := tokens(s)
	var cells []string
	for i := 0; i < len(toks); {
		var w string
		w, i = glued(s, toks, i)
		cells = append(cells, w)
	}
	return cells
}

// podRow builds the pod a pods-table row describes, from its cells by column name; ok is
// false when the cells are not those of a pod row.
// listed is the age the row printed where the time of the paste is unknown (cluster.Object's
// ListedAge), else 0.
func (p *parser) podRow(f map[string]string, wide bool) (pod *corev1.Pod, listed time.Duration, ok bool) {
	rm, sm := readyRe.FindStringSubmatch(f["READY"]), restartsRe.FindStringSubmatch(f["RESTARTS"])
	if f["RESTARTS"] == "" && f["AGE"] == "" {
		sm = []string{"", "0", ""} // a row cut after its STATUS: no restarts shown
	}
	if rm == nil || sm == nil {
		return nil, 0, false
	}
	age, ageKnown, ok := parseAge(f["AGE"])
	if f["AGE"] != "" && !ok {
		return nil, 0, false
	}
	pod = &corev1.Pod{}
	// kubectl get all prints "pod/<name>".
	pod.Name, pod.Namespace = strings.TrimPrefix(f["NAME"], "pod/"), f["NAMESPACE"]
	if pod.Namespace == "" {
		pod.Namespace = p.cmdNamespace(cluster.KindPod)
	}
	if tm := p.ago(age, ageKnown); tm != nil {
		pod.CreationTimestamp = *tm
	} else if ageKnown {
		listed = age
	}
	if n := f["NODE"]; !isNone(n) && objectNameRe.MatchString(n) && !strings.HasSuffix(n, "-") {
		pod.Spec.NodeName = n
	}
	if !isNone(f["IP"]) {
		pod.Status.PodIP = f["IP"]
	}
	if !isNone(f["NOMINATED NODE"]) {
		pod.Status.NominatedNodeName = f["NOMINATED NODE"]
	}
	ready, _ := strconv.Atoi(rm[1])
	total, _ := strconv.Atoi(rm[2])
	restarts, _ := strconv.Atoi(sm[1])
	cs := make([]corev1.ContainerStatus, max(total, 1))
	for i := range cs {
		cs[i].Ready = i < ready
	}
	cs[0].RestartCount = int32(restarts)
	if d, known, ok := parseAge(sm[2]); ok && sm[2] != "" {
		// "5 (3m ago)": when the last restart was, if the capture time is known; a state with
		// no reason and no exit code, for the table gives neither.
		if tm := p.ago(d, known); tm != nil {
			cs[0].LastTerminationState.Terminated = &corev1.ContainerStateTerminated{FinishedAt: *tm}
		}
	}
	pod.Status.ContainerStatuses = cs
	p.applyStatus(pod, f["STATUS"], min(ready, len(cs)-1), restarts)
	_, waiting := waitingReasons[f["STATUS"]]
	switch {
	case pod.Spec.NodeName != "":
		setPodCondition(pod, corev1.PodScheduled, corev1.ConditionTrue, "")
	case waiting || strings.HasPrefix(f["STATUS"], "Init:"):
		// A container's waiting reason is the kubelet's: the pod is on a node, though the
		// table has no NODE column to say which.
		setPodCondition(pod, corev1.PodScheduled, corev1.ConditionTrue, "")
	case pod.Status.Phase == corev1.PodPending && f["STATUS"] == "Pending":
		// kubectl prints Pending when no container has a reason yet: not placed on a node,
		// as far as the table shows (a pod being set up prints ContainerCreating).
		setPodCondition(pod, corev1.PodScheduled, corev1.ConditionFalse, "")
	case wide && pod.Status.Phase == corev1.PodPending:
		setPodCondition(pod, corev1.PodScheduled, corev1.ConditionFalse, "")
	}
	return pod, listed, true
}

// cmdNamespace is the namespace the last command named for output of that kind, when the
// output does not say.
func (p *parser) cmdNamespace(kind string) string {
	c := p.cmd
	if c == nil || c.allNamespaces || c.namespace == "" || (c.kind() != "" && c.kind() != kind) {
		return ""
	}
	return c.namespace
}

// setPodCondition adds or replaces a pod condition.
func setPodCondition(pod *corev1.Pod, typ corev1.PodConditionType, st corev1.ConditionStatus, reason string) {
	c := corev1.PodCondition{Type: typ, Status: st, Reason: reason}
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == typ {
			pod.Status.Conditions[i] = c
			return
		}
	}
	pod.Status.Conditions = append(pod.Status.Conditions, c)
}

// waitingReasons are the STATUS values kubectl takes from a waiting container, with the pod
// phase they imply.
var waitingReasons = map[string]corev1.PodPhase{
	"CrashLoopBackOff": corev1.PodRunning, "RunContainerError": corev1.PodRunning,
	"ImagePullBackOff": corev1.PodPending, "ErrImagePull": corev1.PodPending,
	"ErrImageNeverPull": corev1.PodPending, "InvalidImageName": corev1.PodPending,
	"CreateContainerConfigError": corev1.PodPending, "CreateContainerError": corev1.PodPending,
	"ContainerCreating": corev1.PodPending, "PodInitializing": corev1.PodPending,
	"PreCreateHookError": corev1.PodPending, "PostStartHookError": corev1.PodRunning,
}

// terminatedReasons are the STATUS values kubectl takes from a terminated container.
var terminatedReasons = map[string]int32{
	"OOMKilled": 137, "Error": 1, "Completed": 0, "ContainerCannotRun": 128, "DeadlineExceeded": 0,
	"StartError": 128,
}

// applyStatus interprets the STATUS column: a pod phase, or the reason kubectl took from the
// container at index c (the first one not ready).
func (p *parser) applyStatus(pod *corev1.Pod, status string, c, restarts int) {
	st := &pod.Status
	cs := st.ContainerStatuses
	if phase, ok := waitingReasons[status]; ok {
		st.Phase = phase
		cs[c].State.Waiting = &corev1.ContainerStateWaiting{Reason: status}
		return
	}
	if code, ok := terminatedReasons[status]; ok {
		cs[c].State.Terminated = &corev1.ContainerStateTerminated{Reason: status, ExitCode: code}
		switch {
		case status == "Completed":
			st.Phase = corev1.PodSucceeded
		case restarts > 0:
			st.Phase = corev1.PodRunning // restartPolicy Always: between restarts
		default:
			st.Phase = corev1.PodFailed
		}
		return
	}
	if rest, ok := strings.CutPrefix(status, "Init:"); ok {
		st.Phase = corev1.PodPending
		ic := corev1.ContainerStatus{}
		if code, ok := terminatedReasons[rest]; ok {
			ic.State.Terminated = &corev1.ContainerStateTerminated{Reason: rest, ExitCode: code}
		} else if !readyRe.MatchString(rest) {
			ic.State.Waiting = &corev1.ContainerStateWaiting{Reason: rest}
		} else {
			ic.State.Running = &corev1.ContainerStateRunning{}
		}
		st.InitContainerStatuses = []corev1.ContainerStatus{ic}
		cs[c].State.Waiting = &corev1.ContainerStateWaiting{Reason: "PodInitializing"}
		return
	}
	switch status {
	case "Running":
		st.Phase = corev1.PodRunning
		for i := range cs {
			cs[i].State.Running = &corev1.ContainerStateRunning{}
		}
	case "Pending", "SchedulingGated":
		st.Phase = corev1.PodPending
		if status == "SchedulingGated" {
			setPodCondition(pod, corev1.PodScheduled, corev1.ConditionFalse, status)
		}
	case "Terminating":
		st.Phase = corev1.PodRunning
		t := metav1.Time{}
		if !p.now.IsZero() {
			t = metav1.NewTime(p.now)
		}
		pod.DeletionTimestamp = &t
	case "Succeeded", "Failed", "Unknown":
		st.Phase = corev1.PodPhase(status)
	case "NodeLost":
		st.Phase, st.Reason = corev1.PodUnknown, status
	default:
		switch catalogPlace(status) {
		case "waiting":
			// A waiting reason the table above does not list but the catalogue knows
			// (ImageInspectError, RegistryUnavailable).
			st.Phase = corev1.PodPending
			cs[c].State.Waiting = &corev1.ContainerStateWaiting{Reason: status}
			return
		case "terminated":
			cs[c].State.Terminated = &corev1.ContainerStateTerminated{Reason: status, ExitCode: 1}
			st.Phase = corev1.PodFailed
			if restarts > 0 {
				st.Phase = corev1.PodRunning
			}
			return
		}
		// Evicted, OutOfcpu, NodeAffinity, Shutdown, UnexpectedAdmissionError…: kubectl shows
		// status.reason, which the kubelet sets when it fails a pod.
		st.Phase, st.Reason = corev1.PodFailed, status
	}
}

// catalogPlace is where a container's reason stands, as the catalogue says of the word:
// "waiting", "terminated", or "" when it says neither.
func catalogPlace(word string) string {
	for _, e := range catalog.Default().Words(word) {
		for _, in := range e.In {
			if in == "waiting" || in == "terminated" {
				return in
			}
		}
	}
	return ""
}
