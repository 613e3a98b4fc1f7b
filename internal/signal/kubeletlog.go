package signal

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// This file reads the klog line format that every Kubernetes component writes (k8s.io/klog,
// klog.go formatHeader; glog before 2019), as people paste it: from `journalctl -u kubelet`,
// `kubectl logs [--timestamps] [--prefix]`, a node's /var/log/pods file, or a Markdown quote,
// and classifies the kubelet's eviction-manager and node-pressure lines (ParseKubeletLog).
// The klog part is shared with ParseAutoscalerLog; it would sit better in its own klog.go,
// which is why this file runs past the usual length.

// LogTime is when a log line was written, as far as the line tells. A klog header carries
// month, day and time of day but no year; Year is set only when a prefix written by a
// collector (kubectl --timestamps, journalctl -o short-iso, a CRI log file) gives one.
// klog writes the process's local time: UTC in most containers, the host's zone for a kubelet.
type LogTime struct {
	Year  int // 0 when the line does not say
	Month time.Month
	Day   int
	Clock time.Duration // time of day, to the microsecond klog writes
}

// IsZero reports whether the time is unset.
func (t LogTime) IsZero() bool { return t.Month == 0 }

// HasYear reports whether the line gave the year.
func (t LogTime) HasYear() bool { return t.Year != 0 }

// In returns the time in the given year, reading the clock as UTC.
func (t LogTime) In(year int) time.Time {
	return time.Date(year, t.Month, t.Day, 0, 0, 0, 0, time.UTC).Add(t.Clock)
}

// Time returns the time in UTC when the year is known; ok is false otherwise.
func (t LogTime) Time() (time.Time, bool) {
	if t.IsZero() || !t.HasYear() {
		return time.Time{}, false
	}
	return t.In(t.Year), true
}

// KeyValue is one key="value" pair of a structured log line. Value is unquoted when it was a
// quoted string and kept as written otherwise (`[ns/a ns/b]`, `["ns/a","ns/b"]`, `3`).
type KeyValue struct {
	Key, Value string
}

// LinePrefix is what came before the klog header. All fields are "" or zero when absent.
type LinePrefix struct {
	Raw     string    // the prefix as written, trimmed
	Host    string    // journald/syslog host name: "192-168-250-5"
	Process string    // journald/syslog identifier: "kubelet", "k3s", "microk8s.daemon-kubelite"
	PID     int       // journald/syslog process id
	Source  string    // kubectl logs --prefix, without brackets: "pod/cluster-autoscaler-x/cluster-autoscaler"
	Time    time.Time // a full timestamp (kubectl --timestamps, CRI log, short-iso), in UTC
}

// KlogLine is one parsed klog line: "I0528 16:05:50.514706 2269385 eviction_manager.go:405] msg".
type KlogLine struct {
	Severity string // "I", "W", "E" or "F"
	Time     LogTime
	Thread   int    // the pid or thread id klog writes after the time
	File     string // source file, "eviction_manager.go"
	Line     int
	// Message is the text after "] ". For structured logging (klog.InfoS, since Kubernetes
	// 1.20) it is the unquoted message and Values holds the key/value pairs that follow.
	Message    string
	Structured bool
	Values     []KeyValue
	// Truncated reports a structured line cut inside a quoted message or value.
	Truncated bool
	Prefix    LinePrefix
}

// Value returns the value of the first pair with the key.
func (l KlogLine) Value(key string) (string, bool) {
	for _, kv := range l.Values {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return "", false
}

var (
	// klogHeaderRe is klog's "Lmmdd hh:mm:ss.uuuuuu threadid file:line]". glog padded the
	// thread id to 7 columns; the fraction is absent in some re-formatted pastes.
	klogHeaderRe = regexp.MustCompile(`([IWEF])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?\s+(\d+) ([^\s:\]]+):(\d+)\]`)
	// isoPrefixRe is a timestamp with a year: RFC 3339 from kubectl --timestamps or a CRI log
	// file, journalctl's short-iso, or a log viewer's "2026-01-11 19:21:27.430".
	isoPrefixRe = regexp.MustCompile(`^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:[.,](\d{1,9}))?(Z|[+-]\d\d:?\d\d)?(?: (?:UTC|GMT))?(?:\s+|$)`)
	// syslogPrefixRe is journalctl's and syslog's "May 28 16:05:50" (short-precise adds a fraction).
	syslogPrefixRe = regexp.MustCompile(`^([A-Z][a-z]{2}) +(\d{1,2}) (\d\d):(\d\d):(\d\d)(?:\.\d+)?(?:\s+|$)`)
	// identRe is the "host ident[pid]:" that follows a journald or syslog timestamp.
	identRe   = regexp.MustCompile(`^(\S+) ([^\s\[\]:]+)(?:\[(\d+)\])?:(?:\s+|$)`)
	criRe     = regexp.MustCompile(`^(?:stdout|stderr) [FP](?:\s+|$)`)
	bracketRe = regexp.MustCompile(`^\[([^\]]*)\](?:\s+|$)`)
)

// ParseKlog parses a klog or glog line, optionally after a prefix: journald's
// "May 28 16:05:50 host kubelet[2269385]: ", an RFC 3339 timestamp (kubectl logs --timestamps),
// a CRI log file's "<time> stderr F ", kubectl logs --prefix's "[pod/p/c] ", a Markdown "> ",
// or any other text ending in a space (kept in Prefix.Raw). Structured messages
// (`"Eviction manager: pod is evicted successfully" pod="sre/x"`) are split into Message and
// Values. ok is false when there is no whole, valid header: a line cut inside the header
// cannot be dated and is not a klog line for our purposes.
func ParseKlog(line string) (KlogLine, bool) {
	s := stripQuoteMarks(line)
	var m []int
	for _, loc := range klogHeaderRe.FindAllStringSubmatchIndex(s, 4) {
		if loc[0] == 0 || s[loc[0]-1] == ' ' || s[loc[0]-1] == '\t' {
			m = loc
			break
		}
	}
	if m == nil {
		return KlogLine{}, false
	}
	group := func(i int) string {
		if m[2*i] < 0 {
			return ""
		}
		return s[m[2*i]:m[2*i+1]]
	}
	var n [6]int
	for i := range n {
		n[i], _ = strconv.Atoi(group(i + 2))
	}
	month, day, hour, minute, sec := n[0], n[1], n[2], n[3], n[4]
	if month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || sec > 60 {
		return KlogLine{}, false
	}
	thread, ok1 := atoi(group(8))
	lineNo, ok2 := atoi(group(10))
	if !ok1 || !ok2 {
		return KlogLine{}, false
	}
	l := KlogLine{
		Severity: group(1),
		Time: LogTime{Month: time.Month(month), Day: day,
			Clock: time.Duration(hour)*time.Hour + time.Duration(minute)*time.Minute +
				time.Duration(sec)*time.Second + fraction(group(7))},
		Thread: thread,
		File:   group(9),
		Line:   lineNo,
		Prefix: parsePrefix(s[:m[0]]),
	}
	l.Message, l.Values, l.Structured, l.Truncated = splitStructured(strings.TrimSpace(s[m[1]:]))
	if !l.Prefix.Time.IsZero() {
		l.Time.Year = yearNear(l.Prefix.Time, l.Time.Month)
	}
	return l, true
}

// stripQuoteMarks removes surrounding space and Markdown quote marks ("> ", ">>").
func stripQuoteMarks(line string) string {
	s := strings.TrimSpace(line)
	for strings.HasPrefix(s, ">") {
		s = strings.TrimSpace(s[1:])
	}
	return s
}

// fraction converts the digits after the seconds' point to a duration.
func fraction(digits string) time.Duration {
	if digits == "" {
		return 0
	}
	n, _ := strconv.Atoi(digits)
	for i := len(digits); i < 9; i++ {
		n *= 10
	}
	return time.Duration(n)
}

// yearNear returns the year of the header's month, taken from a collector's timestamp written
// moments after it: a header of December with a timestamp in January belongs to the year before.
func yearNear(t time.Time, month time.Month) int {
	year := t.Year()
	switch {
	case month == time.December && t.Month() == time.January:
		return year - 1
	case month == time.January && t.Month() == time.December:
		return year + 1
	}
	return year
}

// parsePrefix reads the known parts of the text before a klog header, in the order the
// tools write them; unknown text stays only in Raw.
func parsePrefix(s string) LinePrefix {
	s = strings.TrimSpace(s)
	p := LinePrefix{Raw: s}
	for s != "" {
		if m := bracketRe.FindStringSubmatch(s); m != nil && p.Source == "" {
			p.Source = m[1]
			s = s[len(m[0]):]
			continue
		}
		if m := isoPrefixRe.FindStringSubmatch(s); m != nil && p.Time.IsZero() {
			p.Time = isoTime(m)
			s = s[len(m[0]):]
			continue
		}
		if m := criRe.FindString(s); m != "" {
			s = s[len(m):]
			continue
		}
		if m := syslogPrefixRe.FindString(s); m != "" {
			// The journald time repeats the header's without a year; the header is kept.
			s = s[len(m):]
			continue
		}
		if m := identRe.FindStringSubmatch(s); m != nil && p.Host == "" {
			p.Host, p.Process = m[1], m[2]
			p.PID, _ = atoi(m[3])
			s = s[len(m[0]):]
			continue
		}
		break
	}
	return p
}

// isoTime builds the time matched by isoPrefixRe, in UTC; a time without a zone is read as UTC.
func isoTime(m []string) time.Time {
	var n [6]int
	for i := range n {
		n[i], _ = strconv.Atoi(m[i+1])
	}
	loc := time.UTC
	if z := strings.ReplaceAll(m[8], ":", ""); z != "" && z != "Z" {
		h, _ := strconv.Atoi(z[1:3])
		mm, _ := strconv.Atoi(z[3:5])
		off := h*3600 + mm*60
		if z[0] == '-' {
			off = -off
		}
		loc = time.FixedZone("", off)
	}
	t := time.Date(n[0], time.Month(n[1]), n[2], n[3], n[4], n[5], int(fraction(m[7])), loc)
	return t.UTC()
}

// splitStructured splits a structured klog message, `"msg" k1="v1" k2=[a b]`, into the
// unquoted message and its pairs. A message that does not start with a quote is returned
// as it is. truncated is set when the text ends inside a quoted string or a bracketed value.
func splitStructured(s string) (msg string, kvs []KeyValue, structured, truncated bool) {
	if !strings.HasPrefix(s, `"`) {
		return s, nil, false, false
	}
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return strings.TrimPrefix(s, `"`), nil, true, true
	}
	msg, _ = strconv.Unquote(q)
	rest := s[len(q):]
	for {
		rest = strings.TrimLeft(rest, " \t")
		eq := strings.IndexByte(rest, '=')
		if rest == "" || eq <= 0 || strings.ContainsAny(rest[:eq], " \t\"") {
			return msg, kvs, true, truncated || (rest != "" && eq < 0)
		}
		key := rest[:eq]
		v, n, complete := scanValue(rest[eq+1:])
		kvs = append(kvs, KeyValue{Key: key, Value: v})
		if !complete {
			return msg, kvs, true, true
		}
		rest = rest[eq+1+n:]
	}
}

// scanValue reads one value at the start of s: a Go-quoted string, or text up to the next
// space outside brackets and quotes (`["sre/a","sre/b"]`, `map[a:1 b:2]`, `<nil>`). It
// returns the value (unquoted when it was a quoted string), the bytes read, and whether the
// value ended before the text did.
func scanValue(s string) (v string, n int, complete bool) {
	if strings.HasPrefix(s, `"`) {
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return strings.TrimPrefix(s, `"`), len(s), false
		}
		u, _ := strconv.Unquote(q)
		return u, len(q), true
	}
	depth, inQuote := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inQuote && c == '\\':
			i++
		case c == '"':
			inQuote = !inQuote
		case inQuote:
		case c == '[' || c == '{' || c == '(' || (c == '<' && i == 0):
			depth++
		case (c == ']' || c == '}' || c == ')' || (c == '>' && s[0] == '<')) && depth > 0:
			depth--
		case (c == ' ' || c == '\t') && depth == 0:
			return s[:i], i, true
		}
	}
	return s, len(s), depth == 0 && !inQuote
}

// KubeletLogKind is what a kubelet eviction-manager or node-status log line reports
// (pkg/kubelet/eviction/eviction_manager.go and helpers.go, pkg/kubelet/kubelet_node_status.go).
type KubeletLogKind string

// Kinds of kubelet log lines, in the order the eviction manager writes them.
const (
	KubeletThreshold      KubeletLogKind = "threshold"       // a threshold met: Signal, Threshold, Observed (V(3))
	KubeletNodeConditions KubeletLogKind = "node-conditions" // "node conditions - observed": Conditions (V(3))
	KubeletReclaim        KubeletLogKind = "reclaim"         // "attempting to reclaim <resource>"
	KubeletReclaimed      KubeletLogKind = "reclaimed"       // pressure reduced without evicting pods (image/container GC)
	KubeletReclaimError   KubeletLogKind = "reclaim-error"   // "unexpected error when attempting to reduce <resource> pressure"
	KubeletMustEvict      KubeletLogKind = "must-evict"      // "must evict pod(s) to reclaim <resource>"
	KubeletRanked         KubeletLogKind = "ranked"          // "pods ranked for eviction": Pods, first evicted first
	KubeletEvicted        KubeletLogKind = "evicted"         // a pod evicted: Pods[0]
	KubeletEvictFailed    KubeletLogKind = "evict-failed"    // a pod failed to evict, or is critical and was skipped
	KubeletUnableToEvict  KubeletLogKind = "unable-to-evict" // "unable to evict any pods", or no pods active to evict
	KubeletAdmitRejected  KubeletLogKind = "admit-rejected"  // a pod refused admission under Conditions
	KubeletNodeStatus     KubeletLogKind = "node-status"     // "Recording event message for node": Event
	KubeletEvictionOther  KubeletLogKind = "eviction-other"  // any other eviction-manager line
)

// PodRef names a pod. UID is set only by the pre-1.20 "name_namespace(uid)" form.
type PodRef struct {
	Namespace, Name, UID string
}

// KubeletLog is a kubelet eviction-manager or node-status log line.
type KubeletLog struct {
	Kind KubeletLogKind
	// Resource is the resource named by the line, normalised by EvictionResource:
	// "memory", "ephemeral-storage", "inodes" or "pids". ResourceAsWritten keeps the
	// kubelet's word ("nodefs", "imagefsInodes", "ephemeral-storage").
	Resource, ResourceAsWritten string
	// Signal, Threshold and Observed describe a KubeletThreshold line: "memory.available",
	// "100Mi", "97680Ki" (Observed is "" when the kubelet had no observation). Stage is the
	// step that logged it, e.g. "thresholds - ignoring grace period".
	Signal, Threshold, Observed, Stage string
	Pods                               []PodRef // in the order written
	Conditions                         []string // "MemoryPressure", "DiskPressure", "PIDPressure"
	Node, Event                        string   // KubeletNodeStatus: "node-08", "NodeHasDiskPressure"
	Detail                             string   // an error or explanation, as written
	Truncated                          bool     // the line was cut; a pod cut short is left out
	// Line is the klog line: Line.Prefix.Host is the journald host, Line.Time the time
	// (month, day and clock; the year only when a prefix gave one). A bare message without a
	// klog header is accepted too; Line then holds only the message.
	Line KlogLine
}

var (
	oldPodRe            = regexp.MustCompile(`^([^\s,()]+)_([^\s_,()]+)\(([^()\s]*)\)$`)
	evictionThresholdRe = regexp.MustCompile(`^(.+?): threshold \[signal=([^,\]\s]+)(?:, quantity=([^\]\s]+))?\](?: observed (\S+)| had no observation)?`)
	reclaimRe           = regexp.MustCompile(`(?i)^attempting to reclaim\s*(\S*)`)
	reducedRe           = regexp.MustCompile(`^able to reduce (\S+) pressure without evicting pods`)
	mustEvictRe         = regexp.MustCompile(`^must evict pod\(s\) to reclaim\s*(\S*)`)
	reduceErrRe         = regexp.MustCompile(`^unexpected error when attempting to reduce (\S+) pressure(?::\s*(.*))?`)
	evictedOldRe        = regexp.MustCompile(`^pod (\S+) (?:is )?evicted successfully`)
	evictFailOldRe      = regexp.MustCompile(`^pod (\S+) failed to evict\s*(.*)`)
	conditionsRe        = regexp.MustCompile(`(?i)^node conditions - observed:?\s*(.*)`)
	admitOldRe          = regexp.MustCompile(`^Failed to admit pod (\S+) - node has conditions: (.*)`)
	nodeEventOldRe      = regexp.MustCompile(`^Recording (\S+) event message for node (\S+)`)
	nodeEventRe         = regexp.MustCompile(`^Node[A-Z][A-Za-z]+$`)
)

// ParseKubeletLog parses a kubelet log line of the eviction manager (every release since
// 1.3: the glog/klog "eviction manager: must evict pod(s) to reclaim memory" text and the
// structured `"Eviction manager: must evict pod(s) to reclaim" resourceName="memory"` of
// 1.20+), the admission refusal under node conditions, and the node status events the
// kubelet records (NodeHasDiskPressure, …). The line may carry any prefix ParseKlog
// accepts, or be a bare message. ok is false for other lines.
func ParseKubeletLog(line string) (KubeletLog, bool) {
	l, ok := ParseKlog(line)
	if !ok {
		l = KlogLine{}
		l.Message, l.Values, l.Structured, l.Truncated = splitStructured(stripQuoteMarks(line))
	}
	k := KubeletLog{Line: l, Truncated: l.Truncated}
	msg := strings.TrimSpace(l.Message)
	if body, ok := cutFold(msg, "eviction manager:"); ok {
		k.evictionManager(strings.TrimSpace(body))
		return k, true
	}
	switch {
	case msg == "Failed to admit pod to node":
		k.Kind = KubeletAdmitRejected
		k.addPod(l.valueOr("pod", ""))
		k.Conditions = listItems(l.valueOr("nodeCondition", ""))
	case admitOldRe.MatchString(msg):
		m := admitOldRe.FindStringSubmatch(msg)
		k.Kind = KubeletAdmitRejected
		k.addPod(m[1])
		k.Conditions = listItems(m[2])
	case msg == "Recording event message for node":
		ev := l.valueOr("event", "")
		if !nodeEventRe.MatchString(ev) {
			return KubeletLog{}, false
		}
		k.Kind, k.Node, k.Event = KubeletNodeStatus, l.valueOr("node", ""), ev
	case nodeEventOldRe.MatchString(msg):
		m := nodeEventOldRe.FindStringSubmatch(msg)
		if !nodeEventRe.MatchString(m[1]) {
			return KubeletLog{}, false
		}
		k.Kind, k.Node, k.Event = KubeletNodeStatus, m[2], m[1]
	default:
		return KubeletLog{}, false
	}
	return k, true
}

// evictionManager classifies the text after "eviction manager:", in both the printf form
// and the structured one, whose keys are resourceName, pods, pod, err and nodeCondition.
func (k *KubeletLog) evictionManager(body string) {
	l := k.Line
	k.setResource(l.valueOr("resourceName", ""))
	if err, ok := l.Value("err"); ok {
		k.Detail = err
	}
	lower := strings.ToLower(body)
	switch {
	case strings.HasPrefix(lower, "attempting to reclaim"):
		k.Kind = KubeletReclaim
		k.setResource(submatch(reclaimRe, body, 1))
	case strings.HasPrefix(lower, "able to reduce"):
		k.Kind = KubeletReclaimed
		if m := reducedRe.FindStringSubmatch(body); m != nil && m[1] != "resource" {
			k.setResource(m[1])
		}
	case strings.HasPrefix(lower, "must evict"):
		k.Kind = KubeletMustEvict
		if m := mustEvictRe.FindStringSubmatch(body); m != nil {
			k.setResource(m[1])
		}
	case strings.HasPrefix(lower, "unexpected error when attempting to reduce"):
		k.Kind = KubeletReclaimError
		if m := reduceErrRe.FindStringSubmatch(body); m != nil {
			if m[1] != "resource" {
				k.setResource(m[1])
			}
			if m[2] != "" {
				k.Detail = m[2]
			}
		}
	case strings.HasPrefix(lower, "pods ranked for eviction"):
		k.Kind = KubeletRanked
		if v, ok := l.Value("pods"); ok {
			k.addPods(listItems(v), l.Truncated)
		} else if _, list, found := strings.Cut(body, ":"); found {
			k.addPods(strings.Split(list, ","), true)
		}
	case strings.HasPrefix(lower, "pod is evicted successfully"):
		k.Kind = KubeletEvicted
		k.addPod(l.valueOr("pod", ""))
	case evictedOldRe.MatchString(body):
		k.Kind = KubeletEvicted
		k.addPod(submatch(evictedOldRe, body, 1))
	case strings.HasPrefix(lower, "pod failed to evict"):
		k.Kind = KubeletEvictFailed
		k.addPod(l.valueOr("pod", ""))
	case evictFailOldRe.MatchString(body):
		m := evictFailOldRe.FindStringSubmatch(body)
		k.Kind, k.Detail = KubeletEvictFailed, strings.TrimSpace(m[2])
		k.addPod(m[1])
	case strings.HasPrefix(lower, "cannot evict a critical pod"):
		k.Kind, k.Detail = KubeletEvictFailed, "critical pod"
		pod := l.valueOr("pod", strings.TrimSpace(body[len("cannot evict a critical pod"):]))
		k.addPod(pod)
	case strings.HasPrefix(lower, "unable to evict any pods"),
		strings.Contains(lower, "no pods are active to evict"):
		k.Kind, k.Detail = KubeletUnableToEvict, body
	case strings.HasPrefix(lower, "node conditions - observed"):
		k.Kind = KubeletNodeConditions
		k.Conditions = listItems(l.valueOr("nodeCondition", submatch(conditionsRe, body, 1)))
	case evictionThresholdRe.MatchString(body):
		m := evictionThresholdRe.FindStringSubmatch(body)
		k.Kind, k.Stage, k.Signal, k.Threshold, k.Observed = KubeletThreshold, m[1], m[2], m[3], m[4]
		k.setResource(m[2])
	case strings.HasPrefix(lower, "threshold observed resource"),
		strings.HasPrefix(lower, "threshold had no observation"):
		k.Kind, k.Stage = KubeletThreshold, l.valueOr("log", "")
		k.Signal, k.Threshold, k.Observed = l.valueOr("signal", ""), l.valueOr("quantity", ""), l.valueOr("available", "")
		if k.ResourceAsWritten == "" {
			k.setResource(k.Signal)
		}
	default:
		k.Kind = KubeletEvictionOther
		if v, ok := l.Value("pods"); ok {
			k.addPods(listItems(v), l.Truncated)
		}
	}
}

// setResource records a resource name unless it is empty.
func (k *KubeletLog) setResource(r string) {
	r = strings.TrimRight(strings.TrimSpace(r), ".")
	if r == "" {
		return
	}
	k.ResourceAsWritten, k.Resource = r, EvictionResource(r)
}

// addPods appends the pods of a list. When the list may have been cut (an old-form list
// at the end of a line, or a truncated structured value), an unreadable last item is dropped
// and the line marked Truncated.
func (k *KubeletLog) addPods(items []string, mayBeCut bool) {
	for i, it := range items {
		ref, ok := parsePodRef(it)
		if !ok {
			if i == len(items)-1 && mayBeCut && strings.TrimSpace(it) != "" {
				k.Truncated = true
			}
			continue
		}
		k.Pods = append(k.Pods, ref)
	}
}

// addPod appends one pod written as "ns/name" or "name_ns(uid)".
func (k *KubeletLog) addPod(s string) {
	if ref, ok := parsePodRef(s); ok {
		k.Pods = append(k.Pods, ref)
	}
}

// parsePodRef reads klog.KObj's "ns/name" and the kubelet's older format.Pod
// "name_namespace(uid)". Namespaces are DNS labels and pod names DNS subdomains, so neither
// contains "_" or "/": the separators are unambiguous.
func parsePodRef(s string) (PodRef, bool) {
	s = strings.Trim(strings.TrimSpace(s), `"`)
	if m := oldPodRe.FindStringSubmatch(s); m != nil {
		return PodRef{Namespace: m[2], Name: m[1], UID: m[3]}, true
	}
	ns, name, ok := strings.Cut(s, "/")
	if !ok || ns == "" || name == "" || strings.ContainsAny(name, "/ ()\"") || strings.ContainsAny(ns, " ()\"") {
		return PodRef{}, false
	}
	return PodRef{Namespace: ns, Name: name}, true
}

// listItems splits a logged list: `["sre/a","sre/b"]` (klog.KObjSlice), `[sre/a sre/b]`
// (older klog), `[MemoryPressure DiskPressure]` (fmt's %v of a slice), or a bare item.
func listItems(v string) []string {
	v = strings.TrimSpace(v)
	v = strings.TrimPrefix(v, "[")
	v = strings.TrimSuffix(v, "]")
	var out []string
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
		if f = strings.Trim(f, `"`); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// submatch returns group i of re's first match in s, or "" without a match.
func submatch(re *regexp.Regexp, s string, i int) string {
	m := re.FindStringSubmatch(s)
	if i >= len(m) {
		return ""
	}
	return m[i]
}

// valueOr returns the value of key, or def when the line has none.
func (l KlogLine) valueOr(key, def string) string {
	if v, ok := l.Value(key); ok {
		return v
	}
	return def
}

// cutFold is strings.CutPrefix ignoring ASCII case: the eviction manager's prefix was
// "eviction manager:" before structured logging and "Eviction manager:" after.
func cutFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return s, false
	}
	return s[len(prefix):], true
}

// EvictionResource normalises a resource or eviction signal named by the kubelet to the names
// pod eviction messages use since 1.9: the older "nodefs" and "imagefs" (and the signals
// "nodefs.available", "imagefs.available", "containerfs.available") become
// "ephemeral-storage", as the kubelet's own signalToResource maps them; "nodefsInodes",
// "imagefsInodes" and the ".inodesFree" signals become "inodes"; "memory.available" and
// "allocatableMemory.available" become "memory"; "pid.available" becomes "pids". Other
// names are returned as written.
func EvictionResource(s string) string {
	switch strings.TrimSpace(s) {
	case "memory", "memory.available", "allocatableMemory.available":
		return "memory"
	case "ephemeral-storage", "nodefs", "imagefs", "containerfs",
		"nodefs.available", "imagefs.available", "containerfs.available":
		return "ephemeral-storage"
	case "inodes", "nodefsInodes", "imagefsInodes", "containerfsInodes",
		"nodefs.inodesFree", "imagefs.inodesFree", "containerfs.inodesFree":
		return "inodes"
	case "pids", "pid.available":
		return "pids"
	}
	return strings.TrimSpace(s)
}
