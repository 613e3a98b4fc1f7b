package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/incident"
	"gorm.io/gorm"
)

// Queries only tests ask: what a cluster's rows hold, the schema's version, one report at a
// time, the plans of the library's queries. They read the store the way the production API
// does, but no production path needs them, so they live beside the tests.

// ClusterAlerts returns the alerts of a cluster whose firing overlaps [from, to] (one still
// firing overlaps every window after its start), by start.
func (s *Store) ClusterAlerts(ctx context.Context, clusterName string, from, to time.Time) ([]alert.Alert, error) {
	var cid int64
	err := s.db.WithContext(ctx).Model(&clusterRow{}).Where("name = ?", clusterName).Pluck("id", &cid).Error
	if err != nil || cid == 0 {
		return nil, wrap(err, "alerts of cluster %s", clusterName)
	}
	out, err := s.windowAlerts(ctx, cid, from, to)
	return out, wrap(err, "alerts of cluster %s", clusterName)
}

// Cluster is a cluster known to Rootline.
type Cluster struct {
	Name      string
	CreatedAt time.Time
}

// Clusters lists the clusters, by name.
func (s *Store) Clusters(ctx context.Context) ([]Cluster, error) {
	var rows []clusterRow
	if err := s.db.WithContext(ctx).Order("name").Find(&rows).Error; err != nil {
		return nil, wrap(err, "list clusters")
	}
	out := make([]Cluster, len(rows))
	for i, r := range rows {
		out[i] = Cluster{Name: r.Name, CreatedAt: r.CreatedAt}
	}
	return out, nil
}

// ClusterStates returns the collected pod and node states of a cluster observed within
// [from, to], oldest first: each a change of the object (the collector sends a pod or node
// only when its state line changes).
func (s *Store) ClusterStates(ctx context.Context, clusterName string, from, to time.Time) ([]StateChange, error) {
	out, err := s.clusterStates(s.db.WithContext(ctx).Joins("JOIN clusters ON clusters.id = object_states.cluster_id").Where("clusters.name = ?", clusterName), from, to)
	return out, wrap(err, "states of cluster %s", clusterName)
}

// SchemaVersion is the highest migration applied.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := s.db.WithContext(ctx).Raw("SELECT coalesce(max(version), 0) FROM schema_migrations").Scan(&v).Error
	return v, wrap(err, "schema version")
}

// ImportReport stores a report of the library: a new incident, or the incident of the same id
// updated (title, org, date, tags, text, the signature the report gives, and the one a person
// set when the report carries it). A time window and a cluster the report gives replace the
// incident's, and its notes are added to the incident's unless it has them already: an import
// never clears a window, a cluster or a note. Importing the same report again changes
// nothing. It returns whether the incident was created.
func (s *Store) ImportReport(ctx context.Context, r incident.Report) (created bool, err error) {
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		created, err = s.importOne(ctx, tx, r, time.Now().UTC().Truncate(time.Microsecond))
		return err
	})
	return created, wrap(err, "import report %s", r.ID)
}

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
