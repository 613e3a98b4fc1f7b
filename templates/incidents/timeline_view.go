package incidents

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"
)

// TimelinePageSize is how many rows a page of the timeline shows, unless its URL asks for more.
const TimelinePageSize = 500

// burstPrefix starts the ref of a row that folds a burst of routine rows (timeline.BurstPrefix).
const burstPrefix = "burst-"

// timelineURL is the link to the incident's timeline with the filter f: the same view, another
// page of it, a row expanded.
func timelineURL(id string, f Filter) templ.SafeURL {
	q := url.Values{}
	for k, v := range map[string]string{"from": f.From, "to": f.To, "namespace": f.Namespace, "node": f.Node, "kind": f.Kind,
		"severity": f.Severity, "type": f.Type, "group": f.Group, "expand": f.Expand} {
		if v != "" {
			q.Set(k, v)
		}
	}
	if f.All {
		q.Set("collapse", "off")
	}
	if f.Offset > 0 {
		q.Set("offset", strconv.Itoa(f.Offset))
	}
	if f.Limit > 0 && f.Limit != TimelinePageSize {
		q.Set("limit", strconv.Itoa(f.Limit))
	}
	u := "/incidents/" + url.PathEscape(id)
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return templ.SafeURL(u + "#timeline")
}

// expandURL lists the members of a row, from the first.
func expandURL(p Page, ref string) templ.SafeURL {
	f := p.Filter
	f.Expand, f.Offset = ref, 0
	return timelineURL(p.ID, f)
}

// expandable reports whether a row stands for others: a folded burst, a symptom or cause
// group, or the rows cited as a symptom's or cause's evidence (an event or node row with a ref,
// which only such a fold has).
func expandable(e Entry) bool {
	switch e.Type {
	case "symptom", "cause":
		return e.Count > 1
	case "event", "node":
		return e.Ref != ""
	}
	return strings.HasPrefix(e.Ref, burstPrefix)
}

// expandedSays heads the rows an expanded row stands for.
func expandedSays(ref string) string {
	if strings.HasPrefix(ref, burstPrefix) {
		return "The rows of " + ref + ", in time order."
	}
	return "The rows " + ref + " stands for (its members and the rows cited as its evidence), in time order."
}

// day is the rows of one date (UTC) of a page of the timeline.
type day struct {
	Date    string
	Entries []Entry
}

// byDay cuts a page's rows (in time order) by their date, so that the page says the date once
// a day and each row its time alone. A row's At is "2006-01-02 15:04:05".
func byDay(entries []Entry) []day {
	var out []day
	for _, e := range entries {
		date, _, _ := strings.Cut(e.At, " ")
		if len(out) == 0 || out[len(out)-1].Date != date {
			out = append(out, day{Date: date})
		}
		d := &out[len(out)-1]
		d.Entries = append(d.Entries, e)
	}
	return out
}

// clockTime is the time of day of a row's At, without its date.
func clockTime(at string) string {
	if _, t, ok := strings.Cut(at, " "); ok {
		return t
	}
	return at
}

// kindList writes a folded row's kinds ("Created,Pulled,Started") so that they wrap.
func kindList(kind string) string { return strings.ReplaceAll(kind, ",", ", ") }

// maxShown is how much of a message the timeline shows before "more": event messages can run
// to kilobytes (a scale-up's list of node groups), and a row is a line or two.
const maxShown = 240

// clipText shortens a row's long message at a word, reporting whether it did; the row then
// shows the whole of it on demand. A symptom's or cause's summary is shown whole: the timeline
// already bounds it (timeline.maxSummary), and its card holds the rest.
func clipText(e Entry) (string, bool) {
	r := []rune(e.Summary)
	if len(r) <= maxShown || e.Type == "symptom" || e.Type == "cause" {
		return e.Summary, false
	}
	cut := string(r[:maxShown])
	if i := strings.LastIndex(cut, " "); i > maxShown/2 {
		cut = cut[:i]
	}
	return cut + " …", true
}

// pageLink is one link of the timeline's pager.
type pageLink struct {
	Label   string
	URL     templ.SafeURL
	Current bool
}

// pager links the pages of the timeline: every page when there are few, else the first and
// last three and three around the current one.
func pager(p Page) []pageLink {
	size := p.Filter.Limit
	if size <= 0 {
		size = TimelinePageSize
	}
	pages := (p.Total + size - 1) / size
	if pages <= 1 {
		return nil
	}
	current := p.Filter.Offset / size
	var out []pageLink
	gap := false
	for i := range pages {
		if pages > 12 && i >= 3 && i < pages-3 && (i < current-3 || i > current+3) {
			if !gap {
				out = append(out, pageLink{Label: "…"})
			}
			gap = true
			continue
		}
		gap = false
		f := p.Filter
		f.Offset, f.Limit = i*size, size
		out = append(out, pageLink{Label: strconv.Itoa(i + 1), URL: timelineURL(p.ID, f), Current: i == current})
	}
	return out
}

// rowsShown says which rows of how many a page shows: "rows 501–1,000 of 6,296".
func rowsShown(p Page) string {
	if len(p.Entries) == 0 {
		return "no rows"
	}
	from := p.Filter.Offset + 1
	return "rows " + thousands(from) + "–" + thousands(from+len(p.Entries)-1) + " of " + thousands(p.Total)
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// changeLinks are the changes a cause row stands on (its links that are change ids, X1…),
// which the timeline shows as rows of their own.
func changeLinks(e Entry) []string {
	if e.Type != "cause" {
		return nil
	}
	var out []string
	for _, id := range e.Links {
		if len(id) > 1 && id[0] == 'X' && strings.Trim(id[1:], "0123456789") == "" {
			out = append(out, id)
		}
	}
	return out
}
