package server

import (
	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/templates/incidents"
)

// shownChanges is how many changes of the incident's list the summary shows before folding
// the rest.
const shownChanges = 3

// summaryView is the summary that leads the incident page, from the analysis' summary: nil when
// the analysis has none.
func summaryView(rep analysis.Report) *incidents.Summary {
	sm := rep.Summary
	if sm == nil {
		return nil
	}
	kinds := kindsByID(rep)
	links := func(ids []string) []incidents.Link {
		out := make([]incidents.Link, 0, len(ids))
		for _, id := range ids {
			out = append(out, incidents.Link{ID: id, Kind: kinds[id]})
		}
		return out
	}
	change := func(rank int, c analysis.RankedChange) incidents.RankedChange {
		return incidents.RankedChange{Rank: rank, Change: c.Change, Why: c.Why, Causes: links(c.Causes), Prevents: links(c.Prevents),
			Evidence: evidenceViews(c.Evidence)}
	}
	v := &incidents.Summary{WhatHappened: sm.WhatHappened, Why: sm.Why, Sure: sm.Sure, Unlisted: sm.MoreChanges}
	for i, c := range sm.Changes {
		if i < shownChanges {
			v.Changes = append(v.Changes, change(i+1, c))
		} else {
			v.MoreChanges = append(v.MoreChanges, change(i+1, c))
		}
	}
	for _, c := range sm.Dropped {
		v.Dropped = append(v.Dropped, change(0, c))
	}
	return v
}

// changeRanks are the ranks (from 1) of the summary's changes that answer cause id.
func changeRanks(sm *analysis.Summary, id string) []int {
	if sm == nil {
		return nil
	}
	var out []int
	for i, c := range sm.Changes {
		for _, cid := range c.Causes {
			if cid == id {
				out = append(out, i+1)
				break
			}
		}
	}
	return out
}
