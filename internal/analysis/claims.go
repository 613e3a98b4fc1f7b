package analysis

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/signal"
)

// ClaimRef is what a person wrote in the input about why something happened, as the report
// shows it: never observed evidence, only the author's claim, with the cause kinds it names.
type ClaimRef struct {
	File   string   `json:"file"`
	Line   int      `json:"line,omitempty"`
	Text   string   `json:"text"`
	Quote  string   `json:"quote,omitempty"`
	Causes []string `json:"causes,omitempty"`
	// Symptoms are the symptom kinds the sentence reports having happened: testimony, listed
	// apart from what the input shows.
	Symptoms []string `json:"symptoms,omitempty"`
}

// claimPattern is one way people write that a cause happened.
type claimPattern struct {
	cause string
	re    *regexp.Regexp
}

// claimPatterns map what people write to cause kinds. They are narrow on purpose: a claim
// that names no cause clearly is listed, not used.
var claimPatterns = []claimPattern{
	{NodeDiskExhaustion, regexp.MustCompile(`(?i)\b(?:disk|ephemeral[- ]storage|storage|volume|ebs|root ?fs|nodefs|imagefs|inodes?|diskpressure)\b.{0,80}\b(?:full|fill(?:s|ed|ing)?(?: up)?|exhaust\w*|ran out|running out|run out|too small|out of space|no space|pressure|low on)\b|\b(?:full|exhaust\w*|ran out of|out of)\b.{0,20}\b(?:disk|ephemeral[- ]storage|inodes)\b`)},
	{MemoryLimitTooLow, regexp.MustCompile(`(?i)\bmemory (?:requests?/)?limits?\b.{0,80}\b(?:too (?:small|low)|very small|small|raised|increased?|bump\w*)\b|\blimit\w*\b.{0,40}\btoo (?:small|low)\b.{0,40}\b(?:memory|oom)`)},
	{CapacityExhaustion, regexp.MustCompile(`(?i)\bcluster (?:is |was |being )?(?:full|at capacity)\b|\bout of capacity\b|\bran out of (?:capacity|nodes|cpu|memory)\b|\bnot enough (?:nodes|capacity|cpu|memory)\b|\binsufficient (?:cpu|memory|capacity)\b|\b(?:upper|max(?:imum)?) (?:node )?(?:limit|size|count)\b`)},
	{MemoryOverRequest, regexp.MustCompile(`(?i)\b(?:no|without|missing|zero) memory requests?\b|\bmore memory than (?:it )?requested\b|\bexceeds its request\b`)},
	{ImageUnavailable, regexp.MustCompile(`(?i)\bimage\b.{0,60}\b(?:not found|wrong tag|does(?:n't| not) exist|typo|could not be pulled|pull (?:error|fail\w*))\b`)},
	{VolumeBinding, regexp.MustCompile(`(?i)\b(?:pvc|persistent ?volume(?: ?claim)?|storage ?class)\b.{0,60}\b(?:unbound|not bound|pending|missing|not found|no (?:persistent )?volume)\b`)},
	{SchedulingConstraints, regexp.MustCompile(`(?i)\b(?:node ?selector|node affinity|toleration)\b.{0,60}\b(?:no node|not match|didn't match|mismatch|wrong|label)\b`)},
	{NodeOvercommitted, regexp.MustCompile(`(?i)\bover-?commit\w*\b`)},
	{CPUStarvation, regexp.MustCompile(`(?i)\bcpu (?:requests? (?:of|was|too)|starv\w*|throttl\w*)\b`)},
	{ContainerStartFailure, regexp.MustCompile(`(?i)\b(?:command|entrypoint|executable|binary)\b.{0,40}\b(?:not found|wrong|typo|missing|misspel\w*)\b`)},
	{Preemption, regexp.MustCompile(`(?i)\bpreempt\w*\b|\bspot (?:instance|node|vm)s?\b.{0,40}\b(?:reclaim\w*|interrupt\w*|terminat\w*)\b`)},
}

// claimedCauses are the cause kinds a claim names: by its words, and by the Kubernetes message
// it quotes (an eviction for ephemeral-storage is a disk claim).
func claimedCauses(c cluster.Claim) []string {
	var out []string
	add := func(k string) {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	for _, p := range claimPatterns {
		if p.re.MatchString(c.Text) {
			add(p.cause)
		}
	}
	if c.Reason == "Evicted" {
		if ev, ok := signal.ParseEviction(c.Quote); ok && signal.DiskEviction(ev.Resource, ev.Condition) {
			add(NodeDiskExhaustion)
		}
	}
	return out
}

// explainable says which symptom kinds a cause named only in a claim may explain: those whose
// observed evidence is compatible with it and silent on the cause.
var explainable = map[string][]string{
	NodeDiskExhaustion:    {PodEvicted, NodePressure},
	CapacityExhaustion:    {PodPending},
	MemoryLimitTooLow:     {OOMKilled},
	MemoryOverRequest:     {PodEvicted},
	ImageUnavailable:      {ImagePullFailed},
	VolumeBinding:         {PodPending},
	SchedulingConstraints: {PodPending},
	NodeOvercommitted:     {NodeNotReady, NodePressure},
	Preemption:            {Preempted},
	ContainerStartFailure: {CrashLoopBackOff},
	CPUStarvation:         {LivenessProbeFailed},
}

// ClaimConfidence is the confidence of a cause only a claim names: the author may be right,
// but nothing in the cluster's output shows it.
const ClaimConfidence = 0.35

// applyClaims weighs what the input's authors claim against what the analysis found: a claim
// that names a cause found from evidence is cited as the author's claim in support of it; a
// symptom that no cause explains, whose evidence allows what a claim names, gets that cause,
// at low confidence and marked as the author's claim. A document that lists several
// incidents is said to, and its claims are listed but not used, and causes drawn from it
// lose their confidence.
func applyClaims(in Input, rep *Report) {
	claims, objs := in.Model.Claims()
	mixed := map[string]int{}
	for i, c := range claims {
		if c.Incidents > 0 {
			mixed[objs[i].Source.File] = c.Incidents
		}
	}
	w := &claimWeigher{rep: rep, explained: map[string]bool{}, claimed: map[string]*Cause{}}
	for _, c := range rep.Causes {
		for _, id := range c.Explains {
			w.explained[id] = true
		}
	}
	for i, c := range claims {
		if c.Incidents > 0 {
			continue
		}
		o := objs[i]
		kinds := claimedCauses(c)
		reported := claimedSymptoms(c)
		if c.Reports && len(kinds) == 0 && len(reported) == 0 {
			continue // kept in case it reported something; it does not
		}
		rep.Claims = append(rep.Claims, ClaimRef{File: o.Source.File, Line: int(o.Source.Line), Text: c.Text, Quote: c.Quote, Causes: kinds,
			Symptoms: reported})
		if _, ok := mixed[o.Source.File]; ok {
			continue
		}
		ev := Evidence{File: o.Source.File, Line: int(o.Source.Line), Ref: "the author", Field: "author's claim", Value: c.Text}
		for _, k := range kinds {
			if !w.support(k, ev) {
				w.draw(k, ev)
			}
		}
	}
	w.finish()
	weakenMixed(rep, mixed)
}

// claimWeigher weighs the claims against a report: the symptoms its causes explain, and the
// causes drawn from claims alone, by kind, in the order first drawn.
type claimWeigher struct {
	rep       *Report
	explained map[string]bool
	claimed   map[string]*Cause
	order     []string
}

// support cites a claim in support of the causes of its kind found from evidence, and reports
// whether there were any.
func (w *claimWeigher) support(kind string, ev Evidence) bool {
	supported := false
	for ci := range w.rep.Causes {
		if cs := &w.rep.Causes[ci]; cs.Kind == kind && !slices.Contains(cs.Evidence, ev) {
			cs.Evidence = append(cs.Evidence, ev)
			cs.Confidence = min(cs.Confidence+0.05, 1)
			supported = true
		}
	}
	return supported
}

// draw gives the claimed cause to the symptoms no cause explains whose evidence allows it.
func (w *claimWeigher) draw(kind string, ev Evidence) {
	for _, s := range w.rep.Symptoms {
		if w.explained[s.ID] || !slices.Contains(explainable[kind], s.Kind) || !claimFits(kind, s) {
			continue
		}
		cs, ok := w.claimed[kind]
		if !ok {
			cs = &Cause{Kind: kind, Role: Root, Confidence: ClaimConfidence, Components: []Component{},
				Missing: []string{claimMissing(kind)}}
			w.claimed[kind] = cs
			w.order = append(w.order, kind)
		}
		if !slices.Contains(cs.Explains, s.ID) {
			cs.Explains = append(cs.Explains, s.ID)
			cs.Evidence = append(cs.Evidence, s.Evidence[0])
		}
		if !slices.Contains(cs.Evidence, ev) {
			cs.Evidence = append(cs.Evidence, ev)
		}
	}
}

// finish says the causes drawn from claims, quoting the claims, and adds them to the report.
func (w *claimWeigher) finish() {
	for _, k := range w.order {
		c := w.claimed[k]
		var quotes []string
		for _, e := range c.Evidence {
			if e.Field == "author's claim" {
				quotes = append(quotes, "“"+phrase.Clip(e.Value, 140)+"”")
			}
		}
		c.Summary = fmt.Sprintf("the author says so, and the %d symptom(s) it would explain show nothing against it: %s", len(c.Explains), phrase.Parts(quotes, "; "))
		w.rep.Causes = append(w.rep.Causes, *c)
	}
}

// weakenMixed says each document that describes several incidents, and gives the causes whose
// evidence it holds little confidence.
func weakenMixed(rep *Report, mixed map[string]int) {
	for file, n := range mixed {
		rep.Gaps = append(rep.Gaps, Gap{Kind: GapMixedIncidents, Summary: fmt.Sprintf("%s describes %d incidents: what it says is listed as claims, but no cause is drawn from it, and causes whose evidence it holds are given little confidence", filepath.Base(file), n)})
		for ci := range rep.Causes {
			c := &rep.Causes[ci]
			for _, e := range c.Evidence {
				if e.File == file && c.Confidence > ClaimConfidence {
					c.Confidence = ClaimConfidence
					c.Missing = append(c.Missing, "evidence from one incident: "+filepath.Base(file)+" mixes several")
					break
				}
			}
		}
	}
}

// claimFits reports whether a symptom's own evidence leaves room for the claimed cause: an
// eviction whose message names memory is not a disk eviction, whatever the author thinks.
func claimFits(kind string, s Symptom) bool {
	res, cond := s.Details.Resource, s.Details.Condition
	switch kind {
	case NodeDiskExhaustion:
		if s.Kind == NodePressure {
			return slices.Contains(s.Details.Resources, "disk")
		}
		return (res == "" && cond == "") || signal.DiskEviction(res, cond)
	case MemoryOverRequest:
		return res == "" || res == "memory"
	case CapacityExhaustion, VolumeBinding, SchedulingConstraints:
		_, _, parsed := s.Scheduling()
		return !parsed // the scheduler's own reasons, where given, decide
	}
	return true
}

// claimMissing is what would turn a claimed cause into an observed one.
func claimMissing(kind string) string {
	switch kind {
	case NodeDiskExhaustion:
		return "the eviction messages or the node's DiskPressure condition (kubectl get pods -o json, kubectl describe node), to confirm the disk filled"
	case CapacityExhaustion:
		return "the scheduler's FailedScheduling events and the nodes' allocatable (kubectl get events, kubectl get nodes -o json)"
	case MemoryLimitTooLow:
		return "the container's memory limit and its termination reason (kubectl get pod -o json)"
	}
	return "output of the cluster that shows it: only the author says so"
}
