package store

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/incident"
)

// alertRow is one firing of an alert of a cluster, as Alertmanager's webhook reported it: keyed
// by its fingerprint and start, closed (EndsAt, Status resolved) when it resolves.
type alertRow struct {
	ID           int64 `gorm:"primaryKey"`
	ClusterID    int64
	Fingerprint  string
	StartsAt     time.Time
	EndsAt       *time.Time
	Status       string
	Labels       string // JSON object
	Annotations  string // JSON object, redacted
	GeneratorURL string
	ReceivedAt   time.Time
}

// TableName is the table of alertRow, for gorm.
func (alertRow) TableName() string { return "alerts" }

// AlertCounts says what a webhook payload changed: alerts new, alerts closed by a resolved
// notification, and alerts as stored already (a payload delivered again).
type AlertCounts struct {
	New, Resolved, Known int
	// Updated are firings whose annotations a later firing notification changed.
	Updated int
	// Refused are new alerts not stored: their cluster holds MaxClusterAlerts alerts, or
	// MaxClusterAlertBytes of their labels and annotations, already.
	Refused int
}

// What a cluster's alerts may hold at most, until retention expires the old: Alertmanager's
// payloads come with a write token, and every incident of the cluster reads the alerts of its
// window, so that a sender of endless distinct alerts must meet a bound.
const (
	MaxClusterAlerts     = 20_000
	MaxClusterAlertBytes = 64 << 20
)

// MaxWindowAlerts is how many alerts an incident's window loads at most: the latest to start.
const MaxWindowAlerts = 2_000

// StoreAlerts stores the alerts of one webhook payload of a cluster (created when new), in one
// transaction: a new firing as a row of its own, a resolved notification closing the row of
// the same firing (fingerprint and start), what is stored already left as it is. A resolved
// row stays resolved: a firing notification delivered late does not open it again. When
// anything changed, the cluster's generation grows, so that the incidents of the cluster are
// analysed again (see IncidentVersion).
func (s *Store) StoreAlerts(ctx context.Context, clusterName string, alerts []alert.Alert, now time.Time) (AlertCounts, error) {
	rows, err := alertRows(alerts, now)
	if err != nil {
		return AlertCounts{}, wrap(err, "store %d alerts of %s", len(alerts), clusterName)
	}
	var n AlertCounts
	err = s.inConnTx(ctx, func(c *connTx) error {
		tx := c.tx.WithContext(ctx)
		n = AlertCounts{}
		cid, err := clusterID(ctx, tx, clusterName)
		if err != nil {
			return err
		}
		var held struct{ Rows, Bytes int64 }
		if err := tx.Model(&alertRow{}).Where("cluster_id = ?", cid).
			Select("COUNT(*) AS rows, COALESCE(SUM(LENGTH(labels) + LENGTH(annotations)), 0) AS bytes").Scan(&held).Error; err != nil {
			return err
		}
		for _, r := range rows {
			r.ClusterID = cid
			size := int64(len(r.Labels) + len(r.Annotations))
			if held.Rows >= MaxClusterAlerts || held.Bytes+size > MaxClusterAlertBytes {
				// Full: a new alert is refused, one stored already is still closed or refreshed.
				var stored int64
				if err := tx.Model(&alertRow{}).Where("cluster_id = ? AND fingerprint = ? AND starts_at = ?", cid, r.Fingerprint, r.StartsAt).
					Count(&stored).Error; err != nil {
					return err
				}
				if stored == 0 {
					n.Refused++
					continue
				}
			}
			res := tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "cluster_id"}, {Name: "fingerprint"}, {Name: "starts_at"}}, DoNothing: true}).
				Create(&r)
			if res.Error != nil {
				return res.Error
			}
			if res.RowsAffected == 1 {
				n.New++
				held.Rows, held.Bytes = held.Rows+1, held.Bytes+size
				continue
			}
			closed, err := closeAlert(tx, r)
			if err != nil {
				return err
			}
			if closed {
				n.Resolved++
				continue
			}
			refreshed, err := refreshAlert(tx, r)
			if err != nil {
				return err
			}
			if refreshed {
				n.Updated++
			} else {
				n.Known++
			}
		}
		if n.New == 0 && n.Resolved == 0 && n.Updated == 0 {
			return nil // nothing changed: a payload delivered again
		}
		return bumpGeneration(tx, cid)
	})
	return n, wrap(err, "store %d alerts of %s", len(alerts), clusterName)
}

// closeAlert closes the stored row of r's firing when r is resolved and the row is not yet.
func closeAlert(tx *gorm.DB, r alertRow) (bool, error) {
	if r.EndsAt == nil {
		return false, nil
	}
	res := tx.Model(&alertRow{}).
		Where("cluster_id = ? AND fingerprint = ? AND starts_at = ? AND status <> ?", r.ClusterID, r.Fingerprint, r.StartsAt, alert.Resolved).
		Updates(map[string]any{"status": alert.Resolved, "ends_at": *r.EndsAt, "annotations": r.Annotations, "received_at": r.ReceivedAt})
	return res.RowsAffected == 1, res.Error
}

// refreshAlert keeps the annotations of a firing that fires on as a later firing notification
// gives them (Alertmanager sends them as they are now: a value in a description that grew),
// when they changed. A resolved row is left as its resolution wrote it.
func refreshAlert(tx *gorm.DB, r alertRow) (bool, error) {
	if r.EndsAt != nil {
		return false, nil
	}
	res := tx.Model(&alertRow{}).
		Where("cluster_id = ? AND fingerprint = ? AND starts_at = ? AND status = ? AND annotations <> ?", r.ClusterID, r.Fingerprint, r.StartsAt, alert.Firing, r.Annotations).
		Updates(map[string]any{"annotations": r.Annotations, "received_at": r.ReceivedAt})
	return res.RowsAffected == 1, res.Error
}

// alertRows are the rows of a payload's alerts, one per firing (the resolved notification of
// one given twice wins), in key order, so that concurrent payloads lock rows in the same order.
func alertRows(alerts []alert.Alert, now time.Time) ([]alertRow, error) {
	byKey := map[string]alertRow{}
	for _, a := range alerts {
		labels, err := json.Marshal(a.Labels)
		if err != nil {
			return nil, err
		}
		notes, err := json.Marshal(a.Annotations)
		if err != nil {
			return nil, err
		}
		// PostgreSQL keeps microseconds: the key is what both backends store.
		r := alertRow{Fingerprint: strings.ToLower(a.Fingerprint), StartsAt: a.StartsAt.UTC().Truncate(time.Microsecond), Status: alert.Firing,
			Labels: string(labels), Annotations: string(notes), GeneratorURL: a.GeneratorURL, ReceivedAt: now.UTC()}
		if a.Status == alert.Resolved {
			end := a.EndsAt.UTC().Truncate(time.Microsecond)
			r.Status, r.EndsAt = alert.Resolved, &end
		}
		key := r.Fingerprint + " " + r.StartsAt.Format(time.RFC3339Nano)
		if old, ok := byKey[key]; ok && old.EndsAt != nil {
			continue
		}
		byKey[key] = r
	}
	out := make([]alertRow, 0, len(byKey))
	for _, k := range slices.Sorted(maps.Keys(byKey)) {
		out = append(out, byKey[k])
	}
	return out, nil
}

// windowAlerts returns the alerts of cluster cid whose firing overlaps [from, to], by start.
func (s *Store) windowAlerts(ctx context.Context, cid int64, from, to time.Time) ([]alert.Alert, error) {
	var rows []alertRow
	// The latest MaxWindowAlerts to start, given in the order of their starts.
	err := s.db.WithContext(ctx).Where("cluster_id = ? AND starts_at <= ? AND (ends_at IS NULL OR ends_at >= ?)", cid, to.UTC(), from.UTC()).
		Order("starts_at DESC, fingerprint DESC").Limit(MaxWindowAlerts).Find(&rows).Error
	if err != nil {
		return nil, err
	}
	slices.Reverse(rows)
	out := make([]alert.Alert, len(rows))
	for i, r := range rows {
		a := alert.Alert{Fingerprint: r.Fingerprint, Status: r.Status, StartsAt: r.StartsAt.UTC(), GeneratorURL: r.GeneratorURL}
		if r.EndsAt != nil {
			a.EndsAt = r.EndsAt.UTC()
		}
		if err := json.Unmarshal([]byte(r.Labels), &a.Labels); err != nil {
			return nil, wrap(err, "labels of alert %s", r.Fingerprint)
		}
		if err := json.Unmarshal([]byte(r.Annotations), &a.Annotations); err != nil {
			return nil, wrap(err, "annotations of alert %s", r.Fingerprint)
		}
		out[i] = a
	}
	return out, nil
}

// OpenIncident opens in, an incident of clusterName with a start and no end, unless the
// cluster has an open incident already (one without an end): then it returns that one's id and
// opened false. The check and the write are one transaction holding the cluster's row, so that
// concurrent callers open one incident between them.
func (s *Store) OpenIncident(ctx context.Context, clusterName string, in *incident.Incident) (id string, opened bool, err error) {
	err = s.inConnTx(ctx, func(c *connTx) error {
		tx := c.tx.WithContext(ctx)
		cid, err := clusterID(ctx, tx, clusterName)
		if err != nil {
			return err
		}
		// The cluster's row, held to the commit: the next caller reads after this one wrote.
		if err := bumpGeneration(tx, cid); err != nil {
			return err
		}
		var open []string
		if err := tx.Model(&incidentRow{}).Where("cluster_id = ? AND ended_at IS NULL", cid).Order("created_at DESC, id").Limit(1).
			Pluck("id", &open).Error; err != nil {
			return err
		}
		if len(open) > 0 {
			id, opened = open[0], false
			return nil
		}
		in.Cluster, in.EndedAt = clusterName, nil
		if err := s.insertIncident(ctx, tx, in); err != nil {
			return err
		}
		id, opened = in.ID, true
		return nil
	})
	return id, opened, wrap(err, "open an incident of %s", clusterName)
}
