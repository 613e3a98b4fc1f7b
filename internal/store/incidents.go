package store

import (
	"context"
	"errors"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/rootline-dev/rootline/internal/incident"
)

// ErrExists is returned when creating something whose id is taken.
var ErrExists = errors.New("already exists")

type incidentRow struct {
	ID        string
	Title     string
	ClusterID *int64
	StartedAt *time.Time
	EndedAt   *time.Time
	CreatedAt time.Time
	UpdatedAt time.Time
}

func (incidentRow) TableName() string { return "incidents" }

type incidentTagRow struct {
	IncidentID string
	Tag        string
}

func (incidentTagRow) TableName() string { return "incident_tags" }

// CreateIncident stores a new, validated incident. Its cluster is created when new.
func (s *Store) CreateIncident(ctx context.Context, in *incident.Incident) error {
	// PostgreSQL keeps microseconds: truncate, so that the caller gets what is read back later.
	now := time.Now().UTC().Truncate(time.Microsecond)
	in.CreatedAt, in.UpdatedAt = now, now
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		row := incidentRow{ID: in.ID, Title: in.Title, StartedAt: utcPtr(in.StartedAt), EndedAt: utcPtr(in.EndedAt), CreatedAt: now, UpdatedAt: now}
		if in.Cluster != "" {
			id, err := clusterID(ctx, tx, in.Cluster)
			if err != nil {
				return err
			}
			row.ClusterID = &id
		}
		if err := tx.Create(&row).Error; err != nil {
			if errors.Is(err, gorm.ErrDuplicatedKey) {
				return ErrExists
			}
			return err
		}
		for _, t := range in.Tags {
			if err := tx.Create(&incidentTagRow{IncidentID: in.ID, Tag: t}).Error; err != nil {
				return err
			}
		}
		return nil
	})
	return wrap(err, "create incident %s", in.ID)
}

// incidentView is an incident row with its cluster's name. The row is a named, exported field:
// gorm ignores unexported fields, an embedded incidentRow included, and would scan only the name.
type incidentView struct {
	Row         incidentRow `gorm:"embedded"`
	ClusterName *string
}

func (s *Store) incidentQuery(ctx context.Context) *gorm.DB {
	return s.db.WithContext(ctx).Table("incidents").
		Select("incidents.*, clusters.name AS cluster_name").
		Joins("LEFT JOIN clusters ON clusters.id = incidents.cluster_id")
}

// Incident returns one incident, or ErrNotFound.
func (s *Store) Incident(ctx context.Context, id string) (*incident.Incident, error) {
	var v incidentView
	res := s.incidentQuery(ctx).Where("incidents.id = ?", id).Limit(1).Scan(&v)
	if res.Error != nil {
		return nil, wrap(res.Error, "get incident %s", id)
	}
	if res.RowsAffected == 0 {
		return nil, wrap(ErrNotFound, "get incident %s", id)
	}
	out, err := s.withTags(ctx, []incidentView{v})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// IncidentFilter narrows a listing.
type IncidentFilter struct {
	Tag     string
	Symptom string // a symptom kind of its signature (any origin)
	Cause   string // a cause kind of its signature (any origin)
	Query   string // words found in the title, the report's text or a note (all of them, any case)
	Limit   int    // default 100, at most 1000
}

// Incidents lists incidents, newest first.
func (s *Store) Incidents(ctx context.Context, f IncidentFilter) ([]*incident.Incident, error) {
	if f.Limit <= 0 || f.Limit > 1000 {
		f.Limit = 100
	}
	q := s.incidentQuery(ctx).Order("incidents.created_at DESC, incidents.id").Limit(f.Limit)
	if f.Tag != "" {
		q = q.Where("incidents.id IN (SELECT incident_id FROM incident_tags WHERE tag = ?)", f.Tag)
	}
	if f.Symptom != "" {
		q = q.Where("incidents.id IN (SELECT incident_id FROM incident_signatures WHERE facet = 'symptom' AND value = ?)", f.Symptom)
	}
	if f.Cause != "" {
		q = q.Where("incidents.id IN (SELECT incident_id FROM incident_signatures WHERE facet = 'cause' AND value = ?)", f.Cause)
	}
	// Words are matched case-insensitively anywhere in the title, the report or the notes: a
	// plain LIKE, the same on both databases. (Ranked full-text search is for later.)
	for _, w := range strings.Fields(strings.ToLower(f.Query)) {
		like := "%" + escapeLike(w) + "%"
		q = q.Where(`(lower(incidents.title) LIKE ? ESCAPE '\' OR lower(incidents.report) LIKE ? ESCAPE '\'
			OR incidents.id IN (SELECT incident_id FROM notes WHERE lower(body) LIKE ? ESCAPE '\'))`, like, like, like)
	}
	var vs []incidentView
	if err := q.Scan(&vs).Error; err != nil {
		return nil, wrap(err, "list incidents")
	}
	return s.withTags(ctx, vs)
}

// withTags converts rows and loads their tags in one query.
func (s *Store) withTags(ctx context.Context, vs []incidentView) ([]*incident.Incident, error) {
	out := make([]*incident.Incident, len(vs))
	byID := make(map[string]*incident.Incident, len(vs))
	ids := make([]string, len(vs))
	for i, v := range vs {
		r := v.Row
		in := &incident.Incident{ID: r.ID, Title: r.Title, StartedAt: utcPtr(r.StartedAt), EndedAt: utcPtr(r.EndedAt),
			CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(), Tags: []string{}}
		if v.ClusterName != nil {
			in.Cluster = *v.ClusterName
		}
		out[i], byID[r.ID], ids[i] = in, in, r.ID
	}
	if len(ids) == 0 {
		return out, nil
	}
	var tags []incidentTagRow
	if err := s.db.WithContext(ctx).Where("incident_id IN ?", ids).Order("tag").Find(&tags).Error; err != nil {
		return nil, wrap(err, "load tags")
	}
	for _, t := range tags {
		byID[t.IncidentID].Tags = append(byID[t.IncidentID].Tags, t.Tag)
	}
	return out, nil
}

// escapeLike makes a word literal in a LIKE pattern.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(s)
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil || t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

// UpdateIncident replaces an incident's title, time window, cluster and tags with those of in,
// which must be validated; ErrNotFound when it does not exist.
func (s *Store) UpdateIncident(ctx context.Context, in *incident.Incident) error {
	now := time.Now().UTC().Truncate(time.Microsecond)
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var cid *int64
		if in.Cluster != "" {
			id, err := clusterID(ctx, tx, in.Cluster)
			if err != nil {
				return err
			}
			cid = &id
		}
		res := tx.Model(&incidentRow{}).Where("id = ?", in.ID).Updates(map[string]any{
			"title": in.Title, "cluster_id": cid, "started_at": utcPtr(in.StartedAt), "ended_at": utcPtr(in.EndedAt), "updated_at": now,
		})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return ErrNotFound
		}
		if err := tx.Where("incident_id = ?", in.ID).Delete(&incidentTagRow{}).Error; err != nil {
			return err
		}
		for _, t := range in.Tags {
			if err := tx.Create(&incidentTagRow{IncidentID: in.ID, Tag: t}).Error; err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		in.UpdatedAt = now
	}
	return wrap(err, "update incident %s", in.ID)
}
