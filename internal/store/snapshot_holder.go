package store

import (
	"context"
)

// SnapshotHolder is the incident that holds the snapshot of digest: of the incidents it is
// attached to, the one it was attached to first (then the smallest id). An upload that would
// create an incident for evidence already stored goes there instead, so that the same files
// sent twice make one incident. A snapshot whose objects expired is still held by its
// incidents (uploading it again restores it for them). ErrNotFound when no snapshot has that
// digest or no incident holds it.
func (s *Store) SnapshotHolder(ctx context.Context, digest string) (string, error) {
	var ids []string
	err := s.db.WithContext(ctx).Table("incident_snapshots AS l").
		Joins("JOIN snapshots AS s ON s.id = l.snapshot_id").
		Where("s.digest = ?", digest).
		Order("l.attached_at, l.incident_id").Limit(1).
		Pluck("l.incident_id", &ids).Error
	if err != nil {
		return "", wrap(err, "holder of snapshot %s", digest)
	}
	if len(ids) == 0 {
		return "", wrap(ErrNotFound, "holder of snapshot %s", digest)
	}
	return ids[0], nil
}
