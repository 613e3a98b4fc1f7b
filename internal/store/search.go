package store

import (
	"fmt"
	"strings"
	"unicode"

	"gorm.io/gorm"
)

// pgSearchDoc is an incident's search document on PostgreSQL: the title weighs most (A), then
// the report (B), then the notes (C).
const pgSearchDoc = `setweight(to_tsvector('english', title), 'A') ||
	setweight(to_tsvector('english', report), 'B') ||
	setweight(to_tsvector('english', coalesce((SELECT string_agg(body, ' ' ORDER BY id) FROM notes WHERE notes.incident_id = incidents.id), '')), 'C')`

// refreshSearch rewrites incidents' search documents from their titles, reports and notes,
// inside the caller's transaction.
func (s *Store) refreshSearch(tx *gorm.DB, ids ...string) error {
	if s.dialect == Postgres {
		return tx.Exec(`INSERT INTO incident_search (incident_id, doc) SELECT id, `+pgSearchDoc+` FROM incidents WHERE id IN ?
			ON CONFLICT (incident_id) DO UPDATE SET doc = excluded.doc`, ids).Error
	}
	// SQLite: incident_search_docs gives each incident its rowid of the FTS5 index.
	if err := tx.Exec("INSERT INTO incident_search_docs (incident_id) SELECT id FROM incidents WHERE id IN ? ON CONFLICT DO NOTHING", ids).Error; err != nil {
		return err
	}
	if err := tx.Exec("DELETE FROM incident_search WHERE rowid IN (SELECT docid FROM incident_search_docs WHERE incident_id IN ?)", ids).Error; err != nil {
		return err
	}
	return tx.Exec(`INSERT INTO incident_search (rowid, incident_id, title, report, notes)
		SELECT d.docid, i.id, i.title, i.report, coalesce((SELECT group_concat(body, ' ') FROM notes WHERE notes.incident_id = i.id), '')
		FROM incidents i JOIN incident_search_docs d ON d.incident_id = i.id WHERE i.id IN ?`, ids).Error
}

// searchWords cuts a query into the words full-text search looks for: runs of letters and
// digits, lower case. Everything else separates words, so nothing a person types reaches the
// query syntax of either database.
func searchWords(q string) []string {
	return strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// withSearch narrows a listing to the incidents whose title, report or notes hold every word
// (stemmed: "evicting" finds "evicted"), ranked best first, ties by id: ts_rank over the
// weighted document on PostgreSQL, bm25 over the FTS5 columns on SQLite. The rank comes from a
// joined subquery, not an ORDER BY expression: gorm drops an expression ordering when another
// is added. When the words are the only condition (alone), the subquery keeps just the best
// limit, so that only those are joined to their incidents.
func (s *Store) withSearch(q *gorm.DB, words []string, alone bool, limit int) *gorm.DB {
	top := ""
	if alone {
		order := "rank" // bm25: lower is better
		if s.dialect == Postgres {
			order = "rank DESC" // ts_rank: higher is better
		}
		top = fmt.Sprintf(" ORDER BY %s, rid LIMIT %d", order, limit)
	}
	if s.dialect == Postgres {
		return q.Joins(`JOIN (SELECT incident_id AS rid, ts_rank(doc, query) AS rank
			FROM incident_search, plainto_tsquery('english', ?) AS query WHERE doc @@ query`+top+`) AS found ON found.rid = incidents.id`,
			strings.Join(words, " ")).Order("found.rank DESC, incidents.id")
	}
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = `"` + w + `"` // letters and digits only: nothing to escape
	}
	// bm25 is lower for better matches; the columns weigh 0 (the id), 10 (title), 4 (report), 1 (notes).
	return q.Joins(`JOIN (SELECT incident_id AS rid, bm25(incident_search, 0.0, 10.0, 4.0, 1.0) AS rank
		FROM incident_search WHERE incident_search MATCH ?`+top+`) AS found ON found.rid = incidents.id`,
		strings.Join(quoted, " ")).Order("found.rank, incidents.id")
}
