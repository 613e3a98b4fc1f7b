package store

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

type clusterRow struct {
	ID        int64
	Name      string
	CreatedAt time.Time
}

func (clusterRow) TableName() string { return "clusters" }

// clusterID returns the id of the named cluster, creating it when it is new.
func clusterID(ctx context.Context, db *gorm.DB, name string) (int64, error) {
	row := clusterRow{Name: name, CreatedAt: time.Now().UTC()}
	err := db.WithContext(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "name"}}, DoNothing: true}).Create(&row).Error
	if err != nil {
		return 0, wrap(err, "create cluster %q", name)
	}
	var id int64
	err = db.WithContext(ctx).Model(&clusterRow{}).Where("name = ?", name).Pluck("id", &id).Error
	return id, wrap(err, "find cluster %q", name)
}

// bumpGeneration records that what is stored of a cluster changed, inside the caller's
// transaction (last, after its other writes, so that concurrent writers lock rows in the same
// order).
func bumpGeneration(tx *gorm.DB, clusterID int64) error {
	_, err := nextGeneration(tx, clusterID)
	return err
}

// nextGeneration bumps a cluster's generation, as bumpGeneration, and returns the new one. The
// row stays locked until the caller's transaction ends, so that the generations of a cluster's
// writers are handed out in the order they commit: a reader that saw generation g has seen
// every row marked g or less, and every row it has not seen will be marked above g.
func nextGeneration(tx *gorm.DB, clusterID int64) (int64, error) {
	var gen int64
	err := tx.Raw("UPDATE clusters SET generation = generation + 1 WHERE id = ? RETURNING generation", clusterID).Scan(&gen).Error
	return gen, err
}

// pendingGen marks the rows a collector's transaction writes or changes, until it knows its
// generation (nextGeneration, taken last) and marks them with it (markChanged): no other
// transaction ever sees it.
const pendingGen = -1

// markChanged gives the rows of a cluster the transaction marked pendingGen its generation.
func markChanged(tx *gorm.DB, clusterID, gen int64) error {
	for _, table := range []string{"events", "object_states"} {
		if err := tx.Exec(markChangedSQL(table), gen, clusterID, pendingGen).Error; err != nil {
			return wrap(err, "mark changed %s", table)
		}
	}
	return nil
}

// markChangedSQL is markChanged's statement for a table: generation, cluster, pendingGen.
func markChangedSQL(table string) string {
	// changed_gen <> 0 lets PostgreSQL use the partial index of events.
	return "UPDATE " + table + " SET changed_gen = ? WHERE cluster_id = ? AND changed_gen = ? AND changed_gen <> 0"
}

// resetGenerations records that rows of every cluster may have been deleted (expiry): each
// cluster's generation grows, and loads made before it start again from scratch (reset_gen).
func resetGenerations(db *gorm.DB) error {
	return db.Exec("UPDATE clusters SET generation = generation + 1, reset_gen = generation + 1").Error
}

// ClusterKnown reports whether the store holds anything of a cluster besides its alerts: an
// incident of it, a snapshot uploaded for it, or what a collector sent of it (events, object
// states). Alertmanager's payloads name a cluster in their URL, which anyone with a write token
// chooses: an alert alone makes no cluster known.
func (s *Store) ClusterKnown(ctx context.Context, name string) (bool, error) {
	var known bool
	err := s.db.WithContext(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM clusters c WHERE c.name = ? AND (
		EXISTS (SELECT 1 FROM incidents i WHERE i.cluster_id = c.id) OR
		EXISTS (SELECT 1 FROM snapshots n WHERE n.cluster_id = c.id) OR
		EXISTS (SELECT 1 FROM object_states o WHERE o.cluster_id = c.id) OR
		EXISTS (SELECT 1 FROM events e WHERE e.cluster_id = c.id)))`, name).Scan(&known).Error
	return known, wrap(err, "is cluster %q known", name)
}
