package text

import (
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/lazyre"
)

// fieldTable reads pods printed field by field: `-o custom-columns` (with its header) and
// `-o jsonpath` (without one). The fields are JSON paths into the pod, from the command line
// when it was pasted, else from the header's column names.
type fieldTable struct {
	paths  []string // one JSON path a cell, in order
	starts []int    // for a header: where each column starts, to cut rows that align to it
}

// headerPaths are the JSON paths that custom-columns headers people write usually stand for.
var headerPaths = map[string]string{
	"NAMESPACE": ".metadata.namespace", "NS": ".metadata.namespace",
	"NAME": ".metadata.name", "POD": ".metadata.name", "PODNAME": ".metadata.name", "POD_NAME": ".metadata.name",
	"STATUS": "status", "PHASE": ".status.phase", "REASON": ".status.reason", "MESSAGE": ".status.message",
	"NODE": ".spec.nodeName", "NODENAME": ".spec.nodeName", "NODE_NAME": ".spec.nodeName",
	"QOS": ".status.qosClass", "IP": ".status.podIP", "RESTARTS": ".status.containerStatuses[0].restartCount",
}

// newColumnsTable returns a reader for a custom-columns table whose header is s, or nil. The
// command's custom-columns spec names the fields; without it, the header must name a pod's
// name and its status, phase or reason.
func (p *parser) newColumnsTable(s string) *fieldTable {
	cols := headerColumns(s)
	if len(cols) < 2 {
		return nil
	}
	var paths []string
	if spec, ok := strings.CutPrefix(p.cmdOutput(), "custom-columns="); ok {
		byName := map[string]string{}
		for _, c := range strings.Split(spec, ",") {
			if name, path, ok := strings.Cut(c, ":"); ok {
				byName[strings.ToUpper(name)] = path
			}
		}
		for _, c := range cols {
			paths = append(paths, byName[c])
		}
	} else {
		if !slices.Contains(cols, "NAME") && !slices.Contains(cols, "POD") {
			return nil
		}
		if !slices.Contains(cols, "STATUS") && !slices.Contains(cols, "PHASE") && !slices.Contains(cols, "REASON") {
			return nil
		}
		if p.cmd != nil && p.cmd.kind() != "" && p.cmd.kind() != cluster.KindPod {
			return nil
		}
		for _, c := range cols {
			paths = append(paths, headerPaths[c])
		}
	}
	t := &fieldTable{paths: paths}
	for _, tk := range tokens(s) {
		t.starts = append(t.starts, tk.start)
	}
	if len(t.starts) != len(cols) { // a two-word column name: cut by tokens instead
		t.starts = nil
	}
	return t
}

// jsonpathRe finds the groups of a jsonpath template: a field, a quoted literal, range, end.
var jsonpathRe = lazyre.New(`\{([^{}]*)\}`)

// newJSONPathRows returns a reader of the output of the command's -o jsonpath template, or nil
// when the command printed none, or its template reads nothing of a pod.
func (p *parser) newJSONPathRows() *fieldTable {
	tmpl, ok := strings.CutPrefix(p.cmdOutput(), "jsonpath=")
	if !ok || p.cmd.kind() != cluster.KindPod {
		return nil
	}
	var paths []string
	for _, m := range jsonpathRe.FindAllStringSubmatch(tmpl, -1) {
		if g := strings.TrimSpace(m[1]); strings.HasPrefix(g, ".") {
			paths = append(paths, strings.TrimPrefix(g, ".items[*]"))
		}
	}
	if !slices.Contains(paths, ".metadata.name") {
		return nil
	}
	return &fieldTable{paths: paths}
}

// cmdOutput is the -o of the last command, or "".
func (p *parser) cmdOutput() string {
	if p.cmd == nil {
		return ""
	}
	return p.cmd.output
}

func (t *fieldTable) row(p *parser, ln line) (bool, error) {
	cells := t.cells(ln.text)
	if len(cells) == 0 {
		return false, nil
	}
	pod := &corev1.Pod{}
	status := ""
	for i, path := range t.paths {
		if i >= len(cells) {
			break
		}
		v := cells[i]
		if isNone(v) {
			continue
		}
		switch path {
		case ".metadata.name":
			pod.Name = v
		case ".metadata.namespace":
			pod.Namespace = v
		case ".status.phase":
			pod.Status.Phase = corev1.PodPhase(v)
		case "status":
			status = v
		case ".status.reason":
			pod.Status.Reason = v
		case ".status.message":
			pod.Status.Message = v
		case ".spec.nodeName":
			pod.Spec.NodeName = v
		case ".status.podIP":
			pod.Status.PodIP = v
		case ".status.hostIP":
			pod.Status.HostIP = v
		case ".status.qosClass":
			pod.Status.QOSClass = corev1.PodQOSClass(v)
		case ".status.containerStatuses[0].restartCount", ".status.containerStatuses[*].restartCount":
			if n, err := strconv.ParseInt(strings.Fields(v)[0], 10, 32); err == nil {
				pod.Status.ContainerStatuses = []corev1.ContainerStatus{{RestartCount: int32(n)}}
			}
		}
	}
	if !objectNameRe.MatchString(pod.Name) {
		return pod.Name == "NAME" || pod.Name == "POD", nil // a repeated header
	}
	switch phase := corev1.PodPhase(status); {
	case status == "":
	case phase == corev1.PodPending || phase == corev1.PodRunning || phase == corev1.PodSucceeded || phase == corev1.PodFailed:
		pod.Status.Phase = phase
	default:
		if len(pod.Status.ContainerStatuses) == 0 {
			pod.Status.ContainerStatuses = []corev1.ContainerStatus{{}}
		}
		p.applyStatus(pod, status, 0, int(pod.Status.ContainerStatuses[0].RestartCount))
	}
	if pod.Status.Reason == "Evicted" && pod.Status.Phase == "" {
		pod.Status.Phase = corev1.PodFailed // kubectl shows the reason of a failed pod
	}
	if pod.Namespace == "" {
		pod.Namespace = p.cmdNamespace(cluster.KindPod)
	}
	if pod.Spec.NodeName != "" {
		setPodCondition(pod, corev1.PodScheduled, corev1.ConditionTrue, "")
	}
	return true, p.emitPod(pod, ln)
}

// cells cuts a row: at the header's column starts when the row aligns to them, else at runs
// of two or more spaces (tabs were expanded); the last field takes the rest of the line.
func (t *fieldTable) cells(s string) []string {
	if t.starts != nil && len(s) > t.starts[len(t.starts)-1] && aligned(s, t.starts) {
		out := make([]string, len(t.starts))
		for i, st := range t.starts {
			end := len(s)
			if i+1 < len(t.starts) {
				end = t.starts[i+1]
			}
			out[i] = strings.TrimSpace(s[st:end])
		}
		return out
	}
	parts := cellsRe.Split(strings.TrimSpace(s), len(t.paths))
	if len(parts) == 1 && parts[0] == "" {
		return nil
	}
	return parts
}

// aligned reports whether each column start of a header falls at the start of a cell of s
// (or in the spaces of an empty one).
func aligned(s string, starts []int) bool {
	for _, st := range starts[1:] {
		if st >= len(s) || s[st] == ' ' || s[st-1] != ' ' {
			return false
		}
	}
	return true
}
