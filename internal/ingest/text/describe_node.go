package text

import (
	"strings"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/lazyre"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// hostnameLabel is the label the kubelet puts on its node with its hostname.
const hostnameLabel = "kubernetes.io/hostname"

// cellsRe splits a row at runs of two or more spaces, the way kubectl's tabwriter pads cells.
var cellsRe = lazyre.New(`\s{2,}`)

// nodeFragment is a describe node without its Name line, held so that the fragments of one
// paste (corpus 31: a condition row, then the pods and allocation tables) become one node.
type nodeFragment struct {
	node  *corev1.Node
	alloc []cluster.Allocation
	ln    line
	pods  []podAt
}

// podAt is a pod with the line it was read from.
type podAt struct {
	pod *corev1.Pod
	ln  line
}

// describeNode builds the node of a `kubectl describe node` block (or fragment), the minimal
// pods of its Non-terminated Pods table, and its events.
func (p *parser) describeNode(roots []*node, b *block) error {
	nd := &corev1.Node{}
	var (
		pods  []podAt
		alloc []cluster.Allocation
	)
	for _, n := range roots {
		if describeNodeMeta(nd, n) {
			continue
		}
		switch n.key {
		case "Capacity":
			nd.Status.Capacity = resources(n.kids)
		case "Allocatable":
			nd.Status.Allocatable = resources(n.kids)
		case "System Info":
			systemInfo(&nd.Status.NodeInfo, n.kids)
		case "PodCIDR":
			nd.Spec.PodCIDR = noneEmpty(n.val)
		case "ProviderID":
			nd.Spec.ProviderID = noneEmpty(n.val)
		case "Non-terminated Pods":
			pods = p.nodePods(n)
		case "Allocated resources":
			alloc = allocated(n)
		case "":
			addNodeCondition(nd, n.text) // a condition row pasted without its table
		}
	}
	for _, pa := range pods {
		pa.pod.Spec.NodeName = nd.Name
	}
	if nd.Name == "" {
		// The rest of the node described just before, which a blank line or a cut split off
		// (kubectl describe prints one node's sections without blank lines between); else
		// the node the command named, or the one node the paste showed before.
		nd.Name = p.lastNode
		if nd.Name == "" {
			nd.Name = p.onlyNode()
		}
		if h := nd.Labels[hostnameLabel]; nd.Name == "" && nameLike(h) {
			// The kubelet's hostname label: the node's name wherever the kubelet registered
			// under its hostname (kubeadm, EKS, GKE, AKS), which a paste cut above its Name
			// still shows.
			nd.Name = h
		}
		for _, pa := range pods {
			pa.pod.Spec.NodeName = nd.Name
		}
	}
	if nd.Name == "" {
		return p.holdNode(nd, alloc, b.lines[0], pods)
	}
	p.lastNode = nd.Name
	if err := p.flushPendingNode(); err != nil {
		return err
	}
	if err := p.emitNodeAndPods(nd, alloc, b.lines[0], pods); err != nil {
		return err
	}
	owner := &ownerRef{kind: "Node", name: nd.Name}
	p.owner = owner
	return p.describeEvents(find(roots, "Events"), owner)
}

// describeNodeMeta sets what n, a top-level line of describe's, says of the node's metadata,
// taints, conditions and addresses; false when it says none of these.
func describeNodeMeta(nd *corev1.Node, n *node) bool {
	switch n.key {
	case "Name":
		nd.Name = n.val
	case "Roles":
		for _, r := range strings.Split(n.val, ",") {
			if r = strings.TrimSpace(r); !isNone(r) {
				setMap(&nd.Labels, "node-role.kubernetes.io/"+r, "")
			}
		}
	case "Labels":
		for k, v := range labelPairs(n.values()) {
			setMap(&nd.Labels, k, v)
		}
	case "Annotations":
		for k, v := range pairs(n.values(), ": ", "=") {
			setMap(&nd.Annotations, k, v)
		}
	case "CreationTimestamp":
		nd.CreationTimestamp, _ = parseTime(n.val)
	case "Taints":
		for _, it := range n.values() {
			k, v, e := splitTaint(it)
			if e != "" {
				nd.Spec.Taints = append(nd.Spec.Taints, corev1.Taint{Key: k, Value: v, Effect: e})
			}
		}
	case "Unschedulable":
		nd.Spec.Unschedulable = n.val == "true"
	case "Conditions":
		for _, k := range n.kids {
			addNodeCondition(nd, k.text)
		}
	case "Addresses":
		for _, k := range n.kids {
			if k.key != "" {
				nd.Status.Addresses = append(nd.Status.Addresses, corev1.NodeAddress{Type: corev1.NodeAddressType(k.key), Address: k.val})
			}
		}
	default:
		return false
	}
	return true
}

func (p *parser) emitNodeAndPods(nd *corev1.Node, alloc []cluster.Allocation, ln line, pods []podAt) error {
	if err := p.emitNode(nd, alloc, ln); err != nil {
		return err
	}
	for _, pa := range pods {
		if err := p.emitPod(pa.pod, pa.ln); err != nil {
			return err
		}
	}
	return nil
}

// holdNode merges a nameless node fragment into the one held back, if any.
func (p *parser) holdNode(nd *corev1.Node, alloc []cluster.Allocation, ln line, pods []podAt) error {
	f := p.pendingNode
	if f == nil {
		p.pendingNode = &nodeFragment{node: nd, alloc: alloc, ln: ln, pods: pods}
		return nil
	}
	if alloc != nil {
		f.alloc = alloc
	}
	h := f.node
	h.Status.Conditions = append(h.Status.Conditions, nd.Status.Conditions...)
	h.Spec.Taints = append(h.Spec.Taints, nd.Spec.Taints...)
	for k, v := range nd.Annotations {
		setMap(&h.Annotations, k, v)
	}
	for k, v := range nd.Labels {
		setMap(&h.Labels, k, v)
	}
	if nd.Status.Capacity != nil {
		h.Status.Capacity = nd.Status.Capacity
	}
	if nd.Status.Allocatable != nil {
		h.Status.Allocatable = nd.Status.Allocatable
	}
	f.pods = append(f.pods, pods...)
	return nil
}

// flushPendingNode emits the held nameless node fragment, if any.
func (p *parser) flushPendingNode() error {
	f := p.pendingNode
	if f == nil {
		return nil
	}
	p.pendingNode = nil
	return p.emitNodeAndPods(f.node, f.alloc, f.ln, f.pods)
}

// addNodeCondition reads "Type Status LastHeartbeatTime LastTransitionTime Reason Message".
func addNodeCondition(nd *corev1.Node, row string) {
	c := cellsRe.Split(strings.TrimSpace(row), 6)
	if len(c) < 2 || c[0] == "Type" || !isConditionStatus(c[1]) {
		return
	}
	cond := corev1.NodeCondition{Type: corev1.NodeConditionType(c[0]), Status: corev1.ConditionStatus(c[1])}
	if len(c) >= 4 {
		cond.LastHeartbeatTime, _ = parseTime(c[2])
		cond.LastTransitionTime, _ = parseTime(c[3])
	}
	if len(c) >= 5 {
		cond.Reason = c[4]
	}
	if len(c) >= 6 {
		cond.Message = c[5]
	}
	nd.Status.Conditions = append(nd.Status.Conditions, cond)
}

// nodePods reads the Non-terminated Pods table into minimal pods: one container carrying the
// row's requests and limits, so that capacity arithmetic works from a describe alone.
func (p *parser) nodePods(sec *node) []podAt {
	var out []podAt
	for _, k := range sec.kids {
		toks := tokens(k.text)
		var cells []string
		for i := 0; i < len(toks); {
			var w string
			w, i = glued(k.text, toks, i)
			cells = append(cells, w)
		}
		if len(cells) < 6 || !strings.HasSuffix(cells[2], "%)") {
			continue
		}
		req, lim := corev1.ResourceList{}, corev1.ResourceList{}
		addQuantity(req, corev1.ResourceCPU, cells[2])
		addQuantity(lim, corev1.ResourceCPU, cells[3])
		addQuantity(req, corev1.ResourceMemory, cells[4])
		addQuantity(lim, corev1.ResourceMemory, cells[5])
		pod := &corev1.Pod{}
		pod.Namespace, pod.Name = cells[0], cells[1]
		pod.Status.Phase = corev1.PodRunning
		c := corev1.Container{}
		if len(req) > 0 {
			c.Resources.Requests = req
		}
		if len(lim) > 0 {
			c.Resources.Limits = lim
		}
		pod.Spec.Containers = []corev1.Container{c}
		if len(cells) >= 7 {
			if d, known, ok := parseAge(cells[6]); ok {
				if t := p.ago(d, known); t != nil {
					pod.CreationTimestamp = *t
				}
			}
		}
		out = append(out, podAt{pod, k.ln})
	}
	return out
}

// addQuantity sets rl[name] from a "100m (5%)" cell; zero, kubectl's "not set", is left out.
func addQuantity(rl corev1.ResourceList, name corev1.ResourceName, cell string) {
	v, _, _ := strings.Cut(cell, " ")
	if q, err := resource.ParseQuantity(v); err == nil && !q.IsZero() {
		rl[name] = q
	}
}

// allocated reads the Allocated resources rows ("cpu  150m (7%)  1500m (75%)"), as printed.
func allocated(sec *node) []cluster.Allocation {
	var out []cluster.Allocation
	for _, k := range sec.kids {
		c := cellsRe.Split(strings.TrimSpace(k.text), -1)
		if len(c) != 3 || c[0] == "Resource" || strings.HasPrefix(c[0], "-") {
			continue
		}
		out = append(out, cluster.Allocation{Resource: c[0], Requests: c[1], Limits: c[2]})
	}
	return out
}

// systemInfo reads the System Info lines that identify versions.
func systemInfo(ni *corev1.NodeSystemInfo, kids []*node) {
	for _, k := range kids {
		switch k.key {
		case "Kernel Version":
			ni.KernelVersion = k.val
		case "OS Image":
			ni.OSImage = k.val
		case "Operating System":
			ni.OperatingSystem = k.val
		case "Architecture":
			ni.Architecture = k.val
		case "Container Runtime Version":
			ni.ContainerRuntimeVersion = k.val
		case "Kubelet Version":
			ni.KubeletVersion = k.val
		case "Kube-Proxy Version":
			ni.KubeProxyVersion = k.val //nolint:staticcheck // deprecated in the API, still printed by describe for the clusters that report it
		}
	}
}

// setMap sets m[k] = v, making m when needed.
func setMap(m *map[string]string, k, v string) {
	if *m == nil {
		*m = map[string]string{}
	}
	(*m)[k] = v
}

// onlyNode is the node a nameless describe fragment is of, when the paste says: the node the
// command above it describes by name, or the one node the paste has shown (a `get nodes`
// of one row above `describe node $NODE | sed …`); "" when nothing or more than one says.
func (p *parser) onlyNode() string {
	if ref := p.cmdObject(); ref.Kind == cluster.KindNode && nameLike(ref.Name) {
		return ref.Name
	}
	name := ""
	for _, o := range p.held.objs {
		if o.Kind != cluster.KindNode {
			continue
		}
		if name != "" && o.Name != name {
			return ""
		}
		name = o.Name
	}
	return name
}
