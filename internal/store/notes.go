package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	row := newNoteRow(*n, time.Now().UTC())
	n.At, n.CreatedAt = row.At, row.CreatedAt
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := roomForNotes(tx, n.IncidentID, 1); err != nil {
			return err
		}
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

// MaxNotes is how many notes an incident holds at most: an incident's pages, timeline and report
// hold every note, so that notes added or imported past it (a report imported again and again,
// each time with other notes) would make each of them larger without end.
const MaxNotes = 5000

// ErrTooManyNotes is a note (or an import's notes) beyond MaxNotes of its incident.
var ErrTooManyNotes = errors.New("too many notes")

// roomForNotes fails with ErrTooManyNotes unless the incident has room for n more notes.
func roomForNotes(tx *gorm.DB, incidentID string, n int) error {
	var have int64
	if err := tx.Model(&noteRow{}).Where("incident_id = ?", incidentID).Count(&have).Error; err != nil {
		return err
	}
	return noteRoom(incidentID, int(have), n)
}

// noteRoom is ErrTooManyNotes when an incident of have notes cannot take n more.
func noteRoom(incidentID string, have, n int) error {
	if have+n > MaxNotes {
		return fmt.Errorf("%w: incident %s has %d notes, and %d more would pass %d", ErrTooManyNotes, incidentID, have, n, MaxNotes)
	}
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
		out[i] = r.note()
	}
	return out, nil
}

// newNoteRow is the row of a validated note, written at now. PostgreSQL keeps microseconds:
// the times are truncated, so that what is read back is what was written.
func newNoteRow(n incident.Note, now time.Time) noteRow {
	causes, _ := json.Marshal(n.Causes) // a list of strings always marshals
	if len(n.Causes) == 0 {
		causes = []byte("[]")
	}
	return noteRow{IncidentID: n.IncidentID, At: n.At.UTC().Truncate(time.Microsecond), Author: n.Author, Kind: n.Kind, Body: n.Body,
		Causes: string(causes), CreatedAt: now.UTC().Truncate(time.Microsecond)}
}

// note is the note of a row.
func (r noteRow) note() incident.Note {
	n := incident.Note{ID: r.ID, IncidentID: r.IncidentID, At: r.At.UTC(), Author: r.Author, Kind: r.Kind, Body: r.Body, CreatedAt: r.CreatedAt.UTC()}
	if r.Causes != "[]" && r.Causes != "" {
		_ = json.Unmarshal([]byte(r.Causes), &n.Causes) // written by newNoteRow as a JSON list
	}
	return n
}
