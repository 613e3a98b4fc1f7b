package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/rootline-dev/rootline/internal/incident"
)

// ErrExists is returned when creating something whose id is taken.
var ErrExists = errors.New("already exists")

// ErrIncidentExists is returned when an upload would create an incident whose id is taken; it
// is an ErrExists too.
var ErrIncidentExists = fmt.Errorf("the incident %w", ErrExists)

type incidentRow struct {
	ID         string
	Title      string
	Org        string
	ReportDate string // YYYY-MM-DD: the day it happened (dating)
	OwnDate    string // YYYY-MM-DD: the date its report gives, "" when none
	ClusterID  *int64
	StartedAt  *time.Time
	EndedAt    *time.Time
	EvidenceAt *time.Time // the first time in its evidence, from the analysis of its snapshots
	OccurredAt *time.Time // when it happened (dating)
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
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error { return s.insertIncident(ctx, tx, in) })
	return wrap(err, "create incident %s", in.ID)
}

// insertIncident stores a new incident inside the caller's transaction, and sets its times
// and date.
func (s *Store) insertIncident(ctx context.Context, tx *gorm.DB, in *incident.Incident) error {
	// PostgreSQL keeps microseconds: truncate, so that the caller gets what is read back later.
	now := time.Now().UTC().Truncate(time.Microsecond)
	in.CreatedAt, in.UpdatedAt = now, now
	row := incidentRow{ID: in.ID, Title: in.Title, StartedAt: utcPtr(in.StartedAt), EndedAt: utcPtr(in.EndedAt), CreatedAt: now, UpdatedAt: now}
	row.ReportDate, row.OccurredAt = dating(row)
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
	in.Date = row.ReportDate
	return s.refreshSearch(tx, in.ID)
}

// dating is when an incident happened, from the best of what it has: the date its report gives,
// else when it started, else the first time in its evidence, else when it was created. It
// returns that day (YYYY-MM-DD), by which the library lists and filters incidents, and that
// moment, which orders the incidents of one day.
func dating(r incidentRow) (day string, at *time.Time) {
	t := r.CreatedAt
	switch {
	case r.StartedAt != nil:
		t = *r.StartedAt
	case r.EvidenceAt != nil:
		t = *r.EvidenceAt
	case r.OwnDate != "":
		if d, err := time.Parse(time.DateOnly, r.OwnDate); err == nil {
			t = d
		}
	}
	t = t.UTC()
	day = t.Format(time.DateOnly)
	if r.OwnDate != "" {
		day = r.OwnDate
	}
	return day, &t
}

// refreshDates sets the day and moment incidents happened (dating) from their rows, inside the
// caller's transaction; all incidents when no id is given.
func refreshDates(tx *gorm.DB, ids ...string) error {
	var rows []incidentRow
	q := tx.Select("id, own_date, started_at, evidence_at, created_at")
	if len(ids) > 0 {
		q = q.Where("id IN ?", ids)
	}
	if err := q.Find(&rows).Error; err != nil {
		return err
	}
	for _, r := range rows {
		day, at := dating(r)
		if err := tx.Model(&incidentRow{}).Where("id = ?", r.ID).UpdateColumns(map[string]any{"report_date": day, "occurred_at": at}).Error; err != nil {
			return err
		}
	}
	return nil
}

// SetEvidenceTime records the first time in an incident's evidence (the analysis of its
// snapshots says it), which dates an incident that has no report date and no start. nil
// forgets it.
func (s *Store) SetEvidenceTime(ctx context.Context, id string, from *time.Time) error {
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&incidentRow{}).Where("id = ?", id).UpdateColumn("evidence_at", utcPtr(from))
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return ErrNotFound
		}
		return refreshDates(tx, id)
	})
	return wrap(err, "evidence time of %s", id)
}

// incidentView is an incident row with its cluster's name. The row is a named, exported field:
// gorm ignores unexported fields, an embedded incidentRow included, and would scan only the name.
type incidentView struct {
	Row         incidentRow `gorm:"embedded"`
	ClusterName *string
	SigRoot     string
}

func incidentQuery(db *gorm.DB) *gorm.DB {
	return db.Table("incidents").
		Select("incidents.id, incidents.title, incidents.org, incidents.report_date, incidents.cluster_id, incidents.started_at, " +
			"incidents.ended_at, incidents.created_at, incidents.updated_at, incidents.sig_root, clusters.name AS cluster_name").
		Joins("LEFT JOIN clusters ON clusters.id = incidents.cluster_id")
}

// Incident returns one incident, or ErrNotFound.
func (s *Store) Incident(ctx context.Context, id string) (*incident.Incident, error) {
	if !incident.ValidID(id) { // no incident has it (and PostgreSQL refuses a NUL in text)
		return nil, wrap(ErrNotFound, "get incident %.64q", id)
	}
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
	Root      string // a root cause kind
	Org       string // the organisation, any case
	From, To  string // YYYY-MM-DD, inclusive: the incident's date (its report's, else when it started or was created)
	Query     string // words of the title, the report's text, a note or the signature: all of them, stemmed; ranks the result
	Limit     int    // default 100, at most 1000
}

// Incidents lists incidents: the best matches first when there is a query (ties by id), else
// by the day they happened, newest first (then the moment, then the id).
func (s *Store) Incidents(ctx context.Context, f IncidentFilter) ([]*incident.Incident, error) {
	var vs []incidentView
	if err := s.listQuery(incidentQuery(s.db.WithContext(ctx)), f).Scan(&vs).Error; err != nil {
		return nil, wrap(err, "list incidents")
	}
	return s.withTags(ctx, vs)
}

// IncidentIDs lists the id of every incident, in id order.
func (s *Store) IncidentIDs(ctx context.Context) ([]string, error) {
	var ids []string
	err := s.db.WithContext(ctx).Model(&incidentRow{}).Order("id").Pluck("id", &ids).Error
	return ids, wrap(err, "list incident ids")
}

// listQuery narrows and orders the incidents query q by the filter. Every condition reads an
// index: the search document, incident_facets' key, incident_tags(tag), lower(org),
// report_date; the order without words reads incidents(report_date DESC, occurred_at DESC, id).
func (s *Store) listQuery(q *gorm.DB, f IncidentFilter) *gorm.DB {
	if f.Limit <= 0 || f.Limit > 1000 {
		f.Limit = 100
	}
	q = q.Limit(f.Limit)
	if words := searchTerms(f.Query); len(words) > 0 {
		alone := f == IncidentFilter{Query: f.Query, Limit: f.Limit}
		q = s.withSearch(q, words, alone, f.Limit)
	} else {
		q = q.Order("incidents.report_date DESC, incidents.occurred_at DESC, incidents.id")
	}
	return filtered(q, f)
}

// filtered narrows q by the filter's conditions other than its words.
func filtered(q *gorm.DB, f IncidentFilter) *gorm.DB {
	if f.Tag != "" {
		q = q.Where("incidents.id IN (SELECT incident_id FROM incident_tags WHERE tag = ?)", f.Tag)
	}
	for _, c := range [...]struct{ facet, value string }{{facetSymptom, f.Symptom}, {facetCause, f.Cause}, {facetComponent, f.Component}, {facetRoot, f.Root}} {
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

// matching is the ids of every incident the filter selects, whatever its limit: a subquery.
func (s *Store) matching(db *gorm.DB, f IncidentFilter) *gorm.DB {
	q := db.Table("incidents").Select("incidents.id")
	if words := searchTerms(f.Query); len(words) > 0 {
		q = s.searchJoin(q, words, "")
	}
	return filtered(q, f)
}

// Counts are what a library search finds in all, beyond the page it lists.
type Counts struct {
	Total  int          // incidents the filter selects
	Causes []CauseCount // of those, how many name each cause (root or contributing), most first
}

// CauseCount is how many incidents of the library name a cause.
type CauseCount struct {
	Cause     string
	Incidents int
}

// LibraryCounts counts the incidents a filter selects (its limit aside), and among them the
// incidents per cause kind of the signatures that speak for them: the cause chips of the
// library page, each of which, added to the filter, selects as many incidents as it says.
func (s *Store) LibraryCounts(ctx context.Context, f IncidentFilter) (Counts, error) {
	db := s.db.WithContext(ctx)
	var out Counts
	all := f == IncidentFilter{Limit: f.Limit}
	var total int64
	q := db.Table("incidents")
	if !all {
		q = db.Table("(?) AS m", s.matching(db, f))
	}
	if err := q.Count(&total).Error; err != nil {
		return out, wrap(err, "count incidents")
	}
	out.Total = int(total)
	causes := db.Table("incident_facets").Select("value AS cause, count(*) AS incidents").Where("facet = ?", facetCause)
	if !all {
		causes = causes.Where("incident_id IN (?)", s.matching(db, f))
	}
	err := causes.Group("value").Order("incidents DESC, cause").Scan(&out.Causes).Error
	return out, wrap(err, "cause counts")
}

// withTags converts rows and loads their tags in one query.
func (s *Store) withTags(ctx context.Context, vs []incidentView) ([]*incident.Incident, error) {
	out := make([]*incident.Incident, len(vs))
	byID := make(map[string]*incident.Incident, len(vs))
	ids := make([]string, len(vs))
	for i, v := range vs {
		r := v.Row
		in := &incident.Incident{ID: r.ID, Title: r.Title, Org: r.Org, Date: r.ReportDate, StartedAt: utcPtr(r.StartedAt), EndedAt: utcPtr(r.EndedAt),
			RootCause: v.SigRoot, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(), Tags: []string{}}
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
		// Its start dates it, and its cluster keys its node pools.
		if err := refreshDates(tx, in.ID); err != nil {
			return err
		}
		if err := refreshFacets(tx, in.ID); err != nil {
			return err
		}
		return s.refreshSearch(tx, in.ID)
	})
	if err == nil {
		in.UpdatedAt = now
	}
	return wrap(err, "update incident %s", in.ID)
}
