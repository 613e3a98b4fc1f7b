package store

import (
	"context"
	"time"

	"gorm.io/gorm"
)

// DB exposes the gorm handle to the external tests, which read columns that the API does not
// return (an event's count and time span) and create scratch schemas.
func (s *Store) DB() *gorm.DB { return s.db }

// MigrateTo applies the migrations up to a version, to test the next one on data of the
// schema before it.
func (s *Store) MigrateTo(ctx context.Context, version int) error { return s.migrateTo(ctx, version) }

// SignatureBits exposes the fixed bit of each symptom, cause and component kind.
func SignatureBits() (symptoms, causes, components map[string]uint) {
	return symptomBit, causeBit, componentBit
}

// SetClock sets the clock that dates what the store stores (the day events are stored on).
func (s *Store) SetClock(now func() time.Time) { s.now = now }

// EventID is the key of an event's rows.
func EventID(clusterID int64, identity string) string { return eventID(clusterID, identity) }
