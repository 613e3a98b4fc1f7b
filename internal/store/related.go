package store

import (
	"context"
	"fmt"
	"sort"

	"github.com/rootline-dev/rootline/internal/incident"
)

// relatedScore is incident.Related's score in SQL, over the facets a candidate shares with
// the target (h) and the sizes of both signatures: the mean of the shared fractions of causes,
// symptoms and component kinds. Named parameters: @nc, @ns, @nk are the target's sizes.
const relatedScore = `(
	CASE WHEN @nc + i.sig_causes - h.causes > 0 THEN h.causes * 1.0 / (@nc + i.sig_causes - h.causes) ELSE 0 END +
	CASE WHEN @ns + i.sig_symptoms - h.symptoms > 0 THEN h.symptoms * 1.0 / (@ns + i.sig_symptoms - h.symptoms) ELSE 0 END +
	CASE WHEN @nk + i.sig_components - h.comps > 0 THEN h.comps * 1.0 / (@nk + i.sig_components - h.comps) ELSE 0 END) / 3`

// relatedQuery ranks the candidates that %s (a condition on f.incident_id) by what they share
// with the target. It reads incident_facets by its primary key (facet, value, incident_id) and
// the incidents by id: no scan of the library.
const relatedQuery = `SELECT i.id FROM (
	SELECT f.incident_id,
		sum(CASE WHEN f.facet = 'cause' THEN 1 ELSE 0 END) AS causes,
		sum(CASE WHEN f.facet = 'symptom' THEN 1 ELSE 0 END) AS symptoms,
		sum(CASE WHEN f.facet = 'component' THEN 1 ELSE 0 END) AS comps
	FROM incident_facets f
	WHERE ((f.facet = 'cause' AND f.value IN @causes) OR (f.facet = 'symptom' AND f.value IN @symptoms)
		OR (f.facet = 'component' AND f.value IN @comps))
		AND %s
	GROUP BY f.incident_id
) h JOIN incidents i ON i.id = h.incident_id
WHERE i.id <> @id
ORDER BY ` + relatedScore + ` DESC, i.id
LIMIT @limit`

const (
	sameRoot        = `f.incident_id IN (SELECT incident_id FROM incident_facets WHERE facet = 'root' AND value = @root)`
	sharedComponent = `f.incident_id IN (SELECT incident_id FROM incident_facets WHERE facet = 'component' AND value IN @comps)
		AND f.incident_id NOT IN (SELECT incident_id FROM incident_facets WHERE facet = 'root' AND value = @root)`
)

// RelatedCandidates returns the incidents of the library that may be related to incident id
// of signature sig, with the signatures that speak for them: the best limit of those that
// share its root cause, and the best limit of those that share a component kind without it,
// by the score incident.Related gives (which ranks them in the end).
func (s *Store) RelatedCandidates(ctx context.Context, id string, sig incident.Signature, limit int) ([]incident.Candidate, error) {
	if limit <= 0 {
		limit = 50
	}
	causes, symptoms, comps := distinct(sig.Causes), distinct(sig.Symptoms), distinct(kindsOf(sig.Components))
	args := map[string]any{
		"id": id, "root": sig.RootCause, "limit": limit,
		"causes": orNone(causes), "symptoms": orNone(symptoms), "comps": orNone(comps),
		"nc": len(causes), "ns": len(symptoms), "nk": len(comps),
	}
	var ids []string
	for _, cond := range []string{sameRoot, sharedComponent} {
		if (cond == sameRoot && sig.RootCause == "") || (cond == sharedComponent && len(comps) == 0) {
			continue
		}
		var found []string
		if err := s.db.WithContext(ctx).Raw(fmt.Sprintf(relatedQuery, cond), args).Scan(&found).Error; err != nil {
			return nil, wrap(err, "related to %s", id)
		}
		ids = append(ids, found...)
	}
	return s.candidates(ctx, ids)
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

// orNone keeps an IN list valid when empty: "" is no kind.
func orNone(ss []string) []string {
	if len(ss) == 0 {
		return []string{""}
	}
	return ss
}
