package text

import (
	"slices"
	"strings"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/lazyre"
)

// maxBlockLines bounds one describe block; a longer one is parsed in pieces.
const maxBlockLines = 20000

var (
	// topKeyRe is a describe line at column 0: "Name:", "QoS Class:", "Non-terminated Pods:".
	topKeyRe = lazyre.New(`^[A-Z][\w.()/-]*(?: [\w.()/-]+)*:(?:\s|$)`)
	// kvRe splits "Key: value"; a key's words are separated by single spaces, which keeps
	// table rows ("Warning  FailedScheduling  …: …") from reading as keys.
	kvRe = lazyre.New(`^([A-Za-z][\w.()/-]*(?: [\w.()/-]+)*):(?:\s+(.*))?$`)
	// blockStartRe opens a describe block, or a fragment of one, at column 0.
	// A paste cut above its Name starts at the next key kubectl prints: Roles (a node's),
	// Labels, Annotations, CreationTimestamp.
	blockStartRe = lazyre.New(`^(?:Name:\s+\S|(?:Events|Containers|Init Containers|Conditions|Non-terminated Pods|Allocated resources|Capacity|Allocatable|Taints):|(?:Roles|Labels|Annotations|CreationTimestamp):\s+\S)`)
	// fragmentRe opens a fragment of a describe pod's container section (corpus 09, 16).
	// At column 0 when the paste lost its indentation ("State: Terminated" / "Reason: OOMKilled").
	fragmentRe = lazyre.New(`^\s+(?:State|Last State|Last Termination State|Restart Count|Container ID):\s|^(?:State|Last State):\s+(?:Running|Waiting|Terminated)\b`)
	// nodeCondRowRe is a describe node condition row, also met without its table (corpus 31).
	nodeCondRowRe = lazyre.New(`^\s*(Ready|MemoryPressure|DiskPressure|PIDPressure|NetworkUnavailable|OutOfDisk)\s+(True|False|Unknown)\s{2,}\S`)
)

// startsBlock reports whether s opens a describe block or a fragment of one.
func startsBlock(s string) bool {
	return blockStartRe.MatchString(s) || fragmentRe.MatchString(s) || nodeCondRowRe.MatchString(s)
}

// block is an open describe block: lines are kept until it ends, then parsed as a whole.
type block struct {
	lines []line
	owner *ownerRef // the object of a describe just before, for a detached "Events:" section
	// flatIn says the last line stands in a Containers section at column 0 (flatStep).
	flatIn bool
	// labelsIn says the last line is Labels:, Node-Selectors: or one of their labels.
	labelsIn bool
	// base is the indentation the whole describe was pasted with ("  Name:  web-0" and every
	// line after it two spaces in): taken off each line, so that its fields stand where
	// kubectl printed them.
	base int
	// gapped says every line of the block so far came two lines after the one before it,
	// a blank between them: a describe pasted double-spaced (a blank line after every line,
	// as some editors and ticket forms copy it), whose blanks do not end it (spaced).
	gapped bool
}

// indentedStartRe is the first line of a describe pasted indented as a whole: its Name field,
// at most eight spaces in (a list item's or a quotation's indentation, not a field's under
// another).
var indentedStartRe = lazyre.New(`^( {1,8})Name:\s+\S`)

// indentedBlock opens the block of a describe pasted indented as a whole, or returns nil.
func indentedBlock(ln line, owner *ownerRef) *block {
	m := indentedStartRe.FindStringSubmatch(ln.text)
	if m == nil {
		return nil
	}
	return &block{owner: owner, base: len(m[1])}
}

// dedent takes the block's base indentation off a line, as far as the line has it.
func (b *block) dedent(ln line) line {
	if b.base == 0 {
		return ln
	}
	n := 0
	for n < b.base && n < len(ln.text) && ln.text[n] == ' ' {
		n++
	}
	ln.text = ln.text[n:]
	return ln
}

func (b *block) add(ln line) {
	ln = b.dedent(ln)
	if elisionRe.MatchString(ln.text) {
		return
	}
	if len(b.lines) > 0 && ln.text != "" && ln.text[0] != ' ' && b.continues(ln) {
		last := &b.lines[len(b.lines)-1]
		last.text, last.raw, last.end = joinWrapped(last.text, ln.text), ln.raw, ln.num
		return
	}
	if len(b.lines) == 0 {
		b.gapped = true
	} else if ln.num != b.lines[len(b.lines)-1].last()+2 {
		b.gapped = false
	}
	b.lines = append(b.lines, ln)
	b.flatIn = flatStep(b.flatIn, ln.text)
	b.labelsIn = strings.HasPrefix(ln.text, "Labels:") || strings.HasPrefix(ln.text, "Node-Selectors:") ||
		b.labelsIn && flatLabelRe.MatchString(ln.text)
}

// accepts reports whether ln continues the block: an indented line or a "Key:" at column 0
// other than the "Name:" that starts the next object. Blank lines, fences and prompts end it.
func (b *block) accepts(ln line) bool {
	if ln.kind != kindText || len(b.lines) >= maxBlockLines {
		return false
	}
	ln = b.dedent(ln)
	if ln.text == "" {
		return false
	}
	t := ln.text
	if t[0] == ' ' {
		return true
	}
	if elisionRe.MatchString(t) {
		return true // "...": the writer cut fields out; the fields after are the same object's
	}
	if !strings.HasPrefix(t, "Name:") && topKeyRe.MatchString(t) {
		return true
	}
	if b.flatIn && flatContainerRe.MatchString(t) {
		return true // a container's name or a quantity, in a describe that lost its indentation
	}
	if b.labelsIn && flatLabelRe.MatchString(t) {
		return true // the next label of Labels: at column 0
	}
	return b.continues(ln)
}

// spaced reports whether the blank line blank may be one of a double-spaced paste's inside
// the block: it follows the block's last line, every line of which came after a blank.
func (b *block) spaced(blank line) bool {
	return b.gapped && blank.num == b.lines[len(b.lines)-1].last()+1
}

// spacedNext reports whether ln, the line after a blank that spaced held, goes on with the
// block: a line it accepts, and where the block is one line so far, a field of a describe
// (a lone "Name:" and an indented line after a blank are no proof of double spacing).
func (b *block) spacedNext(ln line) bool {
	if !b.accepts(ln) {
		return false
	}
	t := b.dedent(ln).text
	return len(b.lines) > 1 || topKeyRe.MatchString(t) && describeKey(t)
}

// elisionRe is a line that stands for lines a writer cut out of output: "...", "…", "---" (in a
// describe, where kubectl prints no such line at column 0), "[...]",
// "<snip>".
var elisionRe = lazyre.New(`^(?:\.{3,}|-{3,}|…|\[(?:\.{3}|…)\]|\((?:\.{3}|…)\)|<snip(?:ped)?>|\[snip(?:ped)?\])$`)

// flatContainerRe is a line of a container section at column 0 that is not a "Key:" of the
// describe: the container's name ("web:") or a quantity under Limits ("memory:  50Mi").
// flatLabelRe is a label ("app.kubernetes.io/name=web") at column 0 under Labels:.
var flatLabelRe = lazyre.New(`^[\w./-]+=\S*$`)

var flatContainerRe = lazyre.New(`^[a-z0-9][\w./-]*:(?:\s+\S+)?\s*$`)

// podTopKeys are the fields kubectl describe pod prints at column 0, 1.0 to now.
var podTopKeys = map[string]bool{"Name": true, "Namespace": true, "Priority": true, "Priority Class Name": true,
	"PriorityClassName": true, "Runtime Class Name": true, "Service Account": true, "Node": true, "Start Time": true,
	"Labels": true, "Annotations": true, "Status": true, "Reason": true, "Message": true, "SeccompProfile": true,
	"IP": true, "IPs": true, "Controlled By": true, "Created By": true, "NominatedNodeName": true,
	"Nominated Node Name": true, "Init Containers": true, "Containers": true, "Readiness Gates": true,
	"Conditions": true, "Volumes": true, "QoS Class": true, "Node-Selectors": true, "Tolerations": true,
	"Events": true, "Image(s)": true, "Replication Controllers": true, "Termination Grace Period": true,
	"Topology Spread Constraints": true}

// flatStep is the state of a Containers section at column 0 after the line t: in it, or not.
// A field of the pod ends it; a container's own field that shares its name with one of the
// pod's (Reason, Message under State) does not.
func flatStep(in bool, t string) bool {
	if t == "" || t[0] == ' ' {
		return false
	}
	if m := kvRe.FindStringSubmatch(t); m != nil && podTopKeys[m[1]] && !(in && (containerFields[m[1]] || stateKeys[m[1]])) {
		return m[1] == "Containers" || m[1] == "Init Containers"
	}
	return in
}

// reindentFlat indents the lines of a Containers or Init Containers section that a paste put
// at column 0, so that the tree holds them under their section (containers' regroup then puts
// each field under its container).
func reindentFlat(lines []line) []line {
	in := false
	var out []line
	for i, ln := range lines {
		was := in
		in = flatStep(in, ln.text)
		if was && in && ln.text != "" && ln.text[0] != ' ' {
			if out == nil {
				out = slices.Clone(lines)
			}
			out[i].text = "  " + ln.text
		}
	}
	if out == nil {
		return lines
	}
	return out
}

// continues reports whether ln, at column 0, is the rest of the line before it that the
// paste wrapped onto the next line: of a long "Message:" or events row, or, for a line of one
// word (a container ID, an annotation's value), of any field whose line was long enough to
// have been wrapped or whose value the wrap moved whole ("Container ID:" above
// "containerd://9adc…").
func (b *block) continues(ln line) bool {
	last := b.lines[len(b.lines)-1]
	if ln.num != last.last()+1 || startsFormat(ln.text) {
		return false
	}
	row := describeRowRe.MatchString(last.text) || oldDescribeRowRe.MatchString(last.text)
	if topKeyRe.MatchString(ln.text) && !(row && !describeKey(ln.text)) {
		// A field of the describe, unless it is the sentence of a row's message the wrap
		// moved to column 0 ("The node was low on resource: memory. …").
		return false
	}
	if strings.HasPrefix(last.text, "Message:") || row {
		return last.raw >= wrapWidth
	}
	word := !strings.ContainsAny(ln.text, " \t") && !strings.HasSuffix(ln.text, ":") && !flatLabelRe.MatchString(ln.text)
	return word && (last.raw >= wrapWidth || strings.HasSuffix(last.text, ":"))
}

// describeKey reports whether a "Key:" line at column 0 may be a describe's field: kubectl's
// keys are at most three words ("Priority Class Name", "Termination Grace Period").
func describeKey(s string) bool {
	k, _, _ := strings.Cut(s, ":")
	return len(strings.Fields(k)) <= 3
}

// node is one line of a describe block, placed under the nearest less-indented line.
type node struct {
	indent   int
	key, val string // key is "" for lines that are not "Key: value"
	text     string // the line without its indentation
	ln       line
	kids     []*node
}

// buildTree arranges a block's lines by indentation.
func buildTree(lines []line) []*node {
	var roots, stack []*node
	for _, ln := range lines {
		t := strings.TrimLeft(ln.text, " ")
		n := &node{indent: len(ln.text) - len(t), text: t, ln: ln}
		if m := kvRe.FindStringSubmatch(t); m != nil {
			n.key, n.val = m[1], strings.TrimSpace(m[2])
		}
		for len(stack) > 0 && stack[len(stack)-1].indent >= n.indent {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			roots = append(roots, n)
		} else {
			parent := stack[len(stack)-1]
			parent.kids = append(parent.kids, n)
		}
		stack = append(stack, n)
	}
	return roots
}

// find returns the first node among ns with key k, or nil.
func find(ns []*node, k string) *node {
	for _, n := range ns {
		if n.key == k {
			return n
		}
	}
	return nil
}

// flat returns n's descendants in input order.
func (n *node) flat() []*node {
	var out []*node
	n.walk(&out)
	return out
}

// walk appends n's descendants to out; one shared slice keeps deep nesting linear.
func (n *node) walk(out *[]*node) {
	for _, k := range n.kids {
		*out = append(*out, k)
		k.walk(out)
	}
}

// values returns n's value and the lines under it, as kubectl prints multi-line values
// (labels, taints, tolerations): one item a line, "<none>" dropped.
func (n *node) values() []string {
	var out []string
	if !isNone(n.val) {
		out = append(out, n.val)
	}
	for _, k := range n.flat() {
		if !isNone(k.text) {
			out = append(out, k.text)
		}
	}
	return out
}

// flushBlock parses the open block by what its keys say it describes.
func (p *parser) flushBlock() error {
	b := p.block
	p.block = nil
	if len(b.lines) == 0 {
		return nil
	}
	// What the block's objects say covers all its lines, for the scan.
	sp := &span{from: b.lines[0].num, to: b.lines[len(b.lines)-1].last()}
	p.scan.block = sp
	defer func() {
		p.scan.block = nil
		p.scan.spans = append(p.scan.spans, *sp)
	}()
	roots := buildTree(reindentFlat(b.lines))
	keys := map[string]bool{}
	for _, n := range roots {
		keys[n.key] = true
	}
	switch {
	case isNodeDescribe(roots, keys) || (p.cmd != nil && p.cmd.verb == "describe" && p.cmd.kind() == "Node" && !keys["Namespace"]):
		return p.describeNode(roots, b)
	}
	if err := p.flushPendingNode(); err != nil {
		return err
	}
	if keys["Name"] {
		p.lastNode = "" // another object described
	}
	switch {
	case keys["Involved Object"] && keys["Name"]:
		return p.describeEvent(roots, b)
	case keys["Name"] && keys["Namespace"] && isPodDescribe(keys):
		return p.describePod(roots, b)
	case keys["Name"]:
		owner := &ownerRef{kind: p.describedKind(keys), namespace: find(roots, "Namespace").valOr(""), name: find(roots, "Name").val}
		p.owner = owner
		if owner.kind != "" {
			// What the scan reads in the block (a condition's reason) is about it too.
			p.cover(b.lines[0].num, b.lines[0].num, owner.ref())
			p.scan.name(owner.kind, owner.name)
		}
		if rs := strings.Fields(find(roots, "NewReplicaSet").valOr("")); owner.kind == "Deployment" && len(rs) > 0 && nameLike(rs[0]) {
			// "NewReplicaSet:  web-7d9f8c6b5 (0/3 replicas created)": the controller that makes the
			// deployment's pods, whose ReplicaFailure the deployment shows.
			p.scan.name("ReplicaSet", rs[0])
		}
		return p.describeEvents(find(roots, "Events"), owner)
	case keys["Containers"] || keys["Init Containers"] || keys["State"] || keys["Last State"] || keys["Last Termination State"] || keys["Restart Count"]:
		return p.describePodFragment(roots, b)
	}
	return p.describeEvents(find(roots, "Events"), b.owner)
}

// describedKind is the kind of object a describe block other than a pod's or a node's is
// about: the command's above it, else what its keys are those of; "" when neither says.
func (p *parser) describedKind(keys map[string]bool) string {
	if p.cmd != nil && p.cmd.verb == "describe" {
		if k := p.cmd.kind(); k != "" && k != cluster.KindPod && k != cluster.KindNode {
			return k
		}
	}
	switch {
	case keys["Involved Object"]:
		return cluster.KindEvent
	case keys["Completions"] || keys["Parallelism"]:
		return "Job"
	case keys["Schedule"] && keys["Concurrency Policy"]:
		return "CronJob"
	case keys["StrategyType"] || keys["RollingUpdateStrategy"] || keys["NewReplicaSet"] || keys["OldReplicaSets"]:
		return "Deployment"
	case keys["Volume Claims"] || keys["Update Strategy"] && keys["Replicas"]:
		return "StatefulSet"
	case keys["Replicas"] && keys["Pod Template"]:
		return "ReplicaSet"
	case keys["Desired Number of Nodes Scheduled"]:
		return "DaemonSet"
	case keys["StorageClass"] && keys["Access Modes"] || keys["VolumeMode"] && keys["Used By"]:
		return "PersistentVolumeClaim"
	}
	return ""
}

// valOr returns n's value, or def when n is nil.
func (n *node) valOr(def string) string {
	if n == nil {
		return def
	}
	return n.val
}

// isPodDescribe tells a describe pod from the describe of a Deployment or a Service.
func isPodDescribe(keys map[string]bool) bool {
	if keys["Replicas"] || keys["Pod Template"] || keys["Selector"] {
		return false
	}
	// A pod's own fields, though the paste was cut above its Status: its node ("Node:
	// <none>", which no other describe prints), its service account, its priority class.
	return keys["Containers"] || keys["Init Containers"] || keys["QoS Class"] ||
		(keys["Status"] && (keys["Node"] || keys["IP"] || keys["Start Time"])) ||
		keys["Node"] && (keys["Service Account"] || keys["Priority Class Name"] || keys["Priority"])
}

// isNodeDescribe recognises a describe node, or a fragment of one, by its node-only keys.
func isNodeDescribe(roots []*node, keys map[string]bool) bool {
	if keys["Namespace"] {
		return false
	}
	for _, k := range []string{"Roles", "Taints", "Capacity", "Allocatable", "Non-terminated Pods",
		"Allocated resources", "System Info", "Unschedulable", "Addresses", "PodCIDR", "ProviderID"} {
		if keys[k] {
			return true
		}
	}
	for _, n := range roots {
		if n.key == "" && nodeCondRowRe.MatchString(n.text) {
			return true
		}
		if n.key == "Conditions" {
			for _, k := range n.kids {
				if nodeCondRowRe.MatchString(k.text) && !strings.HasPrefix(strings.TrimSpace(k.text), "Ready") {
					return true // a pressure condition: only nodes have those
				}
				if strings.Contains(k.text, "LastHeartbeatTime") {
					return true // the conditions table's header: only a node's has a heartbeat column
				}
			}
		}
	}
	return false
}
