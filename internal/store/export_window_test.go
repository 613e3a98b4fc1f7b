package store

import (
	"context"
	"time"
)

// SnapshotSpan returns the span of the times the evidence of the snapshot with the digest
// records (evidence_from, evidence_to), nil when it records none.
func (s *Store) SnapshotSpan(ctx context.Context, digest string) (from, to *time.Time, err error) {
	var row snapshotRow
	err = s.db.WithContext(ctx).Select("evidence_from, evidence_to").Where("digest = ?", digest).Take(&row).Error
	return utcPtr(row.EvidenceFrom), utcPtr(row.EvidenceTo), err
}
