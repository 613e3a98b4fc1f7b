package store

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"gorm.io/gorm"

	"github.com/rootline-dev/rootline/internal/incident"
)

// An incident's search document has four parts, weighed in this order: its title, its
// report's text, its notes, and the words of the signature that speaks for it (its symptoms,
// causes and components). Each part also holds a made-up word for each concept it names
// (concepts), so that a cause is found however it is written.

// concepts are the well-known causes and states that people and Kubernetes write in several
// ways: "OOMKilled", "OOM killed", "oom-killed", "oom", "out of memory" are one, and so are
// "NotReady", "not ready" and "node_not_ready". Each has a word of its own, which refreshSearch
// adds to a document for every way of writing it, and searchTerms puts in a query in its place.
// The expressions read text whose '_' and '-' are spaces (normalized).
var concepts = []struct {
	word string
	re   *regexp.Regexp
}{
	{"rlxoomkill", regexp.MustCompile(`\b(?:oom\s*kill(?:ed|ing|s|er)?|oom|out\s+of\s+memory)\b`)},
	{"rlxnotready", regexp.MustCompile(`\bnot\s*ready\b`)},
	{"rlxcrashloop", regexp.MustCompile(`\bcrash\s*loop(?:\s*back\s*off)?\b`)},
	{"rlximagepull", regexp.MustCompile(`\b(?:err\s*)?image\s*pull(?:\s*back\s*off)?\b`)},
	{"rlxdiskpressure", regexp.MustCompile(`\bdisk\s*pressure\b`)},
	{"rlxmemorypressure", regexp.MustCompile(`\bmemory\s*pressure\b`)},
}

// normalized is text as the concepts read it: lower case, '_' and '-' as spaces. It keeps the
// byte offsets of ASCII text, and of any text whose lower case has as many bytes.
func normalized(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return ' '
		}
		return unicode.ToLower(r)
	}, s)
}

// withConcepts is text followed by the words of the concepts it names.
func withConcepts(text string) string {
	n := normalized(text)
	var words []string
	for _, c := range concepts {
		if c.re.MatchString(n) {
			words = append(words, c.word)
		}
	}
	if len(words) == 0 {
		return text
	}
	return text + "\n" + strings.Join(words, " ")
}

// Bounds of a search by words. Each distinct word is a term each database matches and ranks
// against every document it finds, and SearchMatches marks in each part of them: a query of
// thousands of words (issue 15: 400 repeats of one word took 6 s on SQLite, 5,000 took
// 2.5 GB) costs thousands of times one word. People search by a few words; the API refuses
// more (CheckQuery), and the store searches only the first MaxQueryTerms distinct words of
// the first MaxQueryBytes of any query it is given.
const (
	MaxQueryBytes = 512
	MaxQueryTerms = 32
)

// CheckQuery refuses a search query beyond the bounds the store searches: longer than
// MaxQueryBytes, or of more than MaxQueryTerms distinct words (a word repeated counts once).
func CheckQuery(q string) error {
	if len(q) > MaxQueryBytes {
		return fmt.Errorf("q is longer than %d bytes", MaxQueryBytes)
	}
	if n := len(distinctTerms(q)); n > MaxQueryTerms {
		return fmt.Errorf("q has %d different words: a search takes at most %d", n, MaxQueryTerms)
	}
	return nil
}

// searchTerms cuts a query into the words full-text search looks for: each concept it names
// as the concept's word, and the other runs of letters and digits, lower case, each once.
// Everything else separates words, so nothing a person types reaches the query syntax of
// either database. It reads at most MaxQueryBytes of the query and keeps at most
// MaxQueryTerms words.
func searchTerms(q string) []string {
	if len(q) > MaxQueryBytes {
		cut := MaxQueryBytes
		for cut > 0 && !utf8.RuneStart(q[cut]) {
			cut--
		}
		q = q[:cut]
	}
	words := distinctTerms(q)
	return words[:min(len(words), MaxQueryTerms)]
}

// distinctTerms is every term of a query (see searchTerms), each once, in their order.
func distinctTerms(q string) []string {
	n := normalized(q)
	var words []string
	for _, c := range concepts {
		if c.re.MatchString(n) {
			words = append(words, c.word)
			n = c.re.ReplaceAllString(n, " ")
		}
	}
	seen := map[string]bool{}
	for _, w := range words {
		seen[w] = true
	}
	for _, w := range strings.FieldsFunc(n, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	return words
}

// searchDoc is the text of an incident's search document, by part.
type searchDoc struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Report string `json:"report"`
	Notes  string `json:"notes"`
	Terms  string `json:"terms"`
}

// refreshSearch rewrites incidents' search documents from their titles, reports, notes and
// signatures, inside the caller's transaction.
func (s *Store) refreshSearch(tx *gorm.DB, ids ...string) error {
	for start := 0; start < len(ids); start += importBatch {
		docs, err := searchDocs(tx, ids[start:min(start+importBatch, len(ids))])
		if err != nil {
			return err
		}
		if err := s.writeDocs(tx, docs); err != nil {
			return err
		}
	}
	return nil
}

// writeDocs writes search documents, with the words of the concepts they name. The documents
// go to the database as one JSON parameter, so that a batch is one statement on either
// database.
func (s *Store) writeDocs(tx *gorm.DB, docs []searchDoc) error {
	if len(docs) == 0 {
		return nil
	}
	ids := make([]string, len(docs))
	with := make([]searchDoc, len(docs))
	for i, d := range docs {
		ids[i] = d.ID
		with[i] = searchDoc{ID: d.ID, Title: withConcepts(d.Title), Report: withConcepts(d.Report), Notes: withConcepts(d.Notes), Terms: withConcepts(d.Terms)}
	}
	js, err := json.Marshal(with)
	if err != nil {
		return err
	}
	return s.writeSearch(tx, ids, string(js))
}

func (s *Store) writeSearch(tx *gorm.DB, ids []string, docs string) error {
	if s.dialect == Postgres {
		return tx.Exec(`INSERT INTO incident_search (incident_id, doc)
			SELECT d.id, setweight(to_tsvector('english', d.title), 'A') || setweight(to_tsvector('english', d.report), 'B') ||
				setweight(to_tsvector('english', d.notes), 'C') || setweight(to_tsvector('english', d.terms), 'D')
			FROM json_to_recordset(?::json) AS d(id text, title text, report text, notes text, terms text)
			ON CONFLICT (incident_id) DO UPDATE SET doc = excluded.doc`, docs).Error
	}
	// SQLite: incident_search_docs gives each incident its rowid of the FTS5 index.
	if err := tx.Exec("INSERT INTO incident_search_docs (incident_id) SELECT id FROM incidents WHERE id IN ? ON CONFLICT DO NOTHING", ids).Error; err != nil {
		return err
	}
	if err := tx.Exec("DELETE FROM incident_search WHERE rowid IN (SELECT docid FROM incident_search_docs WHERE incident_id IN ?)", ids).Error; err != nil {
		return err
	}
	return tx.Exec(`INSERT INTO incident_search (rowid, incident_id, title, report, notes, terms)
		SELECT d.docid, json_extract(j.value, '$.id'), json_extract(j.value, '$.title'), json_extract(j.value, '$.report'),
			json_extract(j.value, '$.notes'), json_extract(j.value, '$.terms')
		FROM json_each(?) AS j JOIN incident_search_docs d ON d.incident_id = json_extract(j.value, '$.id')`, docs).Error
}

// searchDocs reads the parts of incidents' documents as they are stored, without concepts.
func searchDocs(tx *gorm.DB, ids []string) ([]searchDoc, error) {
	var docs []searchDoc
	if err := tx.Table("incidents").Select("id, title, report").Where("id IN ?", ids).Order("id").Scan(&docs).Error; err != nil {
		return nil, err
	}
	var notes []noteRow
	if err := tx.Select("incident_id, body").Where("incident_id IN ?", ids).Order("incident_id, id").Find(&notes).Error; err != nil {
		return nil, err
	}
	var sig []signatureRow
	if err := tx.Table("incident_signatures AS s").Select("s.*").
		Joins("JOIN incidents i ON i.id = s.incident_id AND s.origin = i.sig_origin").
		Where("s.incident_id IN ?", ids).Order("s.incident_id, s.position").Scan(&sig).Error; err != nil {
		return nil, err
	}
	byID := make(map[string]*searchDoc, len(docs))
	for i := range docs {
		byID[docs[i].ID] = &docs[i]
	}
	for _, n := range notes {
		if d := byID[n.IncidentID]; d != nil {
			d.Notes = joinText(d.Notes, n.Body)
		}
	}
	for _, g := range sig {
		if d := byID[g.IncidentID]; d != nil {
			d.Terms = joinText(d.Terms, signatureWords(g))
		}
	}
	return docs, nil
}

// termsOf is the signature part of a search document: the words of an incident's signature
// rows of one origin, in their order (as searchDocs reads them).
func termsOf(rows []signatureRow, origin string) string {
	var terms string
	for _, g := range rows {
		if g.Origin == origin {
			terms = joinText(terms, signatureWords(g))
		}
	}
	return terms
}

// signatureWords is a signature row in words: "oom killed", "Node pool core".
func signatureWords(g signatureRow) string {
	if g.Facet == facetComponent {
		return strings.TrimSpace(incident.ComponentWord(g.Value) + " " + g.Name)
	}
	return strings.ReplaceAll(g.Value, "_", " ")
}

func joinText(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}

// rebuildSearch rewrites the search document of every incident: after the migration that gave
// documents their signature and concepts.
func (s *Store) rebuildSearch(tx *gorm.DB) error {
	var ids []string
	if err := tx.Model(&incidentRow{}).Order("id").Pluck("id", &ids).Error; err != nil {
		return err
	}
	return s.refreshSearch(tx, ids...)
}

// searchJoin narrows a listing to the incidents whose document holds every word (stemmed:
// "evicting" finds "evicted"), joining found (rid, rank): ts_rank over the weighted document on
// PostgreSQL, bm25 over the FTS5 columns on SQLite. top, when given, orders and cuts the
// subquery (" ORDER BY … LIMIT n").
func (s *Store) searchJoin(q *gorm.DB, words []string, top string) *gorm.DB {
	if s.dialect == Postgres {
		return q.Joins(`JOIN (SELECT incident_id AS rid, ts_rank(doc, query) AS rank
			FROM incident_search, plainto_tsquery('english', ?) AS query WHERE doc @@ query`+top+`) AS found ON found.rid = incidents.id`,
			strings.Join(words, " "))
	}
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = `"` + w + `"` // letters and digits only: nothing to escape
	}
	// bm25 is lower for better matches; the columns weigh 0 (the id), 10 (title), 4 (report),
	// 1 (notes), 0.5 (signature).
	return q.Joins(`JOIN (SELECT incident_id AS rid, bm25(incident_search, 0.0, 10.0, 4.0, 1.0, 0.5) AS rank
		FROM incident_search WHERE incident_search MATCH ?`+top+`) AS found ON found.rid = incidents.id`,
		strings.Join(quoted, " "))
}

// withSearch narrows a listing to the incidents whose document holds every word, ranked best
// first, ties by id. The rank comes from a joined subquery, not an ORDER BY expression: gorm
// drops an expression ordering when another is added. When the words are the only condition
// (alone), the subquery keeps just the best limit, so that only those are joined to their
// incidents.
func (s *Store) withSearch(q *gorm.DB, words []string, alone bool, limit int) *gorm.DB {
	order := "rank" // bm25: lower is better
	if s.dialect == Postgres {
		order = "rank DESC" // ts_rank: higher is better
	}
	top := ""
	if alone {
		top = fmt.Sprintf(" ORDER BY %s, rid LIMIT %d", order, limit)
	}
	return s.searchJoin(q, words, top).Order("found." + order + ", incidents.id")
}
