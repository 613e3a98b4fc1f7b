package store

import (
	"context"
	"fmt"
	"strings"

	"gorm.io/gorm"

	"github.com/rootline-dev/rootline/internal/incident"
)

// ExplainIncidents runs the library listing of f under the database's EXPLAIN and returns the
// plan: EXPLAIN ANALYZE on PostgreSQL (the query runs), EXPLAIN QUERY PLAN on SQLite. For
// benchmarks, docs and people who want to see that a search reads indexes.
func (s *Store) ExplainIncidents(ctx context.Context, f IncidentFilter) (string, error) {
	sql := s.db.ToSQL(func(tx *gorm.DB) *gorm.DB {
		var vs []incidentView
		return s.listQuery(incidentQuery(tx), f).Scan(&vs)
	})
	return s.explain(ctx, sql)
}

// ExplainRelated returns the plans of the two queries RelatedCandidates runs for the target
// with limits: those sharing its root cause, then those sharing only a component.
func (s *Store) ExplainRelated(ctx context.Context, target incident.Candidate, limits RelatedLimits) (string, error) {
	var b strings.Builder
	for _, q := range s.relatedQueries(target, limits) {
		sql := s.db.ToSQL(func(tx *gorm.DB) *gorm.DB {
			var rows []map[string]any
			raw := q.sql
			if s.dialect == Postgres && q.limit > 0 {
				raw += fmt.Sprintf(" LIMIT %d", q.limit)
			}
			return tx.Raw(raw, q.args).Scan(&rows)
		})
		plan, err := s.explain(ctx, sql)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "-- %s\n%s\n", q.name, plan)
	}
	return b.String(), nil
}

func (s *Store) explain(ctx context.Context, sql string) (string, error) {
	if s.dialect == Postgres {
		var lines []string
		err := s.db.WithContext(ctx).Raw("EXPLAIN (ANALYZE, BUFFERS) " + sql).Scan(&lines).Error
		return strings.Join(lines, "\n"), wrap(err, "explain")
	}
	var rows []struct {
		ID, Parent int
		Detail     string
	}
	if err := s.db.WithContext(ctx).Raw("EXPLAIN QUERY PLAN " + sql).Scan(&rows).Error; err != nil {
		return "", wrap(err, "explain")
	}
	depth := map[int]int{}
	var b strings.Builder
	for _, r := range rows {
		depth[r.ID] = depth[r.Parent] + 1
		fmt.Fprintf(&b, "%s%s\n", strings.Repeat("  ", depth[r.ID]-1), r.Detail)
	}
	return b.String(), nil
}
