package store

import (
	"container/heap"
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/rootline-dev/rootline/internal/incident"
)

// Related-incident lookup reads index ranges of incident_facets: the rows of the target's root
// cause, then the rows of its component kinds and node pool keys (on PostgreSQL index-only
// scans: the key includes the rest). Each row carries the candidate's signature as bit sets, so
// the overlap is scored without reading more: by PostgreSQL itself (bit_count), which returns
// only the best; on SQLite, which has no bit count, here (best). The candidates are then loaded
// whole for incident.Related, which ranks them in the end.
const (
	sameRootWhere = `facet = 'root' AND value = @root AND incident_id <> @id`
	sharedWhere   = `incident_id <> @id AND root <> @root`
	bitsColumns   = `incident_id, symptom_bits, cause_bits, component_bits`

	// pgScore is sigBits.overlap in SQL, with the same operations in the same order, so that
	// both give the same float64 and the same ranking. @c, @s, @k: the target's bit sets.
	pgScore = `(` + pgJaccard + ` + ` + `%s` + ` + ` + `%s` + `) / 3`
	// pgScoredQuery ranks the candidates of a condition over a source of facet rows, best
	// first. An incident has one row per facet value: DISTINCT (%s) is needed only when the
	// source names several component kinds or pool keys.
	pgScoredQuery = `SELECT incident_id FROM (
		SELECT %s incident_id, %s AS score FROM %s WHERE %s
	) AS candidates ORDER BY score DESC, incident_id`
)

// pgJaccard is the shared fraction of two bit sets: |x & y| / |x | y|, 0 when both are empty.
const pgJaccard = `CASE WHEN (cause_bits | @c) = 0 THEN 0 ELSE bit_count((cause_bits & @c)::bit(64))::float8 / bit_count((cause_bits | @c)::bit(64)) END`

// pgOverlap is the score expression over the three bit sets.
var pgOverlap = fmt.Sprintf(pgScore,
	strings.NewReplacer("cause_bits", "symptom_bits", "@c", "@s").Replace(pgJaccard),
	strings.NewReplacer("cause_bits", "component_bits", "@c", "@k").Replace(pgJaccard))

// RelatedLimits bound a related lookup: how many incidents of each relation it returns, the
// best first; 0 returns all of them.
type RelatedLimits struct {
	SameRoot int // incidents that share the root cause
	Shared   int // incidents that share a component without it
}

// RelatedCandidates returns the incidents of the library that may be related to the target
// (its id, cluster and signature), with their clusters and the signatures that speak for
// them: the best of those that share its root cause, and the best of those that share a
// component kind or node pool without it (incident.ComponentKeys), by the score
// incident.Related gives (which ranks them in the end).
func (s *Store) RelatedCandidates(ctx context.Context, target incident.Candidate, limits RelatedLimits) ([]incident.Candidate, error) {
	var ids []string
	var all []incident.Candidate
	for _, q := range s.relatedQueries(target, limits) {
		if q.name == sameRootName && q.limit <= 0 {
			// Every incident of the root cause: loaded with one query, not by their ids.
			found, err := s.sameRootCandidates(ctx, target)
			if err != nil {
				return nil, wrap(err, "related to %s: %s", target.ID, q.name)
			}
			all = append(all, found...)
			continue
		}
		found, err := s.relatedIDs(ctx, q)
		if err != nil {
			return nil, wrap(err, "related to %s: %s", target.ID, q.name)
		}
		ids = append(ids, found...)
	}
	more, err := s.candidates(ctx, ids)
	if err != nil {
		return nil, err
	}
	all = append(all, more...)
	sort.Slice(all, func(i, j int) bool { return all[i].ID < all[j].ID })
	return all, nil
}

// sameRootCandidates loads every incident that shares the target's root cause, with its
// cluster and the signature that speaks for it, in one query over the root's range of
// incident_facets, its rows scanned by hand (a root cause may have tens of thousands).
func (s *Store) sameRootCandidates(ctx context.Context, target incident.Candidate) ([]incident.Candidate, error) {
	rows, err := s.db.WithContext(ctx).Raw(`SELECT i.id, i.title, coalesce(c.name, ''), coalesce(s.facet, ''), coalesce(s.value, ''),
			coalesce(s.name, ''), coalesce(s.role, '')
		FROM incident_facets f
		JOIN incidents i ON i.id = f.incident_id
		LEFT JOIN clusters c ON c.id = i.cluster_id
		LEFT JOIN incident_signatures s ON s.incident_id = i.id AND s.origin = i.sig_origin
		WHERE f.facet = 'root' AND f.value = ? AND f.incident_id <> ?
		ORDER BY i.id, s.position`, target.Signature.RootCause, target.ID).Rows()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []incident.Candidate
	for rows.Next() {
		var id, title, cluster string
		var g signatureRow
		if err := rows.Scan(&id, &title, &cluster, &g.Facet, &g.Value, &g.Name, &g.Role); err != nil {
			return nil, err
		}
		if n := len(out); n == 0 || out[n-1].ID != id {
			out = append(out, incident.Candidate{ID: id, Title: title, Cluster: cluster})
		}
		if g.Facet != "" {
			fold(&out[len(out)-1].Signature, g)
		}
	}
	return out, rows.Err()
}

// relatedIDs runs one related query: the best ids, scored by PostgreSQL, or here on SQLite.
func (s *Store) relatedIDs(ctx context.Context, q namedQuery) ([]string, error) {
	if s.dialect == Postgres {
		var ids []string
		sql := q.sql
		if q.limit > 0 {
			sql += fmt.Sprintf(" LIMIT %d", q.limit)
		}
		return ids, s.db.WithContext(ctx).Raw(sql, q.args).Scan(&ids).Error
	}
	rows, err := s.scoredRows(ctx, q)
	if err != nil {
		return nil, err
	}
	return best(rows, q.want, q.limit, q.name == sharedComponentName), nil
}

// scoredRow is a candidate of a related query: its id and its signature's bit sets.
type scoredRow struct {
	id   string
	bits sigBits
}

// scoredRows runs a related query, scanning its rows by hand into compact values: a lookup
// may read tens of thousands, and gorm's reflection per row costs more than the query.
func (s *Store) scoredRows(ctx context.Context, q namedQuery) ([]scoredRow, error) {
	rows, err := s.db.WithContext(ctx).Raw(q.sql, q.args).Rows()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]scoredRow, 0, 1024)
	for rows.Next() {
		var r scoredRow
		if err := rows.Scan(&r.id, &r.bits.SymptomBits, &r.bits.CauseBits, &r.bits.ComponentBits); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// best returns the ids of the limit rows whose signatures overlap want most (ties by the
// smaller id), keeping only a heap of limit candidates; all of them, best first, when limit is
// 0. dedupe drops an incident's repeated rows: a component query returns one row per shared
// kind or pool.
func best(rows []scoredRow, want sigBits, limit int, dedupe bool) []string {
	if limit <= 0 {
		limit = len(rows)
	}
	var seen map[string]bool
	if dedupe {
		seen = make(map[string]bool, len(rows))
	}
	h := make(topK, 0, limit+1)
	for _, r := range rows {
		if dedupe {
			if seen[r.id] {
				continue
			}
			seen[r.id] = true
		}
		x := scored{r.id, want.overlap(r.bits)}
		if len(h) == limit && !x.better(h[0]) {
			continue
		}
		heap.Push(&h, x)
		if len(h) > limit {
			heap.Pop(&h)
		}
	}
	sort.Slice(h, func(i, j int) bool { return h[i].better(h[j]) })
	ids := make([]string, len(h))
	for i, x := range h {
		ids[i] = x.id
	}
	return ids
}

type scored struct {
	id    string
	score float64
}

func (a scored) better(b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.id < b.id
}

// topK is a heap whose root is the worst of the best candidates kept.
type topK []scored

func (h topK) Len() int           { return len(h) }
func (h topK) Less(i, j int) bool { return h[j].better(h[i]) }
func (h topK) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *topK) Push(x any)        { *h = append(*h, x.(scored)) }
func (h *topK) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

const (
	sameRootName        = "same root cause"
	sharedComponentName = "shared component"
)

// namedQuery is a related query: its SQL and arguments, and what scoring it here needs.
type namedQuery struct {
	name, sql string
	args      map[string]any
	want      sigBits
	limit     int
}

// relatedQueries are the queries RelatedCandidates runs: for incidents sharing the root cause
// (when there is one), and for those sharing a component kind or node pool key without it
// (when it has any).
func (s *Store) relatedQueries(target incident.Candidate, limits RelatedLimits) []namedQuery {
	sig := target.Signature
	var want sigBits
	if facets, _ := facetsOf(target.ID, target.Cluster, incident.Signatures{Effective: sig}); len(facets) > 0 {
		want = facets[0].Bits
	}
	var comps, pools []string
	for _, k := range incident.ComponentKeys(sig.Components, target.Cluster) {
		if strings.HasPrefix(k, incident.NodePool+":") || strings.HasPrefix(k, incident.NodePool+"@") {
			pools = append(pools, k)
		} else {
			comps = append(comps, k)
		}
	}
	args := map[string]any{"id": target.ID, "root": sig.RootCause, "comps": comps, "pools": pools,
		"s": want.SymptomBits, "c": want.CauseBits, "k": want.ComponentBits}
	query := func(source, where string, repeats bool) string {
		if s.dialect != Postgres {
			return "SELECT " + bitsColumns + " FROM " + source + " WHERE " + where
		}
		distinct := ""
		if repeats {
			distinct = "DISTINCT"
		}
		return fmt.Sprintf(pgScoredQuery, distinct, pgOverlap, source, where)
	}
	var out []namedQuery
	if sig.RootCause != "" {
		out = append(out, namedQuery{sameRootName, query("incident_facets", sameRootWhere, false), args, want, limits.SameRoot})
	}
	// The rows of the target's component kinds and of its pool keys: each branch one range of
	// the key, which the databases read before the condition on the rest.
	var branches []string
	if len(comps) > 0 {
		branches = append(branches, "SELECT * FROM incident_facets WHERE facet = 'component' AND value IN @comps")
	}
	if len(pools) > 0 {
		branches = append(branches, "SELECT * FROM incident_facets WHERE facet = 'pool' AND value IN @pools")
	}
	if len(branches) > 0 {
		source := "(" + strings.Join(branches, " UNION ALL ") + ") AS incident_facets"
		out = append(out, namedQuery{sharedComponentName, query(source, sharedWhere, len(comps)+len(pools) > 1), args, want, limits.Shared})
	}
	return out
}

// candidates loads incidents with their clusters and the signatures that speak for them, in
// id order, a batch of ids at a time.
func (s *Store) candidates(ctx context.Context, ids []string) ([]incident.Candidate, error) {
	var out []incident.Candidate
	for start := 0; start < len(ids); start += importBatch {
		batch, err := s.candidateBatch(ctx, ids[start:min(start+importBatch, len(ids))])
		if err != nil {
			return nil, err
		}
		out = append(out, batch...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func (s *Store) candidateBatch(ctx context.Context, ids []string) ([]incident.Candidate, error) {
	var incs []struct{ ID, Title, ClusterName string }
	if err := s.db.WithContext(ctx).Table("incidents").Select("incidents.id, incidents.title, coalesce(clusters.name, '') AS cluster_name").
		Joins("LEFT JOIN clusters ON clusters.id = incidents.cluster_id").
		Where("incidents.id IN ?", ids).Order("incidents.id").Scan(&incs).Error; err != nil {
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
		out[i] = incident.Candidate{ID: in.ID, Title: in.Title, Cluster: in.ClusterName}
		if x := by[in.ID]; x != nil {
			out[i].Signature = *x
		}
	}
	return out, nil
}
