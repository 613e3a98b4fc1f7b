package timeline

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/kinds"
)

// Routine rows are what a cluster does all day: nodes added, pods scheduled, pulled, created,
// started and stopped, workloads scaled. In a large incident there are tens of thousands of them
// and they bury the rows that tell the story, so Apply folds a burst of them into one row that
// says how many, of what, where and when ("+97 nodes in pool user-pool, 17:00–17:04"), and lists
// them on demand (Filter.Expand). A row is routine only when it is informational, of a kind
// below, and not cited as evidence by a symptom or cause: symptoms, causes, notes, warnings and
// evidence are never folded.
var routineKinds = map[string]string{ // kind → family: rows of one family and place fold together
	"NodeAdded": famNodes, "NodeState": famNodes,
	"Scheduled": famPods, "Pulling": famPods, "Pulled": famPods, "Created": famPods, "Started": famPods, "Killing": famPods,
	"SuccessfulAttachVolume": famPods, "SuccessfulMountVolume": famPods, "AddedInterface": famPods, "TriggeredScaleUp": famPods,
	"PodState":       famPods,
	"RegisteredNode": famNodeEvents, "NodeReady": famNodeEvents, "Starting": famNodeEvents, "NodeAllocatableEnforced": famNodeEvents,
	"NodeHasSufficientMemory": famNodeEvents, "NodeHasNoDiskPressure": famNodeEvents, "NodeHasSufficientPID": famNodeEvents,
	"NodeHasSufficientDisk": famNodeEvents, "NodeSchedulable": famNodeEvents,
	"SuccessfulCreate": famWorkloads, "SuccessfulDelete": famWorkloads, "ScalingReplicaSet": famWorkloads,
	"SuccessfulRescale": famWorkloads, "Completed": famWorkloads, "SawCompletedJob": famWorkloads,
}

// Families of routine rows.
const (
	famNodes      = "nodes"       // node rows: added, state changes
	famPods       = "pods"        // events and state changes of pods
	famNodeEvents = "node-events" // the kubelet's and controllers' events about nodes
	famWorkloads  = "workloads"   // controllers' events about workloads
	// famEvidence is the rows cited as evidence by one symptom or cause: a hundred nodes not
	// ready are one row under the symptom that cites them (owner), not a hundred.
	famEvidence = "evidence"
)

// A burst is a run of routine rows of one family and place. While the story goes on (a row that
// is not routine came after the burst's last row), a row more than burstGap after the burst's
// last, or more than burstSpan after its first, starts a new burst: each stays a moment of the
// story. Through a quiet stretch, where nothing but routine rows happen, a burst goes on however
// long: a month of nodes added before the incident is one row per pool. Fewer than minBurst rows
// stay as they are.
const (
	burstGap  = 5 * time.Minute
	burstSpan = 15 * time.Minute
	minBurst  = 3
)

// BurstPrefix starts the Ref of a collapsed row.
const BurstPrefix = "burst-"

// routine returns the family of a routine row and the place it folds by: its node pool, else its
// namespace.
func routine(e *Entry) (family string, ok bool) {
	if e.Severity != SeverityInfo || len(e.Links) > 0 || e.Parent != "" || e.Members > 0 || (e.Type != TypeEvent && e.Type != TypeNode) {
		return "", false
	}
	family = routineKinds[e.Kind]
	if family == famNodes && e.Type != TypeNode {
		return "", false
	}
	return family, family != ""
}

type burst struct {
	family, pool, namespace string
	// owner is the symptom or cause whose evidence a fold of famEvidence holds, and kind its
	// kind, which the row names.
	owner, kind   string
	first, lastAt time.Time
	lastIndex     int // of its last member in the rows
	members       []*Entry
}

// line is a row of a view before paging: an entry of the timeline, or a burst that one row
// will stand for. Only the rows of the page asked for are made of their bursts.
type line struct {
	e *Entry
	b *burst
}

// entry is the row a line shows.
func (l line) entry() Entry {
	if l.b != nil {
		return *l.b.row()
	}
	return *l.e
}

// owner is the symptom or cause a row cited as evidence folds under: the first that cites it
// (a row's links name the symptoms before the causes). Rows of other types (symptoms, causes,
// changes, alerts, notes) are never folded.
func owner(e *Entry) string {
	if len(e.Links) == 0 || e.Parent != "" || e.Members > 0 || (e.Type != TypeEvent && e.Type != TypeNode) {
		return ""
	}
	return e.Links[0]
}

// collapse folds the bursts of routine rows (in time order) into one line each, and the rows
// cited as evidence by one symptom or cause into one line for it, standing where the first of
// them stood; rows between (a warning, a symptom) stay where they are. kindOf names the kind of
// each symptom and cause, for the evidence rows' line to say what they are evidence of.
func collapse(rows []*Entry, kindOf map[string]string) []line {
	type place struct{ family, pool, namespace string }
	of := make([]*burst, len(rows))
	open := map[place]*burst{}
	cited := map[string]*burst{} // owner → the fold of its evidence
	story := -1                  // index of the last row that is not routine
	for i, e := range rows {
		if id := owner(e); id != "" {
			b := cited[id]
			if b == nil {
				b = &burst{family: famEvidence, owner: id, kind: kindOf[id], first: e.At}
				cited[id] = b
			}
			b.lastAt, b.lastIndex = e.At, i
			b.members = append(b.members, e)
			of[i], story = b, i
			continue
		}
		family, ok := routine(e)
		if !ok {
			story = i
			continue
		}
		k := place{family, e.Pool, ""}
		if e.Pool == "" {
			k.namespace = e.Namespace
		}
		b := open[k]
		if b == nil || (story > b.lastIndex && (e.At.Sub(b.lastAt) > burstGap || e.At.Sub(b.first) > burstSpan)) {
			b = &burst{family: family, pool: k.pool, namespace: k.namespace, first: e.At}
			open[k] = b
		}
		b.lastAt, b.lastIndex = e.At, i
		b.members = append(b.members, e)
		of[i] = b
	}
	out := make([]line, 0, len(rows))
	for i, e := range rows {
		b := of[i]
		switch {
		case b == nil || len(b.members) < minBurst:
			out = append(out, line{e: e})
		case b.members[0] == e:
			out = append(out, line{b: b})
		}
	}
	return out
}

// ref is the key of a burst's row: its family, place and first time, the same in every view
// that folds the same rows.
func (b *burst) ref() string {
	if b.owner != "" {
		return b.owner
	}
	place := b.pool
	if place == "" && b.namespace != "" {
		place = "ns-" + b.namespace
	}
	return strings.ReplaceAll(BurstPrefix+b.family+"-"+place+"-"+b.first.UTC().Format("20060102T150405Z"), "--", "-")
}

// row is the one row a burst becomes.
func (b *burst) row() *Entry {
	first := b.members[0]
	e := &Entry{At: b.first, Type: first.Type, Severity: SeverityInfo, Pool: b.pool, Namespace: first.Namespace, Node: first.Node,
		Members: len(b.members), Kinds: map[string]int{}}
	if b.owner != "" {
		e.Pool = first.Pool
	}
	last := b.first
	objects := map[string]bool{}
	for _, m := range b.members {
		n := max(m.Count, 1)
		e.Count += n
		e.Kinds[m.Kind] += n
		objects[m.Object] = true
		if t := m.end(); t.After(last) {
			last = t
		}
		if m.Namespace != e.Namespace {
			e.Namespace = ""
		}
		if m.Node != e.Node {
			e.Node = ""
		}
		if m.Pool != e.Pool {
			e.Pool = ""
		}
		if severityRank[m.Severity] > severityRank[e.Severity] {
			e.Severity = m.Severity
		}
		if b.owner != "" {
			e.Links = union(e.Links, m.Links)
		}
	}
	if last.After(b.first) {
		e.Last = &last
	}
	order := slices.SortedFunc(maps.Keys(e.Kinds), func(a, b string) int {
		if d := e.Kinds[b] - e.Kinds[a]; d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	e.Kind = strings.Join(order, ",")
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = k + " " + Thousands(e.Kinds[k])
	}
	where := ""
	switch {
	case e.Pool != "":
		where = " in pool " + e.Pool
	case b.namespace != "":
		where = " in namespace " + b.namespace
	}
	noun := map[string]string{famNodes: "node", famPods: "pod", famNodeEvents: "node", famWorkloads: "object", famEvidence: objectNoun(objects)}[b.family]
	if len(objects) != 1 {
		noun += "s"
	}
	e.Object = Thousands(len(objects)) + " " + noun
	span := Span(b.first, last)
	switch {
	case b.owner != "":
		// "Node not ready: 96 nodes in pool dask-pool (NodeNotReady 100), 17:01–17:02"
		what := b.owner
		if b.kind != "" {
			what = kinds.Name(b.kind)
		}
		e.Summary = fmt.Sprintf("%s: %s%s (%s), %s", what, e.Object, where, strings.Join(parts, ", "), span)
	case b.family == famNodes && e.Kind == "NodeAdded":
		e.Summary = fmt.Sprintf("+%s nodes%s, %s", Thousands(len(objects)), where, span)
	default:
		what := map[string]string{famNodes: "node changes", famPods: "pod events", famNodeEvents: "node events", famWorkloads: "workload events"}[b.family]
		e.Summary = fmt.Sprintf("%s routine %s of %s%s (%s), %s", Thousands(e.Count), what, e.Object, where, strings.Join(parts, ", "), span)
	}
	e.Ref = b.ref()
	return e
}

// objectNoun names what a set of objects ("Node n1", "Pod prod/a") are: their kind when they
// share one ("node"), else "object".
func objectNoun(objects map[string]bool) string {
	noun := ""
	for o := range objects {
		kind, _, _ := strings.Cut(o, " ")
		if kind == "" || (noun != "" && noun != kind) {
			return "object"
		}
		noun = kind
	}
	if noun == "" {
		return "object"
	}
	return strings.ToLower(noun)
}

// Span says when a burst happened, to the minute: "17:00–17:04"; across midnight with both
// dates ("2023-02-01 23:58–2023-02-02 00:03"). Within a day the row's own time gives the date
// (the page says it once a day).
func Span(from, to time.Time) string {
	from, to = from.UTC(), to.UTC()
	switch {
	case from.Truncate(time.Minute).Equal(to.Truncate(time.Minute)):
		return from.Format("15:04")
	case sameDay(from, to):
		return from.Format("15:04") + "–" + to.Format("15:04")
	}
	return from.Format("2006-01-02 15:04") + "–" + to.Format("2006-01-02 15:04")
}

// Thousands writes a count with thousands separated: 1,204.
func Thousands(n int) string {
	if n < 0 {
		return "-" + Thousands(-n)
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func sameDay(a, b time.Time) bool {
	return a.UTC().Truncate(24 * time.Hour).Equal(b.UTC().Truncate(24 * time.Hour))
}
