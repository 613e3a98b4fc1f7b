package incident

import (
	"fmt"
	"sort"
	"strings"
)

// Candidate is an incident of the library that may be related.
type Candidate struct {
	ID, Title string
	Signature Signature
}

// Relation is a related incident, with the reason in words.
type Relation struct {
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	Relation string   `json:"relation"` // "same root cause" or "shared component"
	Shared   []string `json:"shared"`   // component kinds in words: "Node pool", "Prometheus"
	Score    float64  `json:"score"`
	Why      string   `json:"why"` // how the score was made, for a tooltip or a detail line
}

// Relation kinds.
const (
	SameRootCause   = "same root cause"
	SharedComponent = "shared component"
)

// componentWords names component kinds for people.
var componentWords = map[string]string{"NodePool": "Node pool", "Prometheus": "Prometheus", "Hub": "Hub", "Proxy": "Proxy",
	"Ingress": "Ingress", "DNS": "DNS", "Autoscaler": "Autoscaler", "Scheduler": "Scheduler", "Database": "Database"}

// ComponentWord names a component kind the way the related view writes it.
func ComponentWord(kind string) string {
	if w, ok := componentWords[kind]; ok {
		return w
	}
	return kind
}

// Related ranks the candidates against an incident's signature: first those that share its
// root cause, by how much else they share (causes, symptoms, component kinds); then those
// that share only component kinds, ranked lower. Candidates that share neither are left out.
func Related(id string, sig Signature, candidates []Candidate) []Relation {
	var out []Relation
	for _, c := range candidates {
		if c.ID == id {
			continue
		}
		o := c.Signature
		shared := intersect(kinds(sig.Components), kinds(o.Components))
		causes := jaccard(sig.Causes, o.Causes)
		symptoms := jaccard(sig.Symptoms, o.Symptoms)
		comps := jaccard(kinds(sig.Components), kinds(o.Components))
		overlap := (causes + symptoms + comps) / 3
		why := fmt.Sprintf("causes %.2f, symptoms %.2f, components %.2f (shared fractions)", causes, symptoms, comps)
		r := Relation{ID: c.ID, Title: c.Title, Shared: words(shared)}
		switch {
		case sig.RootCause != "" && sig.RootCause == o.RootCause:
			r.Relation, r.Score = SameRootCause, 1+overlap
			r.Why = "same root cause " + sig.RootCause + "; " + why
		case len(shared) > 0:
			r.Relation, r.Score = SharedComponent, overlap/2
			r.Why = "different root cause; " + why
		default:
			continue
		}
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

// Reason writes a relation as the library shows it: "same root cause · shared Node pool, Prometheus".
func (r Relation) Reason() string {
	if len(r.Shared) == 0 {
		return r.Relation
	}
	if r.Relation == SharedComponent {
		return "shared " + strings.Join(r.Shared, ", ")
	}
	return r.Relation + " · shared " + strings.Join(r.Shared, ", ")
}

func kinds(cs []Component) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, c.Kind)
	}
	return out
}

func words(kinds []string) []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = ComponentWord(k)
	}
	return out
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
