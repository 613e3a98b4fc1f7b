package store

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"gorm.io/gorm"
)

// Retention: raw evidence (the objects of snapshots, events, the states the collector sent)
// expires after an age; what people wrote (incidents, reports, notes, signatures) does not.
// A snapshot that expires keeps its row, marked expired, so that an incident still says what
// it was made of.

// partitionDays remembers the days whose event partition exists, per store.
type partitionDays struct {
	mu   sync.Mutex
	have map[string]bool
}

// partitionName is the partition of events stored on day (YYYY-MM-DD).
func partitionName(day string) string { return "events_p" + strings.ReplaceAll(day, "-", "") }

var partitionRE = regexp.MustCompile(`^events_p(\d{4})(\d{2})(\d{2})$`)

// ensureEventDays makes sure events can be stored on the given days: on PostgreSQL, that
// each day's partition exists. A partition is created as a table of its own and then attached,
// which locks the parent against other attaches only, not against writers; an advisory lock
// keeps two servers from creating the same one.
func (s *Store) ensureEventDays(ctx context.Context, days ...string) error {
	if s.dialect != Postgres {
		return nil
	}
	s.parts.mu.Lock()
	defer s.parts.mu.Unlock()
	if s.parts.have == nil {
		s.parts.have = map[string]bool{}
	}
	for _, day := range days {
		if s.parts.have[day] {
			continue
		}
		if err := s.createPartition(ctx, day); err != nil {
			return wrap(err, "events partition for %s", day)
		}
		s.parts.have[day] = true
	}
	return nil
}

func (s *Store) createPartition(ctx context.Context, day string) error {
	from, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return err
	}
	to := from.AddDate(0, 0, 1).Format(time.DateOnly)
	name := partitionName(day)
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	tx, err := sqlDB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.ExecContext(ctx, "SET LOCAL lock_timeout = '10s'"); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtext('rootline: events partitions'))"); err != nil {
		return err
	}
	var attached bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		WHERE i.inhparent = 'events'::regclass AND c.relname = $1)`, name).Scan(&attached); err != nil {
		return err
	}
	if attached {
		return tx.Commit()
	}
	// The CHECK constraint lets the attach skip scanning the (empty) table.
	for _, q := range []string{
		// Raw objects are compressed from 256 bytes on (see migration 8).
		fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s (LIKE events INCLUDING DEFAULTS INCLUDING COMPRESSION) WITH (toast_tuple_target = 256)", name),
		fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %[1]s_day CHECK (stored_on >= '%s' AND stored_on < '%s')", name, day, to),
		fmt.Sprintf("ALTER TABLE events ATTACH PARTITION %s FOR VALUES FROM ('%s') TO ('%s')", name, day, to),
		fmt.Sprintf("ALTER TABLE %s DROP CONSTRAINT %[1]s_day", name),
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return tx.Commit()
}

// storageDays are the days a write starting at now may stamp on events: today, and tomorrow
// for a write that runs past midnight or a server whose clock is ahead.
func storageDays(now time.Time) []string {
	return []string{dayOf(now), dayOf(now.Add(24 * time.Hour))}
}

// Expired counts what an expiry removed.
type Expired struct {
	EventDays int   // days of events dropped (PostgreSQL: partitions)
	Events    int64 // event rows deleted (SQLite; PostgreSQL drops whole days)
	Snapshots int   // snapshots whose objects were deleted
	States    int64 // collected pod and node states deleted
	Alerts    int64 // alerts deleted
}

// expireBatch is how many rows one DELETE removes, so that no statement holds locks long.
const expireBatch = 5000

// Expire deletes raw evidence stored before now-age: days of events, the objects of
// snapshots (the snapshot row stays, marked expired), and collected states other than the
// newest of each pod and node that is still there. The newest state of an object is kept up
// to four times the age, so that a pod that runs unchanged for long is still known. Alerts go
// by when they were last received, not by when they fired: resolved ones received before
// now-age, those still firing received before four times the age. Evidence is thus dated by
// its arrival (snapshots by when they were stored, events by the day of their last sighting),
// so that nothing is deleted as soon as it is stored, however old the times it records. It
// also creates the event partitions of the next days. Safe to run on several servers at once.
func (s *Store) Expire(ctx context.Context, now time.Time, age time.Duration) (Expired, error) {
	var n Expired
	if err := s.ensureEventDays(ctx, storageDays(now)...); err != nil {
		return n, err
	}
	if age <= 0 {
		return n, nil
	}
	cutoff := now.Add(-age).UTC()
	var err error
	if n.EventDays, n.Events, err = s.expireEvents(ctx, dayOf(cutoff)); err != nil {
		return n, err
	}
	if n.Snapshots, err = s.expireSnapshots(ctx, cutoff, now); err != nil {
		return n, err
	}
	if n.States, err = s.expireStates(ctx, cutoff, now.Add(-4*age).UTC()); err != nil {
		return n, err
	}
	if n.Alerts, err = s.expireAlerts(ctx, cutoff, now.Add(-4*age).UTC()); err != nil {
		return n, err
	}
	if n.EventDays > 0 || n.Events > 0 || n.States > 0 || n.Alerts > 0 {
		// Rows of any cluster may be gone: analyses made before are made again, from scratch.
		if err := resetGenerations(s.db.WithContext(ctx)); err != nil {
			return n, wrap(err, "expire")
		}
	}
	return n, nil
}

// expireEvents removes the events stored on days before the cutoff day.
func (s *Store) expireEvents(ctx context.Context, cutoff string) (days int, rows int64, err error) {
	if s.dialect == SQLite {
		// Links from snapshots go with them (ON DELETE CASCADE).
		for {
			res := s.db.WithContext(ctx).Exec("DELETE FROM events WHERE id IN (SELECT id FROM events WHERE stored_on < ? LIMIT ?)", cutoff, expireBatch)
			if res.Error != nil {
				return 0, rows, wrap(res.Error, "expire events")
			}
			rows += res.RowsAffected
			if res.RowsAffected < expireBatch {
				return 0, rows, nil
			}
		}
	}
	var names []string
	if err := s.db.WithContext(ctx).Raw(`SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		WHERE i.inhparent = 'events'::regclass ORDER BY c.relname`).Scan(&names).Error; err != nil {
		return 0, 0, wrap(err, "list event partitions")
	}
	for _, name := range names {
		m := partitionRE.FindStringSubmatch(name)
		if m == nil || m[1]+"-"+m[2]+"-"+m[3] >= cutoff {
			continue
		}
		if err := s.dropPartition(ctx, name); err != nil {
			return days, 0, wrap(err, "expire events of %s", name)
		}
		s.parts.mu.Lock()
		delete(s.parts.have, m[1]+"-"+m[2]+"-"+m[3])
		s.parts.mu.Unlock()
		days++
	}
	return days, 0, nil
}

// dropPartition detaches a day of events without blocking writers (DETACH … CONCURRENTLY,
// which cannot run in a transaction) and drops it. A detach that another server started, or
// that was interrupted, is finished instead.
func (s *Store) dropPartition(ctx context.Context, name string) error {
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	conn, err := sqlDB.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SET lock_timeout = '30s'"); err != nil {
		return err
	}
	defer conn.ExecContext(context.Background(), "RESET lock_timeout") //nolint:errcheck // the connection goes back to the pool either way
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("ALTER TABLE events DETACH PARTITION %s CONCURRENTLY", name)); err != nil {
		if !strings.Contains(err.Error(), "pending") {
			return err
		}
		if _, err := conn.ExecContext(ctx, fmt.Sprintf("ALTER TABLE events DETACH PARTITION %s FINALIZE", name)); err != nil {
			return err
		}
	}
	_, err = conn.ExecContext(ctx, fmt.Sprintf("DROP TABLE IF EXISTS %s", name))
	return err
}

// expireSnapshots deletes the objects of snapshots stored before the cutoff, one snapshot per
// transaction, and marks each expired. The cluster's generation grows, so that analyses made
// from them are made again.
func (s *Store) expireSnapshots(ctx context.Context, cutoff, now time.Time) (int, error) {
	var ids []int64
	if err := s.db.WithContext(ctx).Model(&snapshotRow{}).Where("expired_at IS NULL AND created_at < ?", cutoff).
		Order("id").Pluck("id", &ids).Error; err != nil {
		return 0, wrap(err, "expire snapshots")
	}
	done := 0
	for _, id := range ids {
		err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			var row snapshotRow
			if err := tx.Where("id = ? AND expired_at IS NULL", id).Take(&row).Error; err != nil {
				return err
			}
			for _, table := range []string{"pod_containers", "pods", "nodes", "objects", "snapshot_events"} {
				if err := tx.Exec("DELETE FROM "+table+" WHERE snapshot_id = ?", id).Error; err != nil {
					return err
				}
			}
			if err := tx.Model(&snapshotRow{}).Where("id = ?", id).UpdateColumn("expired_at", now.UTC().Truncate(time.Microsecond)).Error; err != nil {
				return err
			}
			return bumpGeneration(tx, row.ClusterID)
		})
		if err != nil {
			if errors.Is(err, gorm.ErrRecordNotFound) { // expired meanwhile by another server
				continue
			}
			return done, wrap(err, "expire snapshot %d", id)
		}
		done++
	}
	return done, nil
}

// expireStates deletes collected states observed before the cutoff, except the newest state
// of each object unless it says the object was going away or it is older than hardCutoff.
func (s *Store) expireStates(ctx context.Context, cutoff, hardCutoff time.Time) (int64, error) {
	var total int64
	for {
		res := s.db.WithContext(ctx).Exec(`DELETE FROM object_states WHERE id IN (
			SELECT o.id FROM object_states o WHERE o.observed_at < ? AND (
				o.observed_at < ? OR o.state LIKE 'Succeeded%' OR o.state LIKE 'Failed%' OR o.state LIKE '%terminating%'
				OR EXISTS (SELECT 1 FROM object_states n WHERE n.cluster_id = o.cluster_id AND n.uid = o.uid AND n.observed_at > o.observed_at))
			LIMIT ?)`, cutoff, hardCutoff, expireBatch)
		if res.Error != nil {
			return total, wrap(res.Error, "expire collected states")
		}
		total += res.RowsAffected
		if res.RowsAffected < expireBatch {
			return total, nil
		}
	}
}

// expireAlerts deletes the resolved alerts last received (their resolution, or a later change)
// before the cutoff, and those still firing last received before the hard cutoff (four
// retention periods back: an alert whose resolution never came). By when they were received,
// not when they fired or ended: Alertmanager may post an alert that fired long ago (a firing
// that lasts, a notification delivered late), which an incident of now may still read.
func (s *Store) expireAlerts(ctx context.Context, cutoff, hardCutoff time.Time) (int64, error) {
	var total int64
	for {
		res := s.db.WithContext(ctx).Exec(`DELETE FROM alerts WHERE id IN (
			SELECT id FROM alerts WHERE (ends_at IS NOT NULL AND received_at < ?) OR received_at < ? LIMIT ?)`, cutoff, hardCutoff, expireBatch)
		if res.Error != nil {
			return total, wrap(res.Error, "expire alerts")
		}
		total += res.RowsAffected
		if res.RowsAffected < expireBatch {
			return total, nil
		}
	}
}
