package store

import (
	"context"
	"encoding/json"
	"time"

	"gorm.io/gorm"

	"github.com/rootline-dev/rootline/internal/incident"
)

type noteRow struct {
	ID         int64 `gorm:"primaryKey"`
	IncidentID string
	At         time.Time
	Author     string
	Kind       string
	Body       string
	Causes     string
	CreatedAt  time.Time
}

func (noteRow) TableName() string { return "notes" }

// CreateNote stores a validated note; ErrNotFound when its incident does not exist.
func (s *Store) CreateNote(ctx context.Context, n *incident.Note) error {
	if err := incidentExists(ctx, s.db, n.IncidentID); err != nil {
		return wrap(err, "create note")
	}
	causes, _ := json.Marshal(n.Causes)
	if n.Causes == nil {
		causes = []byte("[]")
	}
	n.CreatedAt = time.Now().UTC().Truncate(time.Microsecond)
	n.At = n.At.UTC().Truncate(time.Microsecond)
	row := noteRow{IncidentID: n.IncidentID, At: n.At, Author: n.Author, Kind: n.Kind, Body: n.Body, Causes: string(causes), CreatedAt: n.CreatedAt}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		return s.refreshSearch(tx, n.IncidentID) // the note's words find its incident
	})
	if err != nil {
		return wrap(err, "create note")
	}
	n.ID = row.ID
	return nil
}

// Notes lists an incident's notes in the order of their times.
func (s *Store) Notes(ctx context.Context, incidentID string) ([]incident.Note, error) {
	if err := incidentExists(ctx, s.db, incidentID); err != nil {
		return nil, wrap(err, "notes of %s", incidentID)
	}
	var rows []noteRow
	if err := s.db.WithContext(ctx).Where("incident_id = ?", incidentID).Order("at, id").Find(&rows).Error; err != nil {
		return nil, wrap(err, "notes of %s", incidentID)
	}
	out := make([]incident.Note, len(rows))
	for i, r := range rows {
		out[i] = incident.Note{ID: r.ID, IncidentID: r.IncidentID, At: r.At.UTC(), Author: r.Author, Kind: r.Kind, Body: r.Body, CreatedAt: r.CreatedAt.UTC()}
		if r.Causes != "[]" {
			_ = json.Unmarshal([]byte(r.Causes), &out[i].Causes) // written by CreateNote as a JSON list
		}
	}
	return out, nil
}
