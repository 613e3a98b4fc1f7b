package text

import (
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/lazyre"
)

// nodesTable reads the rows of a `kubectl get nodes` table: NAME STATUS ROLES AGE VERSION,
// with -o wide's INTERNAL-IP … CONTAINER-RUNTIME, and the older layouts without ROLES
// (NAME STATUS AGE VERSION, NAME STATUS AGE). STATUS gives the Ready condition, and
// SchedulingDisabled the cordon.
type nodesTable struct {
	cols []string
}

// nodeStatusRe is a nodes STATUS cell: "Ready", "NotReady", "Unknown", with ",SchedulingDisabled".
var nodeStatusRe = lazyre.New(`^(Ready|NotReady|Unknown)((?:,\w+)*)$`)

// newNodesTable returns a table reader when s is a nodes header, or nil.
func newNodesTable(s string) *nodesTable {
	cols := headerColumns(s)
	if len(cols) < 3 || cols[0] != "NAME" || cols[1] != "STATUS" || slices.Contains(cols, "READY") {
		return nil
	}
	if !slices.Contains(cols, "VERSION") && !slices.Contains(cols, "ROLES") {
		return nil
	}
	return &nodesTable{cols: cols}
}

func (t *nodesTable) row(p *parser, ln line) (bool, error) {
	cells := cellsOf(ln.text)
	if len(cells) < 2 {
		return false, nil
	}
	f := map[string]string{}
	for i, c := range t.cols {
		if i < len(cells) {
			f[c] = cells[i]
		}
	}
	if len(cells) == len(t.cols)-1 && slices.Contains(t.cols, "ROLES") {
		// "<none>" roles printed as nothing by some versions: the columns after ROLES shift.
		i := slices.Index(t.cols, "ROLES")
		for j := i; j < len(cells); j++ {
			f[t.cols[j+1]] = cells[j]
		}
		f["ROLES"] = ""
	}
	m := nodeStatusRe.FindStringSubmatch(f["STATUS"])
	if m == nil || !objectNameRe.MatchString(f["NAME"]) {
		return f["NAME"] == "NAME", nil // a repeated header
	}
	nd := &corev1.Node{}
	nd.Name = f["NAME"]
	status := map[string]corev1.ConditionStatus{"Ready": corev1.ConditionTrue, "NotReady": corev1.ConditionFalse, "Unknown": corev1.ConditionUnknown}[m[1]]
	cond := corev1.NodeCondition{Type: corev1.NodeReady, Status: status}
	if status != corev1.ConditionTrue {
		cond.Message = "STATUS " + f["STATUS"] + " in kubectl get nodes"
	}
	nd.Status.Conditions = []corev1.NodeCondition{cond}
	nd.Spec.Unschedulable = strings.Contains(m[2], "SchedulingDisabled")
	for _, r := range strings.Split(f["ROLES"], ",") {
		if r = strings.TrimSpace(r); r != "" && !isNone(r) {
			setMap(&nd.Labels, "node-role.kubernetes.io/"+r, "")
		}
	}
	if d, known, ok := parseAge(f["AGE"]); ok {
		if tm := p.ago(d, known); tm != nil {
			nd.CreationTimestamp = *tm
		}
	}
	if v := f["VERSION"]; strings.HasPrefix(v, "v") {
		nd.Status.NodeInfo.KubeletVersion = v
	}
	if ip := f["INTERNAL-IP"]; !isNone(ip) && ip != "" {
		nd.Status.Addresses = append(nd.Status.Addresses, corev1.NodeAddress{Type: corev1.NodeInternalIP, Address: ip})
	}
	return true, p.emitNode(nd, nil, ln)
}
