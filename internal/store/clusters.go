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

// Cluster is a cluster known to Rootline.
type Cluster struct {
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
}

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

// bumpGeneration records that what is stored of a cluster changed, inside the caller's
// transaction (last, after its other writes, so that concurrent writers lock rows in the same
// order).
func bumpGeneration(tx *gorm.DB, clusterID int64) error {
	return tx.Model(&clusterRow{}).Where("id = ?", clusterID).UpdateColumn("generation", gorm.Expr("generation + 1")).Error
}
