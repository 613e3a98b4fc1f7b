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
	ID         string
	Title      string
	Org        string
	ReportDate string // YYYY-MM-DD: the report's date, else the day it started or was created
	ClusterID  *int64
	StartedAt  *time.Time
	EndedAt    *time.Time
	CreatedAt  time.Time
	UpdatedAt  time.Time
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
	day := now
	if in.StartedAt != nil && !in.StartedAt.IsZero() {
		day = in.StartedAt.UTC()
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		row := incidentRow{ID: in.ID, Title: in.Title, ReportDate: day.Format(time.DateOnly), StartedAt: utcPtr(in.StartedAt), EndedAt: utcPtr(in.EndedAt), CreatedAt: now, UpdatedAt: now}
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
		return s.refreshSearch(tx, in.ID)
	})
	if err == nil {
		in.Date = day.Format(time.DateOnly)
	}
	return wrap(err, "create incident %s", in.ID)
}

// incidentView is an incident row with its cluster's name. The row is a named, exported field:
// gorm ignores unexported fields, an embedded incidentRow included, and would scan only the name.
type incidentView struct {
	Row         incidentRow `gorm:"embedded"`
	ClusterName *string
}

func incidentQuery(db *gorm.DB) *gorm.DB {
	return db.Table("incidents").
		Select("incidents.id, incidents.title, incidents.org, incidents.report_date, incidents.cluster_id, incidents.started_at, " +
			"incidents.ended_at, incidents.created_at, incidents.updated_at, clusters.name AS cluster_name").
		Joins("LEFT JOIN clusters ON clusters.id = incidents.cluster_id")
}

// Incident returns one incident, or ErrNotFound.
func (s *Store) Incident(ctx context.Context, id string) (*incident.Incident, error) {
	var v incidentView
	res := incidentQuery(s.db.WithContext(ctx)).Where("incidents.id = ?", id).Limit(1).Scan(&v)
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

// IncidentFilter narrows a listing. Symptom, cause and component filters read the signature
// that speaks for an incident (a person's, else the report's, else the analysis').
type IncidentFilter struct {
	Tag       string
	Symptom   string // a symptom kind
	Cause     string // a cause kind, root or contributing
	Component string // a component kind: NodePool, Prometheus, …
	Org       string // the organisation, any case
	From, To  string // YYYY-MM-DD, inclusive: the incident's date (its report's, else when it started or was created)
	Query     string // words of the title, the report's text or a note: all of them, stemmed; ranks the result
	Limit     int    // default 100, at most 1000
}

// Incidents lists incidents: the best matches first when there is a query (ties by id), else
// newest first.
func (s *Store) Incidents(ctx context.Context, f IncidentFilter) ([]*incident.Incident, error) {
	var vs []incidentView
	if err := s.listQuery(incidentQuery(s.db.WithContext(ctx)), f).Scan(&vs).Error; err != nil {
		return nil, wrap(err, "list incidents")
	}
	return s.withTags(ctx, vs)
}

// listQuery narrows and orders the incidents query q by the filter. Every condition reads an
// index: the search document, incident_facets' key, incident_tags(tag), lower(org),
// report_date; the order without words reads incidents(created_at DESC, id).
func (s *Store) listQuery(q *gorm.DB, f IncidentFilter) *gorm.DB {
	if f.Limit <= 0 || f.Limit > 1000 {
		f.Limit = 100
	}
	q = q.Limit(f.Limit)
	if words := searchWords(f.Query); len(words) > 0 {
		alone := f == IncidentFilter{Query: f.Query, Limit: f.Limit}
		q = s.withSearch(q, words, alone, f.Limit)
	} else {
		q = q.Order("incidents.created_at DESC, incidents.id")
	}
	if f.Tag != "" {
		q = q.Where("incidents.id IN (SELECT incident_id FROM incident_tags WHERE tag = ?)", f.Tag)
	}
	for _, c := range [...]struct{ facet, value string }{{facetSymptom, f.Symptom}, {facetCause, f.Cause}, {facetComponent, f.Component}} {
		if c.value != "" {
			q = q.Where("incidents.id IN (SELECT incident_id FROM incident_facets WHERE facet = ? AND value = ?)", c.facet, c.value)
		}
	}
	if f.Org != "" {
		q = q.Where("lower(incidents.org) = ?", strings.ToLower(f.Org))
	}
	if f.From != "" {
		q = q.Where("incidents.report_date >= ?", f.From)
	}
	if f.To != "" {
		q = q.Where("incidents.report_date <= ? AND incidents.report_date <> ''", f.To)
	}
	return q
}

// withTags converts rows and loads their tags in one query.
func (s *Store) withTags(ctx context.Context, vs []incidentView) ([]*incident.Incident, error) {
	out := make([]*incident.Incident, len(vs))
	byID := make(map[string]*incident.Incident, len(vs))
	ids := make([]string, len(vs))
	for i, v := range vs {
		r := v.Row
		in := &incident.Incident{ID: r.ID, Title: r.Title, Org: r.Org, Date: r.ReportDate, StartedAt: utcPtr(r.StartedAt), EndedAt: utcPtr(r.EndedAt),
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
		fields := map[string]any{"title": in.Title, "cluster_id": cid, "started_at": utcPtr(in.StartedAt), "ended_at": utcPtr(in.EndedAt), "updated_at": now}
		if in.StartedAt != nil && !in.StartedAt.IsZero() {
			// An incident without a report is dated by its start; a report keeps its own date.
			fields["report_date"] = gorm.Expr("CASE WHEN report = '' THEN ? ELSE report_date END", in.StartedAt.UTC().Format(time.DateOnly))
		}
		res := tx.Model(&incidentRow{}).Where("id = ?", in.ID).Updates(fields)
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
		return s.refreshSearch(tx, in.ID)
	})
	if err == nil {
		in.UpdatedAt = now
	}
	return wrap(err, "update incident %s", in.ID)
}
