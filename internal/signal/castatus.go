package signal

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// This file reads both formats by hand rather than with a YAML library, so that fragments
// and cut texts still give what they hold; the two readers make it longer than usual.

// Formats of the cluster-autoscaler status.
const (
	// StatusText is the human-readable text of cluster-autoscaler up to 1.29
	// (clusterstate/api/utils.go GetReadableString; clusterstate/utils/status.go).
	StatusText = "text"
	// StatusYAML is the YAML of cluster-autoscaler 1.30+ (clusterstate/api/types.go,
	// ClusterAutoscalerStatus marshalled by clusterstate/utils/status.go).
	StatusYAML = "yaml"
)

// AutoscalerStatus is the "status" key of the kube-system/cluster-autoscaler-status ConfigMap.
type AutoscalerStatus struct {
	Format  string    // StatusText or StatusYAML
	Time    time.Time // when the autoscaler wrote it, in UTC; zero when the paste does not say
	State   string    // YAML autoscalerStatus: "Running", "Initializing"
	Message string    // YAML message
	// ClusterWide is nil when the text has no cluster-wide entry (a pasted fragment).
	ClusterWide *GroupStatus
	// NodeGroups in the order written. An entry of a fragment pasted without its name, or of
	// the oldest text format, which wrote no names, has Name "".
	NodeGroups []GroupStatus
	// Truncated reports a text cut in the middle: a line cut short, or a last entry without
	// the scale-up or scale-down part (or, in the text format, its times) the autoscaler
	// always writes. What was whole is returned.
	Truncated bool
}

// GroupStatus is the status of one node group, or of the whole cluster.
type GroupStatus struct {
	Name      string // node-group id; "" for the cluster-wide entry
	Health    HealthStatus
	ScaleUp   ScaleUpStatus
	ScaleDown ScaleDownStatus
}

// HealthStatus is the Health condition with its node counts. Counts the text does not give
// are 0: the cluster-wide entry has no target or sizes, and the old text had no
// resourceUnready, the YAML no longNotStarted.
type HealthStatus struct {
	Status                                                      string // "Healthy" or "Unhealthy"
	Ready, Unready, ResourceUnready, NotStarted, LongNotStarted int
	Registered, LongUnregistered, Unregistered, BeingDeleted    int
	CloudProviderTarget, MinSize, MaxSize                       int
	// SizeKnown reports that the entry gave its sizes (maxSize): only then may MaxSize 0
	// be read as a maximum.
	SizeKnown                         bool
	LastProbeTime, LastTransitionTime time.Time // UTC; zero when absent or unreadable
}

// ScaleUpStatus is the ScaleUp condition.
type ScaleUpStatus struct {
	Status string // "InProgress", "NoActivity", "Backoff", "Unhealthy" (old: "Needed", "NotNeeded")
	// Ready, Registered and CloudProviderTarget come from the text format's message,
	// "InProgress (ready=2 cloudProviderTarget=8)".
	Ready, Registered, CloudProviderTarget int
	// BackoffErrorCode and BackoffErrorMessage are the YAML backoffInfo of a Backoff status.
	BackoffErrorCode, BackoffErrorMessage string
	LastProbeTime, LastTransitionTime     time.Time
}

// ScaleDownStatus is the ScaleDown condition.
type ScaleDownStatus struct {
	Status                            string // "CandidatesPresent" or "NoCandidates"
	Candidates                        int
	LastProbeTime, LastTransitionTime time.Time
}

var (
	statusAtRe   = regexp.MustCompile(`^Cluster-autoscaler status at (.+?):?$`)
	textCondRe   = regexp.MustCompile(`^(Health|ScaleUp|ScaleDown):[ \t]*(\S*)[ \t]*(.*)$`)
	textTimeRe   = regexp.MustCompile(`^(LastProbeTime|LastTransitionTime):\s*(.*)$`)
	textNameRe   = regexp.MustCompile(`^Name:\s*(\S+)`)
	textCountRe  = regexp.MustCompile(`(\w+)=(\d+)`)
	textMarkerRe = regexp.MustCompile(`^(?:(?:Health|ScaleUp|ScaleDown):\s+\S|Cluster-wide:|NodeGroups:|Cluster-autoscaler status at )`)
	yamlMarkerRe = regexp.MustCompile(`^(?:-\s+)?(?:health|scaleUp|scaleDown|clusterWide|nodeGroups|autoscalerStatus|nodeCounts):`)
	yamlKeyRe    = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_.\-/]*):(?:\s+(.*))?$`)
)

// ParseAutoscalerStatus parses the cluster-autoscaler status in either format, whole (as
// `kubectl get cm -o yaml` or `kubectl describe cm` print it, around the status) or as a
// fragment: one node-group entry or a few, indented arbitrarily, possibly cut. ok is false
// when the text has neither format's markers or yields no entry.
func ParseAutoscalerStatus(text string) (AutoscalerStatus, bool) {
	lines := statusLines(text)
	var st AutoscalerStatus
	if anyLine(lines, textMarkerRe) {
		st = parseTextStatus(lines)
	}
	if st.ClusterWide == nil && len(st.NodeGroups) == 0 && anyLine(lines, yamlMarkerRe) {
		st = parseYAMLStatus(lines)
	}
	if st.ClusterWide == nil && len(st.NodeGroups) == 0 {
		return AutoscalerStatus{}, false
	}
	return st, true
}

// statusLine is one line with its indentation, Markdown quote marks removed.
type statusLine struct {
	indent int
	text   string // trimmed
}

// statusLines splits the text into non-empty lines, dropping Markdown quote marks and code
// fences but keeping the indentation YAML needs.
func statusLines(text string) []statusLine {
	var out []statusLine
	for _, raw := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		s := strings.TrimRight(raw, " \t\r")
		if t := strings.TrimLeft(s, " \t"); strings.HasPrefix(t, ">") {
			s = strings.TrimPrefix(strings.TrimPrefix(t, ">"), " ")
		}
		t := strings.TrimLeft(s, " \t")
		if t == "" || strings.HasPrefix(t, "```") {
			continue
		}
		out = append(out, statusLine{indent: len(s) - len(t), text: t})
	}
	return out
}

// anyLine reports whether a line matches re.
func anyLine(lines []statusLine, re *regexp.Regexp) bool {
	for _, l := range lines {
		if re.MatchString(l.text) {
			return true
		}
	}
	return false
}

// textState follows the text format: the current entry and the condition whose
// LastProbeTime and LastTransitionTime lines come next.
type textState struct {
	st       *AutoscalerStatus
	cur      *GroupStatus
	probe    *time.Time
	trans    *time.Time
	times    int  // time lines read for the last condition
	anyTimes bool // the text has time lines at all
	headless int  // index+1 in NodeGroups of an entry written before any header
}

// parseTextStatus parses the pre-1.30 text. Before the status there may be kubectl's own
// lines (describe's "Name: cluster-autoscaler-status"), so parsing starts at the first line
// of the status proper: a header, or a condition with the entry name just before it.
func parseTextStatus(lines []statusLine) AutoscalerStatus {
	st := AutoscalerStatus{Format: StatusText}
	s := textState{st: &st}
	for i, l := range lines {
		if textMarkerRe.MatchString(l.text) {
			if i > 0 && textNameRe.MatchString(lines[i-1].text) {
				i-- // a fragment that starts with its entry's name
			}
			lines = lines[i:]
			break
		}
	}
	for _, l := range lines {
		t := l.text
		if t == "Events:" || t == "BinaryData" {
			break
		}
		switch {
		case statusAtRe.MatchString(t):
			st.Time, _ = ParseGoTime(statusAtRe.FindStringSubmatch(t)[1])
		case t == "Cluster-wide:":
			st.ClusterWide = &GroupStatus{}
			s.cur = st.ClusterWide
		case t == "NodeGroups:":
			if s.headless > 0 && st.ClusterWide == nil {
				// Entries before "NodeGroups:" were the cluster-wide one, pasted without its header.
				cw := st.NodeGroups[s.headless-1]
				st.ClusterWide = &cw
				st.NodeGroups = append(st.NodeGroups[:s.headless-1], st.NodeGroups[s.headless:]...)
			}
			s.headless, s.cur = -1, nil
		case textNameRe.MatchString(t):
			s.cur = s.newGroup(textNameRe.FindStringSubmatch(t)[1])
		case textCondRe.MatchString(t):
			m := textCondRe.FindStringSubmatch(t)
			s.condition(m[1], m[2], m[3])
		case textTimeRe.MatchString(t):
			m := textTimeRe.FindStringSubmatch(t)
			s.time(m[1], m[2])
		}
	}
	if last := s.last(); last != nil && (!s.complete(last) || (s.anyTimes && s.times < 2)) {
		st.Truncated = true
	}
	return st
}

// newGroup appends a node-group entry and returns it.
func (s *textState) newGroup(name string) *GroupStatus {
	s.st.NodeGroups = append(s.st.NodeGroups, GroupStatus{Name: name})
	// append may have moved the entries: no pointer into the old ones may be kept.
	s.probe, s.trans = nil, nil
	return &s.st.NodeGroups[len(s.st.NodeGroups)-1]
}

// last returns the entry written last.
func (s *textState) last() *GroupStatus {
	if n := len(s.st.NodeGroups); n > 0 {
		return &s.st.NodeGroups[n-1]
	}
	return s.st.ClusterWide
}

// complete reports whether the entry has all three conditions.
func (s *textState) complete(g *GroupStatus) bool {
	return g.Health.Status != "" && g.ScaleUp.Status != "" && g.ScaleDown.Status != ""
}

// condition reads "Health:      Healthy (ready=2 unready=0 … (minSize=0, maxSize=8))".
func (s *textState) condition(kind, status, rest string) {
	if s.cur == nil || conditionSet(s.cur, kind) {
		// An entry without a header: a fragment, or the oldest format's unnamed groups.
		s.cur = s.newGroup("")
		if s.headless == 0 {
			s.headless = len(s.st.NodeGroups)
		}
	}
	counts, cut := textCounts(rest)
	if status == "" || cut {
		s.st.Truncated = true
	}
	g := s.cur
	switch kind {
	case "Health":
		h := &g.Health
		h.Status = status
		h.Ready, h.Unready, h.ResourceUnready = counts["ready"], counts["unready"], counts["resourceUnready"]
		h.NotStarted, h.LongNotStarted = counts["notStarted"], counts["longNotStarted"]
		h.Registered, h.LongUnregistered = counts["registered"], counts["longUnregistered"]
		h.CloudProviderTarget, h.MinSize, h.MaxSize = counts["cloudProviderTarget"], counts["minSize"], counts["maxSize"]
		_, h.SizeKnown = counts["maxSize"]
		s.probe, s.trans = &h.LastProbeTime, &h.LastTransitionTime
	case "ScaleUp":
		u := &g.ScaleUp
		u.Status, u.Ready, u.Registered, u.CloudProviderTarget = status, counts["ready"], counts["registered"], counts["cloudProviderTarget"]
		s.probe, s.trans = &u.LastProbeTime, &u.LastTransitionTime
	case "ScaleDown":
		d := &g.ScaleDown
		d.Status, d.Candidates = status, counts["candidates"]
		s.probe, s.trans = &d.LastProbeTime, &d.LastTransitionTime
	}
	s.times = 0
}

// conditionSet reports whether the entry already has the condition.
func conditionSet(g *GroupStatus, kind string) bool {
	switch kind {
	case "Health":
		return g.Health.Status != ""
	case "ScaleUp":
		return g.ScaleUp.Status != ""
	}
	return g.ScaleDown.Status != ""
}

// time reads a LastProbeTime or LastTransitionTime line of the last condition.
func (s *textState) time(which, value string) {
	s.anyTimes = true
	if s.probe == nil {
		return
	}
	t, ok := ParseGoTime(value)
	if !ok && !strings.HasPrefix(strings.TrimSpace(value), "0001-01-01") {
		s.st.Truncated = true
	}
	if which == "LastProbeTime" {
		*s.probe = t
	} else {
		*s.trans = t
	}
	s.times++
}

// textCounts reads the key=number pairs of a condition's message "(ready=2 … maxSize=8))".
// A message without its closing parenthesis was cut: its last number may be cut too and is
// dropped.
func textCounts(rest string) (counts map[string]int, cut bool) {
	rest = strings.TrimSpace(rest)
	counts = map[string]int{}
	if rest == "" {
		return counts, false
	}
	cut = !strings.HasSuffix(rest, ")")
	for _, m := range textCountRe.FindAllStringSubmatchIndex(rest, -1) {
		if cut && m[1] == len(rest) {
			continue
		}
		if n, ok := atoi(rest[m[4]:m[5]]); ok {
			counts[rest[m[2]:m[3]]] = n
		}
	}
	return counts, cut
}

// yamlFrame is one open mapping or list item of the YAML being read.
type yamlFrame struct {
	indent int
	key    string // "" for a list item
	item   bool
	group  int // index into groups of the entry this frame roots, or -1
}

// parseYAMLStatus parses the 1.30+ YAML by indentation, without a YAML library, so that
// fragments and cut texts still give what they hold.
func parseYAMLStatus(lines []statusLine) AutoscalerStatus {
	st := AutoscalerStatus{Format: StatusYAML}
	y := yamlState{st: &st, implicit: -1}
	for i, l := range lines {
		y.line(l, i == len(lines)-1)
	}
	for _, g := range y.groups {
		if g.cluster {
			cw := g.status
			st.ClusterWide = &cw
			continue
		}
		st.NodeGroups = append(st.NodeGroups, g.status)
	}
	if n := len(y.groups); n > 0 {
		last := y.groups[n-1]
		if !last.sections["health"] || !last.sections["scaleUp"] || !last.sections["scaleDown"] {
			st.Truncated = true
		}
	}
	return st
}

// yamlGroup is an entry being read, in the order met.
type yamlGroup struct {
	status   GroupStatus
	cluster  bool
	sections map[string]bool
}

// yamlState follows the frames open at the current line.
type yamlState struct {
	st       *AutoscalerStatus
	stack    []yamlFrame
	groups   []yamlGroup
	implicit int // entry of a fragment written without list items, or -1
}

// ignoredParents are mappings of the ConfigMap around the status whose keys ("name",
// "time") must not be read as the status's.
var ignoredParents = map[string]bool{"metadata": true, "annotations": true, "labels": true, "managedFields": true}

// line reads one YAML line.
func (y *yamlState) line(l statusLine, last bool) {
	t, indent := l.text, l.indent
	if strings.HasPrefix(t, "#") || t == "----" || t == "---" {
		return
	}
	if m := statusAtRe.FindStringSubmatch(t); m != nil {
		y.st.Time, _ = ParseGoTime(m[1])
		return
	}
	if t == "-" || strings.HasPrefix(t, "- ") {
		y.pop(indent)
		y.stack = append(y.stack, yamlFrame{indent: indent, item: true, group: -1})
		rest := strings.TrimLeft(t[1:], " ")
		if rest == "" {
			return
		}
		indent += len(t) - len(rest)
		t = rest
	}
	m := yamlKeyRe.FindStringSubmatch(t)
	if m == nil {
		if last {
			y.st.Truncated = true // a key cut before its colon
		}
		return
	}
	key := m[1]
	value, complete := yamlScalar(m[2])
	if !complete {
		y.st.Truncated = true
	}
	y.pop(indent)
	frame := yamlFrame{indent: indent, key: key, group: -1}
	if strings.HasPrefix(value, "|") || strings.HasPrefix(value, ">") {
		// A block scalar, `status: |+` in `kubectl get -o yaml`: its lines are the status
		// itself and are read as top-level lines.
		return
	}
	defer func() { y.stack = append(y.stack, frame) }()
	for _, f := range y.stack {
		if ignoredParents[f.key] {
			return
		}
	}
	g, rel := y.resolve()
	if g < 0 {
		g, rel = y.startGroup(key, &frame)
		if g < 0 {
			y.topLevel(key, value)
			return
		}
	}
	y.set(&y.groups[g], rel, key, value)
}

// pop closes the frames at or below the indentation of a new line.
func (y *yamlState) pop(indent int) {
	for len(y.stack) > 0 && y.stack[len(y.stack)-1].indent >= indent {
		y.stack = y.stack[:len(y.stack)-1]
	}
}

// resolve finds the entry the open frames belong to and the keys from its root inward.
// A frame rooting an entry is "clusterWide", a list item, or (in a fragment) a section
// like "health:" written without its entry; a section root's own key is part of the path.
func (y *yamlState) resolve() (int, []string) {
	for i := len(y.stack) - 1; i >= 0; i-- {
		f := y.stack[i]
		if f.group < 0 {
			continue
		}
		var rel []string
		start := i + 1
		if !f.item && f.key != "clusterWide" {
			start = i
		}
		for _, g := range y.stack[start:] {
			if !g.item {
				rel = append(rel, g.key)
			}
		}
		return f.group, rel
	}
	return -1, nil
}

// startGroup opens an entry for a key met outside any: "clusterWide", a key of a list item
// (under nodeGroups, or a pasted item), or a bare "name:" or section of a fragment. It
// returns -1 when the key opens none.
func (y *yamlState) startGroup(key string, frame *yamlFrame) (int, []string) {
	groupKey := key == "name" || key == "health" || key == "scaleUp" || key == "scaleDown"
	if key == "clusterWide" {
		frame.group = y.newGroup(true)
		return frame.group, nil
	}
	if n := len(y.stack); n > 0 && y.stack[n-1].item && groupKey {
		y.stack[n-1].group = y.newGroup(false)
		return y.stack[n-1].group, nil
	}
	if !groupKey {
		return -1, nil
	}
	if key == "name" || y.implicit < 0 || y.groups[y.implicit].sections[key] {
		y.implicit = y.newGroup(false)
	}
	if key != "name" {
		frame.group = y.implicit
	}
	return y.implicit, nil
}

// newGroup appends an entry and returns its index.
func (y *yamlState) newGroup(cluster bool) int {
	y.groups = append(y.groups, yamlGroup{cluster: cluster, sections: map[string]bool{}})
	return len(y.groups) - 1
}

// topLevel reads the keys of the status outside any entry.
func (y *yamlState) topLevel(key, value string) {
	switch key {
	case "time":
		y.st.Time, _ = ParseGoTime(value)
	case "autoscalerStatus":
		y.st.State = value
	case "message":
		y.st.Message = value
	}
}

// set stores a value at its path within an entry (clusterstate/api/types.go field names).
func (y *yamlState) set(g *yamlGroup, rel []string, key, value string) {
	path := strings.Join(append(append([]string(nil), rel...), key), ".")
	if len(rel) == 0 || (len(rel) == 1 && rel[0] == key) {
		switch key {
		case "name":
			g.status.Name = value
		case "health", "scaleUp", "scaleDown":
			g.sections[key] = true
		}
		return
	}
	h, u, d := &g.status.Health, &g.status.ScaleUp, &g.status.ScaleDown
	ints := map[string]*int{
		"health.cloudProviderTarget": &h.CloudProviderTarget, "health.minSize": &h.MinSize, "health.maxSize": &h.MaxSize,
		"health.nodeCounts.longUnregistered":                   &h.LongUnregistered,
		"health.nodeCounts.unregistered":                       &h.Unregistered,
		"health.nodeCounts.registered.total":                   &h.Registered,
		"health.nodeCounts.registered.ready":                   &h.Ready,
		"health.nodeCounts.registered.notStarted":              &h.NotStarted,
		"health.nodeCounts.registered.beingDeleted":            &h.BeingDeleted,
		"health.nodeCounts.registered.unready.total":           &h.Unready,
		"health.nodeCounts.registered.unready.resourceUnready": &h.ResourceUnready,
		"scaleDown.candidates":                                 &d.Candidates,
	}
	strs := map[string]*string{
		"health.status": &h.Status, "scaleUp.status": &u.Status, "scaleDown.status": &d.Status,
		"scaleUp.backoffInfo.errorCode": &u.BackoffErrorCode, "scaleUp.backoffInfo.errorMessage": &u.BackoffErrorMessage,
	}
	times := map[string]*time.Time{
		"health.lastProbeTime": &h.LastProbeTime, "health.lastTransitionTime": &h.LastTransitionTime,
		"scaleUp.lastProbeTime": &u.LastProbeTime, "scaleUp.lastTransitionTime": &u.LastTransitionTime,
		"scaleDown.lastProbeTime": &d.LastProbeTime, "scaleDown.lastTransitionTime": &d.LastTransitionTime,
	}
	switch {
	case ints[path] != nil:
		if n, err := strconv.Atoi(value); err == nil && n >= 0 {
			*ints[path] = n
			if path == "health.maxSize" {
				h.SizeKnown = true
			}
		}
	case strs[path] != nil:
		*strs[path] = value
	case times[path] != nil:
		t, ok := ParseGoTime(value)
		if !ok && value != "" && value != "null" && !strings.HasPrefix(value, "0001-01-01") {
			y.st.Truncated = true
		}
		*times[path] = t
	}
}

// yamlScalar unquotes a YAML scalar. complete is false for a quoted value cut before its
// closing quote; the text read so far is returned.
func yamlScalar(v string) (string, bool) {
	v = strings.TrimSpace(v)
	switch {
	case strings.HasPrefix(v, `"`):
		q, err := strconv.QuotedPrefix(v)
		if err != nil {
			return strings.TrimPrefix(v, `"`), false
		}
		u, _ := strconv.Unquote(q)
		return u, true
	case strings.HasPrefix(v, "'"):
		if len(v) < 2 || !strings.HasSuffix(v, "'") {
			return strings.TrimPrefix(v, "'"), false
		}
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'"), true
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	return v, true
}
