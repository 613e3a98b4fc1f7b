package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/rootline-dev/rootline/internal/incident"
)

// Signature facets: the rows of incident_signatures, and of incident_facets with facetRoot.
const (
	facetSymptom   = "symptom"
	facetCause     = "cause"
	facetComponent = "component"
	facetRoot      = "root"
	facetPool      = "pool" // a node pool's key: its role, or its cluster and name
	originReport   = incident.OriginReport
	originAnalysis = incident.OriginAnalysis
	originPerson   = incident.OriginPerson
)

type signatureRow struct {
	IncidentID string
	Facet      string
	Value      string
	Name       string
	Role       string
	Origin     string
	Position   int
}

func (signatureRow) TableName() string { return "incident_signatures" }

// importBatch is how many reports ImportReports writes with one statement per table.
const importBatch = 500

// ImportReports stores reports as ImportReport does, all in one transaction: all of them or,
// on an error, none. Reports of new incidents are written in batches, a statement per table,
// so that large libraries load quickly. progress, when given, is called with the number of
// reports stored so far. It returns, for each report, whether its incident was created.
func (s *Store) ImportReports(ctx context.Context, reports []incident.Report, progress func(done int)) ([]bool, error) {
	created := make([]bool, len(reports))
	now := time.Now().UTC().Truncate(time.Microsecond)
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		seen := map[string]bool{}
		for start := 0; start < len(reports); start += importBatch {
			batch := reports[start:min(start+importBatch, len(reports))]
			ids := make([]string, len(batch))
			for i, r := range batch {
				ids[i] = r.ID
			}
			var existing []string
			if err := tx.Model(&incidentRow{}).Where("id IN ?", ids).Pluck("id", &existing).Error; err != nil {
				return err
			}
			for _, id := range existing {
				seen[id] = true
			}
			var fresh []incident.Report
			var again []int
			for i, r := range batch {
				if seen[r.ID] {
					again = append(again, start+i)
					continue
				}
				seen[r.ID], created[start+i] = true, true
				fresh = append(fresh, r)
			}
			if err := s.insertReports(ctx, tx, fresh, now); err != nil {
				return err
			}
			for _, i := range again {
				if _, err := s.importOne(ctx, tx, reports[i], now); err != nil {
					return fmt.Errorf("report %s: %w", reports[i].ID, err)
				}
			}
			if progress != nil {
				progress(start + len(batch))
			}
		}
		return nil
	})
	return created, wrap(err, "import %d reports", len(reports))
}

// reportRow is an incident as a report creates it: every column ImportReports writes at once.
type reportRow struct {
	ID, Title, Org, ReportDate, OwnDate, Report, ReportExtra string
	ClusterID                                                *int64
	StartedAt, EndedAt, OccurredAt                           *time.Time
	SigOrigin, SigRoot                                       string
	CreatedAt, UpdatedAt                                     time.Time
}

func (reportRow) TableName() string { return "incidents" }

// insertReports writes the reports of new incidents: their rows, tags, signatures, facets,
// notes and search documents, a statement per table.
func (s *Store) insertReports(ctx context.Context, tx *gorm.DB, reports []incident.Report, now time.Time) error {
	if len(reports) == 0 {
		return nil
	}
	var (
		incs  []reportRow
		tags  []incidentTagRow
		sigs  []signatureRow
		facts []facetRow
		notes []noteRow
		docs  []searchDoc
	)
	clusters := map[string]int64{}
	for _, r := range reports {
		if _, ok := clusters[r.Cluster]; !ok && r.Cluster != "" {
			id, err := clusterID(ctx, tx, r.Cluster)
			if err != nil {
				return err
			}
			clusters[r.Cluster] = id
		}
	}
	for _, r := range reports {
		rows := signatureRows(r.ID, originReport, incident.SignatureOf(r))
		if r.Edited != nil {
			rows = append(rows, signatureRows(r.ID, originPerson, *r.Edited)...)
		}
		f, shape := facetsOf(r.ID, r.Cluster, signaturesOf(rows))
		inc := reportRow{ID: r.ID, Title: r.Title, Org: r.Org, OwnDate: r.Date, Report: r.Body, ReportExtra: extraJSON(r),
			StartedAt: utcPtr(r.StartedAt), EndedAt: utcPtr(r.EndedAt), SigOrigin: shape.Origin, SigRoot: shape.Root, CreatedAt: now, UpdatedAt: now}
		if id, ok := clusters[r.Cluster]; ok {
			inc.ClusterID = &id
		}
		inc.ReportDate, inc.OccurredAt = dating(incidentRow{OwnDate: inc.OwnDate, StartedAt: inc.StartedAt, CreatedAt: now})
		incs = append(incs, inc)
		for _, t := range r.Tags {
			tags = append(tags, incidentTagRow{IncidentID: r.ID, Tag: t})
		}
		doc := searchDoc{ID: r.ID, Title: r.Title, Report: r.Body, Terms: termsOf(rows, shape.Origin)}
		for _, n := range r.Notes {
			notes = append(notes, newNoteRow(n.NoteOf(r.ID), now))
			doc.Notes = joinText(doc.Notes, n.Body)
		}
		sigs, facts, docs = append(sigs, rows...), append(facts, f...), append(docs, doc)
	}
	for _, rows := range []any{&incs, &tags, &sigs, &facts} {
		if err := tx.CreateInBatches(rows, 1000).Error; err != nil {
			return err
		}
	}
	if len(notes) > 0 {
		if err := tx.CreateInBatches(&notes, 1000).Error; err != nil {
			return err
		}
	}
	// The documents are made of what is at hand, as refreshSearch reads them back.
	return s.writeDocs(tx, docs)
}

func extraJSON(r incident.Report) string {
	if r.Extra == nil {
		return "{}"
	}
	extra, _ := json.Marshal(r.Extra)
	return string(extra)
}

// importOne stores one report inside the caller's transaction.
func (s *Store) importOne(ctx context.Context, tx *gorm.DB, r incident.Report, now time.Time) (created bool, err error) {
	fields := map[string]any{"title": r.Title, "org": r.Org, "own_date": r.Date, "report": r.Body, "report_extra": extraJSON(r), "updated_at": now}
	if r.StartedAt != nil {
		fields["started_at"], fields["ended_at"] = utcPtr(r.StartedAt), utcPtr(r.EndedAt)
	}
	if r.Cluster != "" {
		id, err := clusterID(ctx, tx, r.Cluster)
		if err != nil {
			return false, err
		}
		fields["cluster_id"] = id
	}
	res := tx.Model(&incidentRow{}).Where("id = ?", r.ID).Updates(fields)
	if res.Error != nil {
		return false, res.Error
	}
	if res.RowsAffected == 0 {
		created = true
		if err := tx.Create(&incidentRow{ID: r.ID, Title: r.Title, CreatedAt: now, UpdatedAt: now}).Error; err != nil {
			return created, err
		}
		if err := tx.Model(&incidentRow{}).Where("id = ?", r.ID).Updates(fields).Error; err != nil {
			return created, err
		}
	}
	if err := refreshDates(tx, r.ID); err != nil {
		return created, err
	}
	if err := tx.Where("incident_id = ?", r.ID).Delete(&incidentTagRow{}).Error; err != nil {
		return created, err
	}
	for _, t := range r.Tags {
		if err := tx.Create(&incidentTagRow{IncidentID: r.ID, Tag: t}).Error; err != nil {
			return created, err
		}
	}
	if err := addNotes(tx, r, now); err != nil {
		return created, err
	}
	if r.Edited != nil {
		if err := replaceSignature(tx, r.ID, originPerson, *r.Edited); err != nil {
			return created, err
		}
	}
	if err := replaceSignature(tx, r.ID, originReport, incident.SignatureOf(r)); err != nil {
		return created, err
	}
	if err := refreshFacets(tx, r.ID); err != nil { // once, over both
		return created, err
	}
	return created, s.refreshSearch(tx, r.ID) // after the facets, whose words it holds
}

// addNotes adds the notes of a report that its incident does not have yet: a note it has (the
// same time, author, kind and text) counts once for each time the report holds it.
func addNotes(tx *gorm.DB, r incident.Report, now time.Time) error {
	if len(r.Notes) == 0 {
		return nil
	}
	var have []noteRow
	if err := tx.Where("incident_id = ?", r.ID).Find(&have).Error; err != nil {
		return err
	}
	count := map[string]int{}
	for _, h := range have {
		count[incident.ReportNoteOf(h.note()).Key()]++
	}
	var add []noteRow
	for _, n := range r.Notes {
		if k := n.Key(); count[k] > 0 {
			count[k]--
			continue
		}
		add = append(add, newNoteRow(n.NoteOf(r.ID), now))
	}
	if len(add) == 0 {
		return nil
	}
	if err := noteRoom(r.ID, len(have), len(add)); err != nil {
		return err
	}
	return tx.CreateInBatches(add, importBatch).Error
}

func signatureRows(id, origin string, sig incident.Signature) []signatureRow {
	var rows []signatureRow
	add := func(facet, value, name, role string) {
		rows = append(rows, signatureRow{IncidentID: id, Facet: facet, Value: value, Name: name, Role: role, Origin: origin, Position: len(rows)})
	}
	for _, v := range sig.Symptoms {
		add(facetSymptom, v, "", "")
	}
	for _, v := range sig.Causes {
		role := "contributing"
		if v == sig.RootCause {
			role = "root"
		}
		add(facetCause, v, "", role)
	}
	for _, c := range sig.Components {
		add(facetComponent, c.Kind, c.Name, "")
	}
	return rows
}

// fold adds one signature row to a signature: the inverse of signatureRows.
func fold(sig *incident.Signature, g signatureRow) {
	switch g.Facet {
	case facetSymptom:
		sig.Symptoms = append(sig.Symptoms, g.Value)
	case facetCause:
		sig.Causes = append(sig.Causes, g.Value)
		if g.Role == "root" {
			sig.RootCause = g.Value
		}
	case facetComponent:
		sig.Components = append(sig.Components, incident.Component{Kind: g.Value, Name: g.Name})
	}
}

// SetAnalysisSignature replaces the signature the analysis of an incident's snapshots gives.
func (s *Store) SetAnalysisSignature(ctx context.Context, id string, sig incident.Signature) error {
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return s.writeSignature(tx, id, originAnalysis, sig)
	})
	return wrap(err, "analysis signature of %s", id)
}

// MergeAnalysisSignature adds to the signature the analysis of an incident's snapshots gave
// what the analysis of part of its evidence (an upload's own objects) gives
// (incident.Signature.Merge), and moves the first time of its evidence to from when from is
// earlier: one transaction, the incident's row locked, so that merges and replacements take
// turns. ErrNotFound when the incident does not exist.
func (s *Store) MergeAnalysisSignature(ctx context.Context, id string, sig incident.Signature, from *time.Time) error {
	if !incident.ValidID(id) { // no incident has it (and PostgreSQL refuses a NUL in text)
		return fmt.Errorf("analysis signature of %.64q: %w", id, ErrNotFound)
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var rows []incidentRow
		if err := tx.Clauses(clause.Locking{Strength: clause.LockingStrengthUpdate}).Select("id, evidence_at").
			Where("id = ?", id).Find(&rows).Error; err != nil {
			return err
		}
		if len(rows) == 0 {
			return ErrNotFound
		}
		var sigRows []signatureRow
		if err := tx.Where("incident_id = ? AND origin = ?", id, originAnalysis).Order("position").Find(&sigRows).Error; err != nil {
			return err
		}
		before := signaturesOf(sigRows).ByOrigin[originAnalysis]
		if merged := before.Merge(sig); !merged.Equal(before) {
			if err := s.writeSignature(tx, id, originAnalysis, merged); err != nil {
				return err
			}
		}
		if from = utcPtr(from); from == nil || rows[0].EvidenceAt != nil && !from.Before(*rows[0].EvidenceAt) {
			return nil
		}
		if err := tx.Model(&incidentRow{}).Where("id = ?", id).UpdateColumn("evidence_at", from).Error; err != nil {
			return err
		}
		return refreshDates(tx, id)
	})
	return wrap(err, "analysis signature of %s", id)
}

// Report returns an incident as a report of the library: its fields (its date is the day it
// happened), time window, cluster and tags, its text and kept unknown fields, the signature
// its report gave and a person's, and its notes. ErrNotFound when it does not exist.
func (s *Store) Report(ctx context.Context, id string) (incident.Report, error) {
	in, err := s.Incident(ctx, id)
	if err != nil {
		return incident.Report{}, err
	}
	var row struct {
		Report      string
		ReportExtra string
	}
	if err := s.db.WithContext(ctx).Model(&incidentRow{}).Select("report, report_extra").Where("id = ?", id).Scan(&row).Error; err != nil {
		return incident.Report{}, wrap(err, "report %s", id)
	}
	r := incident.Report{ID: in.ID, Title: in.Title, Org: in.Org, Date: in.Date, StartedAt: in.StartedAt, EndedAt: in.EndedAt,
		Cluster: in.Cluster, Body: row.Report}
	if len(in.Tags) > 0 {
		r.Tags = in.Tags
	}
	if row.ReportExtra != "" && row.ReportExtra != "{}" && row.ReportExtra != "null" {
		if err := json.Unmarshal([]byte(row.ReportExtra), &r.Extra); err != nil {
			return r, wrap(err, "report %s: extra fields", id)
		}
	}
	sigs, err := s.Signatures(ctx, id)
	if err != nil {
		return r, err
	}
	folded := sigs.ByOrigin[originReport]
	r.Symptoms, r.Causes, r.RootCause, r.Components = folded.Symptoms, folded.Causes, folded.RootCause, folded.Components
	if p, ok := sigs.ByOrigin[originPerson]; ok {
		r.Edited = &p
	}
	notes, err := s.Notes(ctx, id)
	if err != nil {
		return r, err
	}
	for _, n := range notes {
		r.Notes = append(r.Notes, incident.ReportNoteOf(n))
	}
	return r, nil
}
