package store

import (
	"context"
	"sort"

	"github.com/rootline-dev/rootline/internal/incident"
)

// Related-incident lookup reads one index range of incident_facets per relation: the rows of
// the target's root cause, then the rows of its component kinds. Each row carries the
// candidate's signature as bit sets, so the overlap is scored here without reading more; the
// best few are then loaded whole for incident.Related, which ranks them in the end.
const (
	sameRootQuery = `SELECT incident_id, symptom_bits, cause_bits, component_bits FROM incident_facets
		WHERE facet = 'root' AND value = @root AND incident_id <> @id`
	sharedComponentQuery = `SELECT incident_id, symptom_bits, cause_bits, component_bits FROM incident_facets
		WHERE facet = 'component' AND value IN @comps AND incident_id <> @id AND root <> @root`
)

// RelatedCandidates returns the incidents of the library that may be related to incident id
// of signature sig, with the signatures that speak for them: the best limit of those that
// share its root cause, and the best limit of those that share a component kind without it,
// by the score incident.Related gives (which ranks them in the end).
func (s *Store) RelatedCandidates(ctx context.Context, id string, sig incident.Signature, limit int) ([]incident.Candidate, error) {
	if limit <= 0 {
		limit = 50
	}
	target, _ := facetsOf(id, incident.Signatures{Effective: sig})
	var want sigBits
	if len(target) > 0 {
		want = target[0].Bits
	}
	var ids []string
	for _, q := range s.relatedQueries(id, sig) {
		rows, err := s.scoredRows(ctx, q)
		if err != nil {
			return nil, wrap(err, "related to %s: %s", id, q.name)
		}
		ids = append(ids, best(rows, want, limit)...)
	}
	return s.candidates(ctx, ids)
}

// scoredRows runs a related query, scanning its rows by hand: a lookup may read tens of
// thousands, and gorm's reflection per row costs more than the query.
func (s *Store) scoredRows(ctx context.Context, q namedQuery) ([]facetRow, error) {
	rows, err := s.db.WithContext(ctx).Raw(q.sql, q.args).Rows()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []facetRow
	for rows.Next() {
		var r facetRow
		if err := rows.Scan(&r.IncidentID, &r.Bits.SymptomBits, &r.Bits.CauseBits, &r.Bits.ComponentBits); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// best returns the ids of the limit rows whose signatures overlap want most (ties by id),
// each id once.
func best(rows []facetRow, want sigBits, limit int) []string {
	type scored struct {
		id    string
		score float64
	}
	seen := make(map[string]bool, len(rows))
	list := make([]scored, 0, len(rows))
	for _, r := range rows {
		if !seen[r.IncidentID] {
			seen[r.IncidentID] = true
			list = append(list, scored{r.IncidentID, want.overlap(r.Bits)})
		}
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].score != list[j].score {
			return list[i].score > list[j].score
		}
		return list[i].id < list[j].id
	})
	ids := make([]string, 0, min(limit, len(list)))
	for _, x := range list[:min(limit, len(list))] {
		ids = append(ids, x.id)
	}
	return ids
}

type namedQuery struct {
	name, sql string
	args      map[string]any
}

// relatedQueries are the queries RelatedCandidates runs: for incidents sharing the root cause
// (when there is one), and for those sharing a component kind without it (when it has any).
func (s *Store) relatedQueries(id string, sig incident.Signature) []namedQuery {
	comps := distinct(kindsOf(sig.Components))
	args := map[string]any{"id": id, "root": sig.RootCause, "comps": comps}
	var out []namedQuery
	if sig.RootCause != "" {
		out = append(out, namedQuery{"same root cause", sameRootQuery, args})
	}
	if len(comps) > 0 {
		out = append(out, namedQuery{"shared component", sharedComponentQuery, args})
	}
	return out
}

// candidates loads incidents with the signatures that speak for them, in id order.
func (s *Store) candidates(ctx context.Context, ids []string) ([]incident.Candidate, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var incs []incidentRow
	if err := s.db.WithContext(ctx).Select("id, title").Where("id IN ?", ids).Order("id").Find(&incs).Error; err != nil {
		return nil, wrap(err, "candidates")
	}
	var rows []signatureRow
	if err := s.db.WithContext(ctx).Table("incident_signatures AS s").Select("s.*").
		Joins("JOIN incidents i ON i.id = s.incident_id AND s.origin = i.sig_origin").
		Where("s.incident_id IN ?", ids).Order("s.incident_id, s.position").Scan(&rows).Error; err != nil {
		return nil, wrap(err, "candidate signatures")
	}
	by := map[string]*incident.Signature{}
	for _, g := range rows {
		x, ok := by[g.IncidentID]
		if !ok {
			x = &incident.Signature{}
			by[g.IncidentID] = x
		}
		fold(x, g)
	}
	out := make([]incident.Candidate, len(incs))
	for i, in := range incs {
		out[i] = incident.Candidate{ID: in.ID, Title: in.Title}
		if x := by[in.ID]; x != nil {
			out[i].Signature = *x
		}
	}
	return out, nil
}

func kindsOf(cs []incident.Component) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Kind
	}
	return out
}

func distinct(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}
