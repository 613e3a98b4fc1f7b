package store

import (
	"context"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/ingest"
)

// SnapshotSink is what a snapshot's objects are written to while it is filled: objects one by
// one, and for a file that may turn out unreadable part way, a mark before it and then its
// objects kept or dropped. *SnapshotWriter is one.
type SnapshotSink interface {
	Add(ctx context.Context, o *cluster.Object) error
	Mark(ctx context.Context) error
	Keep(ctx context.Context) error
	Drop(ctx context.Context) error
}

// SnapshotFill adds a snapshot's objects to w and returns what it skipped; an error stores
// nothing. It may be called more than once (see WriteSnapshot), and must add the same objects
// each time.
type SnapshotFill func(ctx context.Context, w SnapshotSink) ([]ingest.Skipped, error)

// WriteSnapshot stores a snapshot whole or not at all: it begins it (BeginSnapshot, with its
// errors: ErrExists, ErrIncidentExists), has fill add its objects, and commits. A snapshot
// whose transaction collided with a concurrent one (IsRetryable: a deadlock, SQLite busy) is
// written again from the start, fill included, after a short pause, up to txAttempts times, as
// inConnTx does for the store's own transactions.
func (s *Store) WriteSnapshot(ctx context.Context, m SnapshotMeta, fill SnapshotFill) (*Snapshot, error) {
	return retried(ctx, s, "a snapshot collided with another, writing it again", func() (*Snapshot, error) {
		attempt := m
		if m.Create != nil {
			in := *m.Create // each attempt creates it anew
			attempt.Create = &in
		}
		w, err := s.BeginSnapshot(ctx, attempt)
		if err != nil {
			return nil, err
		}
		defer w.Rollback()
		skipped, err := fill(ctx, w)
		if err != nil {
			return nil, err
		}
		return w.Commit(ctx, skipped)
	})
}
