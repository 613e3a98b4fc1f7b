package incident

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rootline-dev/rootline/internal/textcheck"
)

// Signature is what related-incident search compares: the symptom and cause kinds, the root
// cause, and the components involved.
type Signature struct {
	Symptoms   []string    `json:"symptoms,omitempty"`
	RootCause  string      `json:"root_cause,omitempty"`
	Causes     []string    `json:"causes,omitempty"`
	Components []Component `json:"components,omitempty"`
}

// SignatureOf is a report's signature.
func SignatureOf(r Report) Signature {
	return Signature{Symptoms: r.Symptoms, Causes: r.Causes, RootCause: r.RootCause, Components: r.Components}
}

// Equal reports whether two signatures say the same, in the same order (an empty list and none
// are the same).
func (s Signature) Equal(o Signature) bool {
	return slices.Equal(s.Symptoms, o.Symptoms) && s.RootCause == o.RootCause && slices.Equal(s.Causes, o.Causes) &&
		slices.Equal(s.Components, o.Components)
}

// Merge is s with what o adds to it: o's symptom and cause kinds and components that s does not
// hold, after s's own, and s's root cause, else o's. It is the signature of an incident's
// evidence after an upload, from the signature before and the upload's own (a cause found in
// part of the evidence is found in the whole), until the whole is analysed again.
func (s Signature) Merge(o Signature) Signature {
	out := Signature{RootCause: s.RootCause}
	if out.RootCause == "" {
		out.RootCause = o.RootCause
	}
	out.Symptoms = union(s.Symptoms, o.Symptoms)
	out.Causes = union(s.Causes, o.Causes)
	out.Components = union(s.Components, o.Components)
	return out
}

// union is a's elements, then b's not in a, each once.
func union[T comparable](a, b []T) []T {
	if len(a)+len(b) == 0 {
		return nil
	}
	out := make([]T, 0, len(a)+len(b))
	for _, v := range slices.Concat(a, b) {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// Empty reports whether the signature says nothing.
func (s Signature) Empty() bool {
	return len(s.Symptoms) == 0 && len(s.Causes) == 0 && s.RootCause == "" && len(s.Components) == 0
}

// Where a signature comes from. A person's wins over the report's, which wins over the
// analysis of the incident's snapshots.
const (
	OriginPerson   = "person"
	OriginReport   = "report"
	OriginAnalysis = "analysis"
)

// Origins lists the origins, the one that wins first.
var Origins = []string{OriginPerson, OriginReport, OriginAnalysis}

// OriginWords says for people where a signature came from.
func OriginWords(origin string) string {
	switch origin {
	case OriginPerson:
		return "set by a person"
	case OriginReport:
		return "from the report"
	case OriginAnalysis:
		return "from the analysis of its snapshots"
	}
	return "none yet"
}

// Signatures are an incident's signatures by origin, and the one that speaks for it.
type Signatures struct {
	Origin    string               `json:"origin"` // "" when it has none
	Effective Signature            `json:"effective"`
	ByOrigin  map[string]Signature `json:"by_origin"`
}

// Choose sets Origin and Effective from ByOrigin: the first origin of Origins that says something.
func (s *Signatures) Choose() {
	s.Origin, s.Effective = "", Signature{}
	for _, o := range Origins {
		if g, ok := s.ByOrigin[o]; ok && !g.Empty() {
			s.Origin, s.Effective = o, g
			return
		}
	}
}

// ErrInvalidSignature marks a signature with a kind outside the vocabulary.
var ErrInvalidSignature = errors.New("invalid signature")

// Check validates a signature people give against the vocabulary (symptom and cause kinds)
// and normalises it: kinds trimmed and each once, the root cause among the causes (the first
// cause when none is named), components with a kind and named by workload (WorkloadNames).
func (s *Signature) Check(symptomKinds, causeKinds []string) error {
	var err error
	if s.Symptoms, err = distinctKinds(s.Symptoms, symptomKinds, "symptom"); err != nil {
		return err
	}
	if s.Causes, err = distinctKinds(s.Causes, causeKinds, "cause"); err != nil {
		return err
	}
	s.RootCause = strings.TrimSpace(s.RootCause)
	if s.RootCause != "" && !contains(causeKinds, s.RootCause) {
		return fmt.Errorf("%w: root cause %s is not a cause kind", ErrInvalidSignature, textcheck.Quote(s.RootCause))
	}
	if s.RootCause == "" && len(s.Causes) > 0 {
		s.RootCause = s.Causes[0]
	}
	if s.RootCause != "" && !contains(s.Causes, s.RootCause) {
		s.Causes = append([]string{s.RootCause}, s.Causes...)
	}
	comps := s.Components[:0:0]
	seen := map[Component]bool{}
	for _, c := range s.Components {
		c.Kind, c.Name = strings.TrimSpace(c.Kind), strings.TrimSpace(c.Name)
		if c.Kind == "" {
			return fmt.Errorf("%w: a component needs a kind", ErrInvalidSignature)
		}
		if p := componentProblem(c); p != "" {
			return fmt.Errorf("%w: %s", ErrInvalidSignature, p)
		}
		if !seen[c] {
			seen[c] = true
			comps = append(comps, c)
		}
	}
	s.Components = WorkloadNames(comps)
	return nil
}

// componentProblem says what is wrong with a component's kind or name as texts, "" when
// nothing is: a kind is one word of at most 64 bytes, a name one line of at most MaxName.
func componentProblem(c Component) string {
	if p := textProblem("component kind", c.Kind, 64, false); p != "" {
		return p
	}
	if strings.Contains(c.Kind, " ") {
		return fmt.Sprintf("component kind %s is not one word", textcheck.Quote(c.Kind))
	}
	return textProblem("component name", c.Name, MaxName, false)
}

func distinctKinds(in, vocabulary []string, what string) ([]string, error) {
	out := []string{}
	for _, k := range in {
		k = strings.TrimSpace(k)
		if k == "" || contains(out, k) {
			continue
		}
		if !contains(vocabulary, k) {
			return nil, fmt.Errorf("%w: %s %s is not a %s kind", ErrInvalidSignature, what, textcheck.Quote(k), what)
		}
		out = append(out, k)
	}
	return out, nil
}
