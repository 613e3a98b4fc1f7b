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

// expandable reports whether a row stands for others: a folded burst, or a symptom or cause
// group.
func expandable(e Entry) bool {
	return strings.HasPrefix(e.Ref, burstPrefix) || ((e.Type == "symptom" || e.Type == "cause") && e.Count > 1)
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
