// Package export makes an incident's report of the library, as GET
// /api/v1/incidents/{id}/export and `rootline export` both write it: from its stored report,
// and for an incident no report speaks for, from the analysis of its snapshots, analysed as the
// incident's pages analyse it (Options).
package export

import (
	"context"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/rules"
	"github.com/rootline-dev/rootline/internal/change"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/evidence"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/report"
)

// Source is what an export reads: an incident's stored report and signatures, and what
// its snapshots hold, for an incident that has no report of its own.
type Source interface {
	Report(ctx context.Context, id string) (incident.Report, error)
	Signatures(ctx context.Context, id string) (incident.Signatures, error)
	evidence.Rows
}

// Report is incident id as a report of the library. GET /api/v1/incidents/{id}/export
// and `rootline export` both write it, so that they give the same bytes. It is what the
// incident is: its stored report (fields, date, time window, cluster, tags, text, the unknown
// front-matter fields kept, the report's signature and a person's under edited) and its notes,
// so that importing it gives the same incident back. An incident no report speaks for (one
// known from its snapshots) takes the signature of their analysis as its report's; one
// without a text of its own gets one written from that analysis. ErrNotFound (wrapped) when it
// does not exist.
//
// analysed, when not nil, gives the incident's analysis made already (the server's cached state
// of it, the same as Report would make), so that an export does not analyse a large incident
// again; nil loads the evidence and analyses it.
func Report(ctx context.Context, src Source, id string, analysed Analysed) (incident.Report, error) {
	r, err := src.Report(ctx, id)
	if err != nil {
		return r, err
	}
	if r.Body != "" && !incident.SignatureOf(r).Empty() {
		return r, nil
	}
	if analysed == nil {
		analysed = func(ctx context.Context) (analysis.Report, []alert.Alert, bool, error) {
			ev, err := evidence.Load(ctx, src, id, nil)
			if err != nil || len(ev.Objects) == 0 && len(ev.Alerts) == 0 {
				return analysis.Report{}, nil, false, err
			}
			return rules.Run(cluster.NewModel(ev.Files, ev.Objects), Options(ev)), ev.Alerts, true, nil // as the incident's pages analyse it
		}
	}
	rep, alerts, ok, err := analysed(ctx)
	if err != nil || !ok {
		return r, err
	}
	if incident.SignatureOf(r).Empty() {
		sig := report.Signature(rep)
		r.Symptoms, r.RootCause, r.Causes, r.Components = sig.Symptoms, sig.RootCause, sig.Causes, sig.Components
	}
	if r.Body == "" {
		r.Body = report.Markdown(r.Title, rep, alerts)
	}
	return r, nil
}

// Analysed gives an incident's analysis and the alerts of its window; ok is false when the
// incident holds no evidence (no object, no alert), and there is nothing to analyse.
type Analysed func(ctx context.Context) (rep analysis.Report, alerts []alert.Alert, ok bool, err error)

// Options are the options of an incident's analysis: what changed between its
// snapshots of each cluster, between the versions of workloads, ConfigMaps and nodes the
// collector saw, and between those and the snapshots of the same cluster, each dated by the events that mark it when they tell (change.Narrow).
func Options(ev *evidence.Evidence) analysis.Options {
	var opts analysis.Options
	for _, rs := range ev.Readings {
		opts.Changes = append(opts.Changes, change.Across(rs)...)
	}
	opts.Changes = append(opts.Changes, change.Over(ev.Versions)...)
	opts.Changes = append(opts.Changes, change.Join(ev.Own, ev.Versions)...)
	if len(opts.Changes) > 0 {
		var events []*cluster.Object
		for _, o := range ev.Objects {
			if o.Event != nil {
				events = append(events, o)
			}
		}
		opts.Changes = change.Narrow(opts.Changes, events)
	}
	return opts
}
