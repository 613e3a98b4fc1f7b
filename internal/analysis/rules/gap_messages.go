package rules

import (
	"fmt"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/signal"
)

// messagesGap reports messages that lost information on the way: events aggregated by
// client-go's correlator ("(combined from similar events): "), whose individual messages are
// gone, and scheduler messages cut at the event note limit (" ..."), whose full text only the
// pod's PodScheduled condition keeps.
type messagesGap struct{}

func (messagesGap) Name() string { return "messages-cut" }

func (messagesGap) Gaps(in analysis.Input, _ *analysis.Report) []analysis.Gap {
	combined, cut := 0, 0
	for _, o := range in.Model.Events {
		msg := o.Event.Message
		if _, ok := signal.StripCombined(msg); ok {
			combined++
		}
		if o.Event.Reason == "FailedScheduling" {
			if p := schedulingOf(in).scheduling(msg); p.ok && p.truncated {
				cut++
			}
		}
	}
	var gaps []analysis.Gap
	if combined > 0 {
		gaps = append(gaps, analysis.Gap{Kind: analysis.GapEventsCombined, Summary: fmt.Sprintf("%d event(s) were aggregated as \"(combined from similar events)\": the similar events' own messages are lost, and events past the spam filter's burst were dropped", combined)})
	}
	if cut > 0 {
		gaps = append(gaps, analysis.Gap{Kind: analysis.GapMessageTruncated, Summary: fmt.Sprintf("%d scheduler message(s) were cut at the event size limit (\" ...\"): the pods' PodScheduled conditions (kubectl get pods -o json) hold the full reasons", cut)})
	}
	return gaps
}
