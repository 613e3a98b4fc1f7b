package text

import (
	"encoding/csv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

// csvEventsTable reads the rows of an events export under its header.
type csvEventsTable struct {
	cols int            // how many cells a row has
	at   map[string]int // the cell of each field read (csvFields), by its name
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
	if !strings.Contains(s, "eason") || !strings.Contains(s, ",") {
		return nil
	}
	cells, ok := csvCells(s, 0)
	if !ok || len(cells) < 3 {
		return nil
	}
	paths := make([]string, len(cells))
	for i, c := range cells {
		paths[i] = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(c)), "_", "")
	}
	t := &csvEventsTable{cols: len(cells), at: map[string]int{}}
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
		if _, ok := t.at[need]; !ok {
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
	cells, ok := csvCells(ln.text, t.cols)
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
