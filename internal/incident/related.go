package incident

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/rootline-dev/rootline/internal/kinds"
)

// Candidate is an incident of the library that may be related: its signature, and the cluster
// it happened on ("" when unknown), which tells whether two node pools are the same pool.
type Candidate struct {
	ID, Title, Cluster string
	Signature          Signature
}

// Relation is a related incident, with the reason in words and the parts of its score.
type Relation struct {
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	Relation string   `json:"relation"` // "same root cause" or "shared component"
	Shared   []string `json:"shared"`   // component kinds in words: "Node pool", "Prometheus"
	// Pools says how each shared node pool is shared: the same pool of the same cluster, or a
	// pool of the same role.
	Pools []PoolMatch `json:"pools,omitempty"`
	Score float64     `json:"score"`
	Parts ScoreParts  `json:"parts"`
	Why   string      `json:"why"` // how the score was made, for a tooltip or a detail line
}

// ScoreParts are what a relation's score is made of: Score = Base + Weight × (Causes +
// Symptoms + Components) / 3. Base is 1 for the same root cause, else 0; Weight is 1 for the
// same root cause, else ½, so that every incident sharing the root cause ranks above every
// one sharing only a component. Each fraction is the shared part of the two incidents' values
// (Jaccard: shared ÷ distinct values of both).
type ScoreParts struct {
	Base       float64 `json:"base"`
	Weight     float64 `json:"weight"`
	Causes     float64 `json:"causes"`
	Symptoms   float64 `json:"symptoms"`
	Components float64 `json:"components"`
}

// Score is the score the parts make.
func (p ScoreParts) Score() float64 { return p.Base + p.Weight*(p.Causes+p.Symptoms+p.Components)/3 }

// Explain writes the parts in words: "1 (same root cause) + (causes 0.60 + symptoms 1.00 +
// components 0.50) / 3".
func (p ScoreParts) Explain() string {
	fractions := fmt.Sprintf("(causes %.2f + symptoms %.2f + components %.2f) / 3", p.Causes, p.Symptoms, p.Components)
	if p.Base > 0 {
		return fmt.Sprintf("%.0f (same root cause) + %s", p.Base, fractions)
	}
	return fmt.Sprintf("½ × %s (no shared root cause)", fractions)
}

// Relation kinds.
const (
	SameRootCause   = "same root cause"
	SharedComponent = "shared component"
)

// ComponentWord names a component kind the way the related view writes it (kinds.ComponentWord).
func ComponentWord(kind string) string { return kinds.ComponentWord(kind) }

// Related ranks the candidates against an incident: first every one that shares its root
// cause, by how much else they share (causes, symptoms, components); then those that share
// only components, ranked lower. Candidates that share neither are left out. Components are
// compared by kind, except node pools: two pools are shared only when they are the same pool
// of the same cluster, or pools of the same role (PoolRole).
func Related(target Candidate, candidates []Candidate) []Relation {
	sig := target.Signature
	mine := ComponentKeys(sig.Components, target.Cluster)
	var out []Relation
	for _, c := range candidates {
		if c.ID == target.ID {
			continue
		}
		o := c.Signature
		theirs := ComponentKeys(o.Components, c.Cluster)
		p := ScoreParts{Causes: jaccard(sig.Causes, o.Causes), Symptoms: jaccard(sig.Symptoms, o.Symptoms), Components: jaccard(mine, theirs)}
		r := Relation{ID: c.ID, Title: c.Title, Shared: []string{}}
		r.Shared, r.Pools = shared(sig.Components, target.Cluster, o.Components, c.Cluster)
		switch {
		case sig.RootCause != "" && sig.RootCause == o.RootCause:
			r.Relation, p.Base, p.Weight = SameRootCause, 1, 1
		case len(r.Shared) > 0:
			r.Relation, p.Base, p.Weight = SharedComponent, 0, 0.5
		default:
			continue
		}
		r.Parts, r.Score = p, p.Score()
		r.Why = fmt.Sprintf("score %.2f = %s", r.Score, p.Explain())
		out = append(out, r)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// Reason writes a relation as the library shows it: "same root cause · shared Node pool (same
// role: core), Prometheus"; Pools names the pools.
func (r Relation) Reason() string {
	if len(r.Shared) == 0 {
		return r.Relation
	}
	words := make([]string, len(r.Shared))
	for i, w := range r.Shared {
		words[i] = w
		if w == ComponentWord(NodePool) && len(r.Pools) > 0 {
			var how []string
			for _, p := range r.Pools {
				if h := p.Words(); !slices.Contains(how, h) {
					how = append(how, h)
				}
			}
			words[i] = w + " (" + strings.Join(how, "; ") + ")"
		}
	}
	if r.Relation == SharedComponent {
		return "shared " + strings.Join(words, ", ")
	}
	return r.Relation + " · shared " + strings.Join(words, ", ")
}

// shared lists the component kinds two incidents share, in words and in the first one's
// order, and how their node pools are shared.
func shared(a []Component, clusterA string, b []Component, clusterB string) ([]string, []PoolMatch) {
	pools := MatchPools(a, clusterA, b, clusterB)
	theirs := map[string]bool{}
	for _, c := range b {
		theirs[c.Kind] = true
	}
	out, seen := []string{}, map[string]bool{}
	for _, c := range a {
		if seen[c.Kind] || !theirs[c.Kind] || (c.Kind == NodePool && len(pools) == 0) {
			continue
		}
		seen[c.Kind] = true
		out = append(out, ComponentWord(c.Kind))
	}
	return out, pools
}

// intersect returns the distinct values both lists hold, in a's order.
func intersect(a, b []string) []string {
	in := map[string]bool{}
	for _, x := range b {
		in[x] = true
	}
	var out []string
	seen := map[string]bool{}
	for _, x := range a {
		if in[x] && !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// jaccard is |a ∩ b| / |a ∪ b| over distinct values, 0 for two empty lists.
func jaccard(a, b []string) float64 {
	union := map[string]bool{}
	for _, x := range a {
		union[x] = true
	}
	for _, x := range b {
		union[x] = true
	}
	if len(union) == 0 {
		return 0
	}
	return float64(len(intersect(a, b))) / float64(len(union))
}
