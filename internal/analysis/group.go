package analysis

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// Symptoms are told as groups: a thousand Pending pods of one kind of trouble are one fact with
// a thousand members, not a thousand facts. Members of one group share
//   - the kind, and the reason beyond it (what a pod was evicted for, the scheduler's main
//     reason, how a probe failed);
//   - the node pool;
//   - the causes that explain them, so that a cause explains whole groups;
//   - whether they are critical and, for the pods of critical components (the hub, DNS, an
//     ingress), the workload: the hub's restart is never one of a thousand;
// and their times overlap: a pause much longer than the members' usual spacing starts a new
// group (episodes). Each group lists its members, with their own times and evidence.

// groupWindow is the gap in time that separates two groups of one key.
const groupWindow = 15 * time.Minute

// groupEvidence is how many members a group cites evidence of; the members have all of theirs.
const groupEvidence = 5

type groupKey struct {
	kind, reason, pool, critical, causes string
}

// member is a symptom with what grouping needs to know of it.
type member struct {
	s         *Symptom // the report's, as the rules found it: a symptom is hundreds of bytes
	key       groupKey
	count     int
	workloads []Share
	pools     []Share
	critical  bool
}

// group is the members of one key that happened close together.
type group struct {
	key     groupKey
	members []member
	until   *time.Time
}

// groupSymptoms replaces the report's symptoms by groups, ordered worst first and numbered
// S1…, and rewrites the causes' Explains to the groups. It returns each former symptom id's
// group id.
func groupSymptoms(in Input, rep *Report) map[string]string {
	causesOf := map[string][]string{}
	for i, c := range rep.Causes {
		for _, id := range c.Explains {
			causesOf[id] = append(causesOf[id], fmt.Sprint(i))
		}
	}
	var keys []groupKey
	byKey := map[groupKey][]member{}
	for i := range rep.Symptoms { // in time order, undated last
		s := &rep.Symptoms[i]
		mb := describeMember(in, s)
		mb.key.causes = strings.Join(causesOf[s.ID], ",")
		if s.Kind == ScaleUp {
			mb.key.causes += "|" + s.ID // each burst of nodes is a fact of its own
		}
		if _, ok := byKey[mb.key]; !ok {
			keys = append(keys, mb.key)
		}
		byKey[mb.key] = append(byKey[mb.key], mb)
	}
	var groups []*group
	var span time.Duration
	if rep.Inputs.From != nil {
		span = rep.Inputs.To.Sub(*rep.Inputs.From)
	}
	for _, k := range keys {
		groups = append(groups, episodes(k, byKey[k], span)...)
	}
	out := make([]Symptom, 0, len(groups))
	for _, g := range groups {
		out = append(out, g.symptom())
	}
	sort.SliceStable(out, func(i, j int) bool { return worse(out[i], out[j]) })
	final := map[string]string{}
	for i := range out {
		s := &out[i]
		s.ID = fmt.Sprintf("S%d", i+1)
		if len(s.Members) == 0 {
			final[s.formerID] = s.ID
			s.formerID = ""
			continue
		}
		for j := range s.Members {
			final[s.Members[j].ID] = s.ID
			s.Members[j].ID = fmt.Sprintf("%s.%d", s.ID, j+1)
		}
	}
	rank := map[string]int{}
	for i, s := range out {
		rank[s.ID] = i
	}
	var regroup func(c *Cause)
	regroup = func(c *Cause) {
		for j, id := range c.Explains {
			if f, ok := final[id]; ok {
				c.Explains[j] = f
			}
		}
		c.Explains = Unique(c.Explains)
		sort.SliceStable(c.Explains, func(a, b int) bool { return rank[c.Explains[a]] < rank[c.Explains[b]] })
		for j, id := range c.Follows {
			if f, ok := final[id]; ok {
				c.Follows[j] = f
			}
		}
		for j := range c.Members {
			regroup(&c.Members[j])
		}
	}
	for i := range rep.Causes {
		regroup(&rep.Causes[i])
	}
	rep.Symptoms = out
	return final
}

// episodes splits the members of one key, in time order, where they pause: at a gap longer
// than groupWindow, than episodeGaps times their median gap and than a tenth of the span of
// the whole input, so that two bursts an afternoon apart are two groups while a trickle over a
// day stays one. Undated members are a group of their own.
func episodes(k groupKey, members []member, span time.Duration) []*group {
	var gaps []time.Duration
	for i := 1; i < len(members); i++ {
		a, b := members[i-1].s.At, members[i].s.At
		if a != nil && b != nil {
			gaps = append(gaps, b.Sub(*a))
		}
	}
	limit := max(groupWindow, span/10)
	if len(gaps) > 0 {
		sorted := append([]time.Duration(nil), gaps...)
		sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
		limit = max(limit, episodeGaps*sorted[len(sorted)/2])
	}
	// An episode is a run of members: its group holds that part of members, capped so that
	// an append could not write into the next episode's.
	var out []*group
	var g *group
	start := 0
	for i, mb := range members {
		at := mb.s.At
		switch {
		case g == nil, (at == nil) != (g.until == nil), at != nil && at.Sub(*g.until) > limit:
			if g != nil {
				g.members = members[start:i:i]
			}
			g, start = &group{key: k}, i
			out = append(out, g)
		}
		if at != nil && (g.until == nil || at.After(*g.until)) {
			g.until = at
		}
	}
	if g != nil {
		g.members = members[start:len(members):len(members)]
	}
	return out
}

// episodeGaps is how many times its usual gap a pause must be to end an episode.
const episodeGaps = 4

// describeMember works out a symptom's key (but for its causes), how many pods or nodes it
// stands for, and their workloads and pools.
func describeMember(in Input, s *Symptom) member {
	m := in.Model
	mb := member{s: s, key: groupKey{kind: s.Kind, reason: groupReason(*s)}, count: max(primaryCount(s.Objects), 1)}
	var pools, workloads tally
	addPool := func(p string) { pools.add(Share{Name: p, Count: 1}) }
	addWorkload := func(w string) { workloads.add(Share{Name: w, Count: 1}) }
	pods := 0
	for _, ref := range s.Objects {
		switch ref.Kind {
		case cluster.KindNode:
			if n := m.Node(ref.Name); n != nil {
				addPool(n.NodePool())
			}
		case cluster.KindPod:
			pods++
			p := m.Pod(ref.Namespace, ref.Name)
			if p == nil {
				addWorkload(strings.TrimPrefix(ref.Namespace+"/"+cluster.NameStem(ref.Name), "/"))
				continue
			}
			addWorkload(strings.TrimPrefix(p.Namespace+"/"+cluster.WorkloadName(p.Pod), "/"))
			addPool(podPool(m, p))
			if !mb.critical && in.Critical(p) {
				// Critical pods are never one among ordinary ones, and the hub's, DNS's or an
				// ingress's trouble is a group of its own.
				mb.critical, mb.key.critical = true, "critical"
				if in.Component(p) != "" {
					mb.key.critical = p.Namespace + "/" + cluster.WorkloadName(p.Pod)
				}
			}
		}
	}
	if pods == 0 && s.Pod != nil { // a pod the input does not name
		addPool(podPool(m, s.Pod))
		if in.Critical(s.Pod) {
			mb.critical, mb.key.critical = true, "critical"
			if in.Component(s.Pod) != "" {
				mb.key.critical = "\x00" + s.Pod.Source.String()
			}
		}
	}
	if len(pools.shares) == 0 && s.Node != "" {
		if n := m.Node(s.Node); n != nil {
			addPool(n.NodePool())
		}
	}
	mb.pools, mb.workloads = pools.shares, workloads.shares
	if len(mb.pools) > 0 {
		mb.key.pool = mb.pools[0].Name
	}
	return mb
}

// tally counts members by name, in the order the names first come. It looks a name up in its
// list while the list is short, and through an index once it is long: a group of thousands of
// pods of as many workloads walked the list for each member.
type tally struct {
	shares []Share
	at     map[string]int // the place of each name in shares, once there are tallyIndexed
}

const tallyIndexed = 16

// add adds sh's members to the share of its name; a share without a name counts nowhere.
func (t *tally) add(sh Share) {
	if sh.Name == "" {
		return
	}
	if t.at == nil && len(t.shares) >= tallyIndexed {
		t.at = make(map[string]int, 2*len(t.shares))
		for i, x := range t.shares {
			t.at[x.Name] = i
		}
	}
	if t.at != nil {
		if i, ok := t.at[sh.Name]; ok {
			t.shares[i].Count += sh.Count
			return
		}
		t.at[sh.Name] = len(t.shares)
	} else {
		for i := range t.shares {
			if t.shares[i].Name == sh.Name {
				t.shares[i].Count += sh.Count
				return
			}
		}
	}
	t.shares = append(t.shares, sh)
}

// podPool is the pool of a pod's node, or for a pod on no node the pool it waits for.
func podPool(m *cluster.Model, p *cluster.Object) string {
	if name := p.Pod.Spec.NodeName; name != "" {
		if n := m.Node(name); n != nil {
			return n.NodePool()
		}
		return ""
	}
	return m.PoolFor(p)
}

// symptom is the group as a symptom of the report: the member itself when it is alone.
func (g *group) symptom() Symptom {
	shares := func(each func(member) []Share) []Share {
		var t tally
		for _, mb := range g.members {
			for _, sh := range each(mb) {
				t.add(sh)
			}
		}
		sort.SliceStable(t.shares, func(i, j int) bool { return t.shares[i].Count > t.shares[j].Count })
		return t.shares
	}
	first := g.members[0]
	s := *first.s
	if len(g.members) == 1 {
		s.formerID = s.ID
	} else {
		// Members made to size: a symptom is hundreds of bytes, and a group of a large
		// incident has thousands of members, which growing by appends copied about twice.
		s = Symptom{Kind: first.s.Kind, At: first.s.At, Node: first.s.Node, Objects: []ObjectRef{}, Evidence: []Evidence{},
			Details: Details{Members: len(g.members)}, Members: make([]Symptom, 0, len(g.members))}
		seen := map[ObjectRef]bool{}
		for i, mb := range g.members {
			if mb.s.Node != s.Node {
				s.Node = ""
			}
			for _, o := range mb.s.Objects {
				if !seen[o] {
					seen[o] = true
					s.Objects = append(s.Objects, o)
				}
			}
			if i < groupEvidence && len(mb.s.Evidence) > 0 {
				s.Evidence = append(s.Evidence, mb.s.Evidence[0])
			}
			m := *mb.s
			m.Members = nil
			s.Members = append(s.Members, m)
		}
		s.Evidence = Unique(s.Evidence)
	}
	s.Reason = g.key.reason
	for _, mb := range g.members {
		s.Count += mb.count
		s.Critical = s.Critical || mb.critical
	}
	if g.until != nil && s.At != nil && !g.until.Equal(*s.At) {
		s.Until = g.until
	}
	s.Workloads = shares(func(mb member) []Share { return mb.workloads })
	s.Pools = shares(func(mb member) []Share { return mb.pools })
	if len(g.members) > 1 {
		// A member is about objects of its first object's kind (primaryCount): one of each
		// member says what the group's members are.
		subjects := make([]ObjectRef, 0, len(g.members))
		for _, mb := range g.members {
			if len(mb.s.Objects) > 0 {
				subjects = append(subjects, mb.s.Objects[0])
			}
		}
		s.Summary = groupSummary(s, subjects)
	}
	s.Severity = severityOf(s, g.key.critical != "" && g.key.critical != "critical")
	return s
}

// groupVerbs say what happened to the members of a group of each kind.
var groupVerbs = map[string]string{
	PodEvicted: "were evicted", PodPending: "could not be scheduled", OOMKilled: "had containers OOM-killed",
	LivenessProbeFailed: "failed their liveness probes", ReadinessProbeFailed: "failed their readiness probes",
	StartupProbeFailed: "failed their startup probes",
	CrashLoopBackOff:   "were in CrashLoopBackOff", ContainerRestarted: "had containers restarted",
	ImagePullFailed: "could not pull their images", Preempted: "were preempted", NodeNotReady: "were not ready",
	NodePressure: "were under pressure", EvictedPodsLingering: "were left evicted, never deleted", ScaleUp: "were added",
	PodStuckCreating: "could not start on their nodes", PodCreateFailed: "could not create their pods",
	RolloutStuck: "stopped progressing", JobFailed: "failed", VolumeProvisioningFailed: "could not be provisioned",
	NodeOOM: "ran the kernel's OOM killer",
}

// groupNoun names the members of a group by their objects' kind: "pods", "nodes",
// "ReplicationControllers"; "controllers" when their kinds differ but each makes pods, and
// "objects" for other kinds that differ.
func groupNoun(objs []ObjectRef) string {
	if len(objs) == 0 {
		return "pods"
	}
	kind := objs[0].Kind
	for _, o := range objs[1:] {
		if o.Kind != kind {
			if slices.ContainsFunc(objs, func(o ObjectRef) bool { return !cluster.MakesPods(o.Kind) }) {
				return "objects"
			}
			return "controllers"
		}
	}
	switch kind {
	case cluster.KindPod, "":
		return "pods"
	case cluster.KindNode:
		return "nodes"
	}
	return kind + "s"
}

// primaryCount is how many objects a symptom is about: those of its first object's kind. The
// others are named in passing (the pod a controller could not create), and are not counted as
// its members.
func primaryCount(objs []ObjectRef) int {
	n := 0
	for _, o := range objs {
		if o.Kind == objs[0].Kind {
			n++
		}
	}
	return n
}

// groupSummary tells a group in one line: "1,204 pods could not be scheduled (37 workloads,
// pool user): Insufficient cpu". subjects are an object of each member's kind.
func groupSummary(s Symptom, subjects []ObjectRef) string {
	noun := groupNoun(subjects)
	var where []string
	switch len(s.Workloads) {
	case 0:
	case 1:
		where = append(where, s.Workloads[0].Name)
	default:
		where = append(where, fmt.Sprintf("%d workloads, most %s", len(s.Workloads), s.Workloads[0].Name))
	}
	switch len(s.Pools) {
	case 0:
	case 1:
		where = append(where, "pool "+s.Pools[0].Name)
	default:
		names := make([]string, 0, 3)
		for i, p := range s.Pools {
			if i == 3 {
				names = append(names, "…")
				break
			}
			names = append(names, p.Name)
		}
		where = append(where, "pools "+strings.Join(names, ", "))
	}
	out := fmt.Sprintf("%s %s %s", phrase.Thousands(s.Count), noun, groupVerbs[s.Kind])
	if len(where) > 0 {
		out += " (" + strings.Join(where, "; ") + ")"
	}
	if s.Reason != "" {
		out += ": " + s.Reason
	}
	return out
}
