package store

import (
	"context"
	"sort"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/rootline-dev/rootline/internal/incident"
)

// facetRow is one distinct value of the signature that speaks for an incident: derived from
// incident_signatures by refreshFacets, and what related-incident lookup and the filters read.
// Every row of an incident carries its root cause and its whole signature as bit sets.
type facetRow struct {
	Facet      string
	Value      string
	IncidentID string
	Root       string
	Bits       sigBits `gorm:"embedded"` // named: gorm skips unexported embedded structs
}

func (facetRow) TableName() string { return "incident_facets" }

// writeSignature replaces an incident's signature of one origin, then the facets derived from
// its signatures and its search document (which holds the words of its signature). It runs
// inside the caller's transaction.
func (s *Store) writeSignature(tx *gorm.DB, id, origin string, sig incident.Signature) error {
	if err := replaceSignature(tx, id, origin, sig); err != nil {
		return err
	}
	if err := refreshFacets(tx, id); err != nil {
		return err
	}
	return s.refreshSearch(tx, id)
}

// replaceSignature replaces an incident's signature of one origin, leaving the facets to the
// caller.
func replaceSignature(tx *gorm.DB, id, origin string, sig incident.Signature) error {
	// The incident's row is locked first, so that two writers of its signature (two uploads at
	// once) take turns: otherwise both delete the old rows under PostgreSQL's read committed,
	// and the second insert meets the first's keys. (SQLite has one writer anyway and ignores
	// the clause.)
	var locked []string
	if err := tx.Model(&incidentRow{}).Clauses(clause.Locking{Strength: clause.LockingStrengthUpdate}).
		Where("id = ?", id).Pluck("id", &locked).Error; err != nil {
		return err
	}
	if err := tx.Where("incident_id = ? AND origin = ?", id, origin).Delete(&signatureRow{}).Error; err != nil {
		return err
	}
	if rows := signatureRows(id, origin, sig); len(rows) > 0 {
		return tx.Create(&rows).Error
	}
	return nil
}

// refreshFacets rewrites the facets of an incident, and the origin and root cause its row
// keeps, from its signature rows: the person's if any, else the report's, else the analysis'.
// Its node pools are keyed with its cluster (incident.ComponentKeys).
func refreshFacets(tx *gorm.DB, id string) error {
	var rows []signatureRow
	if err := tx.Where("incident_id = ?", id).Order("position").Find(&rows).Error; err != nil {
		return err
	}
	clusters, err := clusterNames(tx, id)
	if err != nil {
		return err
	}
	list, shape := facetsOf(id, clusters[id], signaturesOf(rows))
	if err := tx.Where("incident_id = ?", id).Delete(&facetRow{}).Error; err != nil {
		return err
	}
	if len(list) > 0 {
		if err := tx.Create(&list).Error; err != nil {
			return err
		}
	}
	// UpdateColumns: the incident itself did not change, so its updated_at stays.
	return tx.Model(&incidentRow{}).Where("id = ?", id).UpdateColumns(shape.fields()).Error
}

// clusterNames are the names of the clusters of incidents (all of them when no id is given),
// by incident; an incident without a cluster has none.
func clusterNames(tx *gorm.DB, ids ...string) (map[string]string, error) {
	var rows []struct{ ID, Name string }
	q := tx.Table("incidents").Select("incidents.id, clusters.name").Joins("JOIN clusters ON clusters.id = incidents.cluster_id")
	if len(ids) > 0 {
		q = q.Where("incidents.id IN ?", ids)
	}
	if err := q.Scan(&rows).Error; err != nil {
		return nil, err
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.ID] = r.Name
	}
	return out, nil
}

// sigShape is what an incident's row keeps of the signature that speaks for it.
type sigShape struct {
	Origin, Root string
}

func (h sigShape) fields() map[string]any {
	return map[string]any{"sig_origin": h.Origin, "sig_root": h.Root}
}

// facetsOf derives an incident's facets, sorted, and the shape of its effective signature.
// Besides the values of its signature, a node pool gives a facet 'pool' of its key, and the
// component bit set holds the component keys (incident.ComponentKeys): what related-incident
// lookup compares.
func facetsOf(id, clusterName string, sigs incident.Signatures) ([]facetRow, sigShape) {
	eff := sigs.Effective
	set := sigBits{
		SymptomBits:   bitSet(eff.Symptoms, symptomBit, false),
		CauseBits:     bitSet(eff.Causes, causeBit, false),
		ComponentBits: bitSet(incident.ComponentKeys(eff.Components, clusterName), componentBit, true),
	}
	seen := map[[2]string]bool{}
	var list []facetRow
	add := func(facet, value string) {
		if k := [2]string{facet, value}; !seen[k] {
			seen[k] = true
			list = append(list, facetRow{Facet: facet, Value: value, IncidentID: id, Root: eff.RootCause, Bits: set})
		}
	}
	for _, v := range eff.Symptoms {
		add(facetSymptom, v)
	}
	for _, v := range eff.Causes {
		add(facetCause, v)
	}
	if eff.RootCause != "" {
		add(facetRoot, eff.RootCause)
	}
	for _, c := range eff.Components {
		add(facetComponent, c.Kind)
		if c.Kind == incident.NodePool {
			if k := incident.PoolKey(c.Name, clusterName); k != "" {
				add(facetPool, k)
			}
		}
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].Facet != list[j].Facet {
			return list[i].Facet < list[j].Facet
		}
		return list[i].Value < list[j].Value
	})
	return list, sigShape{Origin: sigs.Origin, Root: eff.RootCause}
}

// signaturesOf folds signature rows (in position order) into signatures by origin.
func signaturesOf(rows []signatureRow) incident.Signatures {
	out := incident.Signatures{ByOrigin: map[string]incident.Signature{}}
	for _, g := range rows {
		sig := out.ByOrigin[g.Origin]
		fold(&sig, g)
		out.ByOrigin[g.Origin] = sig
	}
	out.Choose()
	return out
}

// Signatures returns an incident's signatures by origin and the one that speaks for it;
// ErrNotFound when the incident does not exist.
func (s *Store) Signatures(ctx context.Context, id string) (incident.Signatures, error) {
	if err := incidentExists(ctx, s.db, id); err != nil {
		return incident.Signatures{}, wrap(err, "signatures of %s", id)
	}
	var rows []signatureRow
	if err := s.db.WithContext(ctx).Where("incident_id = ?", id).Order("origin, position").Find(&rows).Error; err != nil {
		return incident.Signatures{}, wrap(err, "signatures of %s", id)
	}
	return signaturesOf(rows), nil
}

// SetPersonSignature stores the signature a person set for an incident, which wins over the
// report's and the analysis'. nil removes it, so that the others speak again. The signature
// must be checked (incident.Signature.Check). ErrNotFound when the incident does not exist.
func (s *Store) SetPersonSignature(ctx context.Context, id string, sig *incident.Signature) error {
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := incidentExists(ctx, tx, id); err != nil {
			return err
		}
		var g incident.Signature
		if sig != nil {
			g = *sig
		}
		return s.writeSignature(tx, id, originPerson, g)
	})
	return wrap(err, "signature of %s", id)
}

// rebuildFacets derives the facets of every incident from its signature rows, as refreshFacets
// does for one: after the migrations that made incident_facets and that keyed node pools.
func rebuildFacets(tx *gorm.DB) error {
	var rows []signatureRow
	if err := tx.Order("incident_id, origin, position").Find(&rows).Error; err != nil {
		return err
	}
	clusters, err := clusterNames(tx)
	if err != nil {
		return err
	}
	if err := tx.Exec("DELETE FROM incident_facets").Error; err != nil {
		return err
	}
	var all []facetRow
	for start := 0; start < len(rows); {
		end := start
		for end < len(rows) && rows[end].IncidentID == rows[start].IncidentID {
			end++
		}
		id := rows[start].IncidentID
		list, shape := facetsOf(id, clusters[id], signaturesOf(rows[start:end]))
		all = append(all, list...)
		if err := tx.Model(&incidentRow{}).Where("id = ?", id).UpdateColumns(shape.fields()).Error; err != nil {
			return err
		}
		start = end
	}
	if len(all) == 0 {
		return nil
	}
	return tx.CreateInBatches(&all, 1000).Error
}
