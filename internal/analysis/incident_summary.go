package analysis

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	vocab "github.com/rootline-dev/rootline/internal/kinds"
)

// Summary is a report in a few sentences, made from the report alone: what users felt, the
// root cause and the chain to it, how sure the evidence makes it, and one ranked list of
// changes. The sentences are for people; the ids beside them are for the views that link
// them.
type Summary struct {
	// Felt are the symptoms users felt, worst first (at most three): never the scale-up a
	// chain started from nor evicted pods left behind, which are facts of the causes' side.
	Felt []string `json:"felt"`
	// WhatHappened says what users felt, with when and where.
	WhatHappened string `json:"what_happened"`
	// Root is the root cause of the worst symptom felt that any cause explains, and Chain the
	// ids from it to that symptom: the root first, the symptom last. Empty without a cause.
	Root  string   `json:"root,omitempty"`
	Chain []string `json:"chain,omitempty"`
	// Trigger is the scale-up the chain started from, where it did.
	Trigger string `json:"trigger,omitempty"`
	// Why says the root cause and the chain in words.
	Why string `json:"why"`
	// Sure says how sure the evidence makes the chain, and Missing what evidence would make
	// it surer.
	Sure    string   `json:"sure"`
	Missing []string `json:"missing,omitempty"`
	// Changes are the report's suggestions as one list for the whole incident: a change two
	// causes suggest once, ranked by the worst symptom it would have prevented. Dropped are the
	// suggestions other evidence contradicts, each saying why.
	Changes []RankedChange `json:"changes,omitempty"`
	Dropped []RankedChange `json:"dropped,omitempty"`
	// MoreChanges is how many changes the list leaves out past summaryChanges: the causes'
	// suggestions hold them all.
	MoreChanges int `json:"more_changes,omitempty"`
}

// summaryChanges is how many changes the summary's list holds, and summaryMissing how many
// missing items its sentence names: a report of a thousand causes says the worst.
const (
	summaryChanges = 25
	summaryMissing = 3
)

// RankedChange is a change of the summary's list: the suggestion, the causes it answers and
// the symptoms it would have prevented, worst first.
type RankedChange struct {
	Change   string     `json:"change"`
	Action   string     `json:"action,omitempty"`
	Causes   []string   `json:"causes"`
	Prevents []string   `json:"prevents,omitempty"`
	Evidence []Evidence `json:"evidence,omitempty"`
	// Why says, for a dropped change, what evidence contradicts it.
	Why string `json:"why,omitempty"`
}

// feltKinds: at most this many symptoms say what users felt.
const feltMax = 3

// notFelt are the symptom kinds that users did not feel: the scale-up a chain starts from and
// evicted pods left behind. They stay symptoms of the report (the vocabulary), but the summary
// and the severity put them on the causes' side.
var notFelt = map[string]bool{ScaleUp: true, EvictedPodsLingering: true}

// Felt reports whether users felt a symptom of a kind: not a scale-up (the trigger of a chain)
// nor evicted pods left behind (a leftover).
func Felt(kind string) bool { return !notFelt[kind] }

// summarize writes a report's summary; nil for a report without symptoms.
func summarize(rep *Report) *Summary {
	if len(rep.Symptoms) == 0 {
		return nil
	}
	s := &Summary{Felt: []string{}}
	var felt []Symptom
	for _, sy := range rep.Symptoms {
		if !notFelt[sy.Kind] && len(felt) < feltMax {
			felt = append(felt, sy)
			s.Felt = append(s.Felt, sy.ID)
		}
	}
	if len(felt) == 0 { // only facts of the causes' side: say those
		felt = append(felt, rep.Symptoms[0])
		s.Felt = append(s.Felt, rep.Symptoms[0].ID)
	}
	s.WhatHappened = whatHappened(felt)
	s.Chain = chainTo(rep, felt)
	if len(s.Chain) > 0 {
		s.Root = s.Chain[0]
	}
	s.Trigger = triggerOf(rep, s.Chain)
	s.Why = whyText(rep, s.Chain, s.Trigger)
	s.Sure, s.Missing = sureText(rep, s.Chain)
	s.Changes, s.Dropped = rankChanges(rep)
	if len(s.Changes) > summaryChanges {
		s.MoreChanges = len(s.Changes) - summaryChanges
		s.Changes = s.Changes[:summaryChanges]
	}
	if len(s.Dropped) > summaryChanges {
		s.Dropped = s.Dropped[:summaryChanges]
	}
	return s
}

// whatHappened says what users felt: the worst symptom in full, with its time, and the others
// by their heads.
func whatHappened(felt []Symptom) string {
	var b strings.Builder
	lead := felt[0]
	if at := whenFelt(lead); at != "" {
		b.WriteString(at + ", ")
		b.WriteString(lead.Summary)
	} else {
		b.WriteString(capitalise(lead.Summary))
	}
	endSentence(&b, lead.Summary)
	var rest []string
	for _, sy := range felt[1:] {
		t := head(sy)
		if sy.At != nil {
			at := sy.At.UTC().Format("15:04")
			if sy.Until != nil && !sy.Until.Equal(*sy.At) {
				at += "–" + sy.Until.UTC().Format("15:04")
			}
			t += ", " + at
		}
		rest = append(rest, t)
	}
	if len(rest) > 0 {
		also := strings.Join(rest, "; ")
		b.WriteString(" Also: " + also)
		endSentence(&b, also)
	}
	return b.String()
}

// endSentence ends the sentence b holds, whose last words are last, with a period, unless they
// end on one already: a message's own ("…for scheduling.").
func endSentence(b *strings.Builder, last string) {
	if !strings.HasSuffix(last, ".") {
		b.WriteString(".")
	}
}

// whenFelt says when a symptom happened: "At 17:06 UTC on 2023-02-01", "From 17:00 to 17:03 UTC
// on 2023-02-01"; "" when undated.
func whenFelt(s Symptom) string {
	if s.At == nil {
		return ""
	}
	at := s.At.UTC()
	day := at.Format(time.DateOnly)
	if s.Until != nil && !s.Until.Equal(*s.At) {
		until := s.Until.UTC()
		if until.Format(time.DateOnly) != day {
			return fmt.Sprintf("From %s to %s UTC", at.Format("2006-01-02 15:04"), until.Format("2006-01-02 15:04"))
		}
		return fmt.Sprintf("From %s to %s UTC on %s", at.Format("15:04"), until.Format("15:04"), day)
	}
	return fmt.Sprintf("At %s UTC on %s", at.Format("15:04"), day)
}

// head is a symptom's summary up to its first colon, with the group's common reason: "89 pods
// in prod could not be scheduled (Insufficient cpu, Insufficient memory)".
func head(s Symptom) string {
	t := s.Summary
	if i := strings.Index(t, ": "); i > 0 && s.Count > 1 {
		t = t[:i]
		if s.Reason != "" {
			t += " (" + s.Reason + ")"
		}
	}
	return phrase.Clip(t, 200)
}

// chainTo is the longest chain of causes from a root cause to the worst felt symptom that a
// cause explains, then that symptom: nil when no cause explains any.
func chainTo(rep *Report, felt []Symptom) []string {
	byID := map[string]*Cause{}
	for i := range rep.Causes {
		byID[rep.Causes[i].ID] = &rep.Causes[i]
	}
	for _, sy := range felt {
		var best []string
		for _, c := range rep.Causes {
			if c.Role != Root {
				continue
			}
			if p := longestPath(byID, c.ID, sy.ID, map[string]bool{}); len(p) > len(best) {
				best = p
			}
		}
		if len(best) == 0 { // explained, but by no root: start from its first explainer
			if cs := rep.Explaining(sy.ID); len(cs) > 0 {
				best = []string{cs[0].ID, sy.ID}
			}
		}
		if len(best) > 0 {
			return best
		}
	}
	return nil
}

// longestPath is the longest path of causes from id to the symptom target (ids, the symptom
// last), nil when id does not reach it. The causes' graph has no loop; seen guards anyway.
func longestPath(byID map[string]*Cause, id, target string, seen map[string]bool) []string {
	c, ok := byID[id]
	if !ok || seen[id] {
		return nil
	}
	seen[id] = true
	defer delete(seen, id)
	var best []string
	for _, to := range c.Explains {
		if to == target && best == nil {
			best = []string{target}
		}
		if _, isCause := byID[to]; isCause {
			if p := longestPath(byID, to, target, seen); len(p) >= len(best) && p != nil {
				best = p
			}
		}
	}
	if best == nil {
		return nil
	}
	return append([]string{id}, best...)
}

// triggerOf is the scale-up the chain's causes explain, "" for none.
func triggerOf(rep *Report, chain []string) string {
	for _, sy := range rep.Symptoms {
		if sy.Kind != ScaleUp {
			continue
		}
		for _, id := range chain {
			if c, ok := rep.CauseByID(id); ok && slices.Contains(c.Explains, sy.ID) {
				return sy.ID
			}
		}
	}
	return ""
}

// whyText says the root cause and the chain: "Root cause: Capacity exhausted (C1): …. The
// chain: Capacity exhausted (C1) → Shared Prometheus (C2) → … → Pod evicted (S1)."
func whyText(rep *Report, chain []string, trigger string) string {
	if len(chain) == 0 {
		if len(rep.Causes) == 0 {
			return "The evidence shows no cause of these symptoms."
		}
		return "No cause the evidence shows explains what users felt."
	}
	root, _ := rep.CauseByID(chain[0])
	sy, _ := rep.SymptomByID(chain[len(chain)-1])
	var b strings.Builder
	fmt.Fprintf(&b, "Root cause: %s (%s): %s.", vocab.Name(root.Kind), root.ID, strings.TrimSuffix(root.Summary, "."))
	var steps []string
	for _, id := range chain[:len(chain)-1] {
		c, _ := rep.CauseByID(id)
		steps = append(steps, fmt.Sprintf("%s (%s)", vocab.Name(c.Kind), c.ID))
	}
	steps = append(steps, fmt.Sprintf("%s (%s)", vocab.Name(sy.Kind), sy.ID))
	fmt.Fprintf(&b, " The chain: %s.", strings.Join(steps, " → "))
	if t, ok := rep.SymptomByID(trigger); ok {
		fmt.Fprintf(&b, " It started with a scale-up (%s): %s.", t.ID, strings.TrimSuffix(t.Summary, "."))
	}
	return b.String()
}

// sureText says how sure the chain is: the root's confidence in words, its weakest link, and
// what is missing (the chain's causes' missing evidence and the gaps that would decide).
func sureText(rep *Report, chain []string) (string, []string) {
	var missing []string
	for _, id := range chain {
		if c, ok := rep.CauseByID(id); ok {
			for _, m := range c.Missing {
				if !slices.Contains(missing, m) {
					missing = append(missing, m)
				}
			}
		}
	}
	for _, g := range rep.Gaps {
		if vocab.MissingEvidence(g.Kind) && !slices.Contains(missing, g.Summary) {
			missing = append(missing, g.Summary)
		}
	}
	var b strings.Builder
	if len(chain) > 0 {
		root, _ := rep.CauseByID(chain[0])
		fmt.Fprintf(&b, "The root cause is %s (confidence %.2f, %d piece(s) of evidence).", sureWords(root.Confidence), root.Confidence, len(root.Evidence))
		weakest := root
		for _, id := range chain[1:] {
			if c, ok := rep.CauseByID(id); ok && c.Confidence < weakest.Confidence {
				weakest = c
			}
		}
		if weakest.ID != root.ID {
			fmt.Fprintf(&b, " Its weakest link, %s (%s), is %s (%.2f).", vocab.Name(weakest.Kind), weakest.ID, sureWords(weakest.Confidence), weakest.Confidence)
		}
		b.WriteString(" ")
	}
	switch {
	case len(missing) == 0:
		b.WriteString("No evidence the analysis looks for is missing.")
	case len(missing) > summaryMissing:
		fmt.Fprintf(&b, "Missing: %s; and %d more.", strings.Join(missing[:summaryMissing], "; "), len(missing)-summaryMissing)
	default:
		fmt.Fprintf(&b, "Missing: %s.", strings.Join(missing, "; "))
	}
	return b.String(), missing
}

// sureWords says a confidence in words.
func sureWords(c float64) string {
	switch {
	case c >= 0.9:
		return "well supported"
	case c >= 0.7:
		return "likely"
	case c >= 0.5:
		return "possible"
	}
	return "weakly supported"
}

// CauseByID returns the report's cause of an id.
func (rep *Report) CauseByID(id string) (Cause, bool) {
	for _, c := range rep.Causes {
		if c.ID == id {
			return c, true
		}
	}
	return Cause{}, false
}

func capitalise(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
