package text

import (
	"encoding/csv"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/lazyre"
)

// Events a log store kept, exported as CSV (Kibana's Discover, Grafana's and Loki's table
// download, a spreadsheet): a header that names each column by its field's path in the
// event the store indexed, and a row an event. The path is the event's own field under the
// store's prefix: "object.involvedObject.name" (kubernetes-event-exporter's record),
// "event.involvedObject.name" (eventrouter's), "kubernetes.event.involved_object.name"
// (Metricbeat's kubernetes.event), "regarding.name" (events.k8s.io/v1), or the bare field. A
// column is known by the last segments of its path, the prefix whatever it is; a header is an
// events export when it names the involved object's name, the reason and the message. A TSV
// export is not read so: the cleaner has turned its tabs into spaces (expandTabs), and a
// cell's own spaces cannot be told from them.

// csvEventsTable reads the rows of an events export under its header: CSV, or Kibana's
// Discover copied as text, its cells apart by spaces (newFieldTable).
type csvEventsTable struct {
	cols   int            // how many cells a row has
	at     map[string]int // the cell of each field read (csvFields), by its name
	spaced bool           // cells apart by spaces: a time first, one word a cell, the message last
}

// csvFields are the event's fields an export's columns are known by, by the last segments of
// their path, lower-cased without underscores. The first of a field's paths a header holds is
// the one read.
var csvFields = []struct{ field, path string }{
	{"name", "involvedobject.name"}, {"name", "regarding.name"},
	{"kind", "involvedobject.kind"}, {"kind", "regarding.kind"},
	{"namespace", "involvedobject.namespace"}, {"namespace", "regarding.namespace"}, {"namespace", "metadata.namespace"},
	{"namespace", "kubernetes.namespace"}, {"namespace", "namespace"},
	{"fieldPath", "involvedobject.fieldpath"}, {"fieldPath", "regarding.fieldpath"},
	{"reason", "reason"},
	{"message", "event.message"}, {"message", "object.message"}, {"message", "note"}, {"message", "message"},
	{"type", "type"},
	{"count", "count"}, {"count", "series.count"},
	{"last", "lasttimestamp"}, {"last", "series.lastobservedtime"}, {"last", "eventtime"}, {"last", "@timestamp"}, {"last", "timestamp"},
	{"first", "firsttimestamp"},
	{"component", "source.component"}, {"component", "reportingcomponent"}, {"component", "reportingcontroller"},
	{"host", "source.host"},
}

// newCSVEventsTable returns a reader when s is the header of an events export, or nil.
func newCSVEventsTable(s string) *csvEventsTable {
	if !strings.Contains(s, ",") {
		return newFieldTable(s)
	}
	if !strings.Contains(s, "eason") {
		return nil
	}
	cells, ok := csvCells(s, 0)
	if !ok || len(cells) < 3 {
		return nil
	}
	return mapFields(cells, false)
}

// fieldPathRe is a column of a header of field paths: "@timestamp", "object.involvedObject.name".
var fieldPathRe = lazyre.New(`^@?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$`)

// newFieldTable returns a reader when s is a header of field paths apart by spaces, as
// Kibana's Discover is copied ("@timestamp  object.involvedObject.name  object.message"): at
// least one path with a dot, its message the last column and every other but a first time
// one word. The reason may be missing: the message's own words give it (catalog).
func newFieldTable(s string) *csvEventsTable {
	if !fieldPathsOnly(s) { // every line of a log is asked: a look at its bytes first
		return nil
	}
	cells := strings.Fields(s)
	if len(cells) < 2 || !slices.ContainsFunc(cells, func(c string) bool { return strings.Contains(c, ".") }) {
		return nil
	}
	for _, c := range cells {
		if !fieldPathRe.MatchString(c) {
			return nil
		}
	}
	t := mapFields(cells, true)
	if t == nil || t.at["message"] != len(cells)-1 {
		return nil
	}
	for f, i := range t.at {
		if i == 0 && f != "last" && f != "first" && f != "name" {
			return nil
		}
	}
	return t
}

// fieldPathsOnly reports whether s holds only what a header of field paths does (letters,
// digits, "_", "@", "." and spaces), and a dot: a quick look, without allocating.
func fieldPathsOnly(s string) bool {
	dot := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.':
			dot = true
		case c == ' ' || c == '_' || c == '@' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return dot
}

// mapFields maps a header's cells to the fields read; nil when it lacks the object's name,
// the reason (but spaced, where the message gives it) or the message.
func mapFields(cells []string, spaced bool) *csvEventsTable {
	paths := make([]string, len(cells))
	for i, c := range cells {
		paths[i] = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(c)), "_", "")
	}
	t := &csvEventsTable{cols: len(cells), at: map[string]int{}, spaced: spaced}
	for _, f := range csvFields {
		if _, done := t.at[f.field]; done {
			continue
		}
		for i, p := range paths {
			if p == f.path || strings.HasSuffix(p, "."+f.path) {
				if f.field != "type" && f.field != "reason" || !strings.Contains(p, "involvedobject.") && !strings.Contains(p, "regarding.") {
					t.at[f.field] = i
					break
				}
			}
		}
	}
	for _, need := range []string{"name", "reason", "message"} {
		if _, ok := t.at[need]; !ok && (need != "reason" || !spaced) {
			return nil
		}
	}
	return t
}

// csvCells splits a line into its cells, quoted as RFC 4180 quotes them; ok is false when it
// is not such a line of n cells (any number when n is 0).
func csvCells(s string, n int) ([]string, bool) {
	r := csv.NewReader(strings.NewReader(s))
	r.FieldsPerRecord, r.ReuseRecord = n, true
	cells, err := r.Read()
	if err != nil {
		return nil, false
	}
	if _, err := r.Read(); err == nil { // a quoted cell that held a line break: not one row
		return nil, false
	}
	return cells, true
}

func (t *csvEventsTable) row(p *parser, ln line) (bool, error) {
	cells, ok := t.cells(ln.text)
	if !ok {
		return false, nil
	}
	cell := func(field string) string {
		if i, ok := t.at[field]; ok {
			return strings.TrimSpace(cells[i])
		}
		return ""
	}
	r := eventRow{namespace: cell("namespace"), reason: cell("reason"), message: cell("message"),
		fieldPath: cell("fieldPath"), count: cell("count"), typ: cell("type")}
	var kind string // the kind the message's words are about, where no cell gives one
	if _, has := t.at["reason"]; !has && r.message != "" {
		r.reason, kind = p.messageReason(r.message)
	}
	if !reasonRe.MatchString(r.reason) || r.message == "" {
		return false, nil
	}
	if r.typ != "Normal" && r.typ != "Warning" {
		r.typ = ""
	}
	r.kind, r.name = kindOf(cell("kind")), cell("name")
	if k, n := splitObject(r.name); k != "" { // "pod/web-1"
		r.kind, r.name = k, n
	}
	if r.kind == "" {
		r.kind = kind
	}
	if !nameLike(r.name) {
		return false, nil
	}
	switch comp, host := cell("component"), cell("host"); {
	case comp != "" && host != "":
		r.source = comp + ", " + host
	default:
		r.source = comp
	}
	r.lastAt = metav1.NewTime(exportStamp(cell("last")))
	r.firstAt = metav1.NewTime(exportStamp(cell("first")))
	if r.lastAt.IsZero() {
		r.lastAt, r.firstAt = r.firstAt, metav1.Time{}
	}
	return true, p.rowEvent(p.event(r), ln)
}

// exportStamp reads a time of an export: what parseStamp reads, or Kibana's own
// "Mar 4, 2024 @ 10:02:11.000" (in the browser's zone, which the export does not say: read
// as UTC). Zero when it is none of them.
func exportStamp(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	if t := parseStamp(s); !t.IsZero() {
		return t
	}
	for _, layout := range []string{"Jan 2, 2006 @ 15:04:05.999999999", "Jan 2, 2006 @ 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// cells splits a row into its cells: as CSV, or spaced, a time first where the header has
// one (it may hold spaces: "Sep 7, 2023 @ 10:15:01.123"), then a word a cell, then the message.
func (t *csvEventsTable) cells(s string) ([]string, bool) {
	if !t.spaced {
		return csvCells(s, t.cols)
	}
	out := make([]string, 0, t.cols)
	rest := strings.TrimSpace(s)
	if t.firstIs("last") || t.firstIs("first") {
		m := exportTimeRe.FindString(rest)
		if m == "" {
			return nil, false
		}
		out, rest = append(out, m), strings.TrimSpace(rest[len(m):])
	}
	for len(out) < t.cols-1 {
		w, after, ok := strings.Cut(rest, " ")
		if !ok {
			return nil, false
		}
		out, rest = append(out, w), strings.TrimSpace(after)
	}
	return append(out, rest), rest != ""
}

// firstIs reports whether the header's first column is field's.
func (t *csvEventsTable) firstIs(field string) bool {
	i, ok := t.at[field]
	return ok && i == 0
}

// exportTimeRe is a time first in a row of a copied Discover table: Kibana's own "Sep 7, 2023 @
// 10:15:01.123", or RFC 3339.
var exportTimeRe = lazyre.New(`^(?:[A-Z][a-z]{2} \d{1,2}, \d{4} @ \d\d:\d\d:\d\d(?:\.\d+)?|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?)`)

// messageReason is the reason of the event whose message msg is, where its row gives none, and
// the kind of object it is about: those of the first entry of the catalogue its words match
// ("Liveness probe failed: …" is Unhealthy's, about a Pod); "" when none does.
func (p *parser) messageReason(msg string) (reason, kind string) {
	for _, m := range p.scan.cat.Explain(msg) {
		if r := m.Reason(); r != "" {
			return r, objectKind(m.Entry.Object)
		}
	}
	return "", ""
}
