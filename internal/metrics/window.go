package metrics

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"
)

// Margins around an incident's evidence that its metrics are read over: the half hour before
// shows what was normal, the quarter after how it ended.
const (
	MarginBefore = 30 * time.Minute
	MarginAfter  = 15 * time.Minute
	// MaxSpan bounds a window: a week of metrics is not one incident's.
	MaxSpan = 7 * 24 * time.Hour
)

// WindowFor is the window of the metrics of evidence from from to to: with the margins, ending
// no later than now, at most MaxSpan (the last of it), at a step that gives at most about 500
// points a series (a whole number of 15 s, at least 15 s), its ends on whole steps.
func WindowFor(from, to, now time.Time) (Window, error) {
	if from.IsZero() || to.IsZero() {
		return Window{}, fmt.Errorf("metrics: the evidence holds no times to read metrics over")
	}
	w := Window{From: from.Add(-MarginBefore), To: to.Add(MarginAfter)}
	if !now.IsZero() && w.To.After(now) {
		w.To = now
	}
	if !w.To.After(w.From) {
		return Window{}, fmt.Errorf("metrics: the window from %s to %s is empty", w.From.Format(time.RFC3339), w.To.Format(time.RFC3339))
	}
	if w.To.Sub(w.From) > MaxSpan {
		w.From = w.To.Add(-MaxSpan)
	}
	const unit = 15 * time.Second
	w.Step = max(unit, (w.To.Sub(w.From)/500+unit-1)/unit*unit)
	// Whole steps, so that the same evidence asks for the same points (and a second read of it
	// gives the same answers).
	w.From = w.From.Truncate(w.Step)
	if end := w.To.Add(w.Step - 1).Truncate(w.Step); now.IsZero() || !end.After(now) {
		w.To = end
	}
	return w, nil
}

// MaxPoints is the most points a series of one range query may ask for: Prometheus refuses
// more than 11,000.
const MaxPoints = 11000

// WithStep is the window read at step instead of the one WindowFor chose (0 keeps it), its
// ends on whole steps. A step under a second, or one that would ask more than MaxPoints points
// a series, is an error.
func (w Window) WithStep(step time.Duration) (Window, error) {
	if step == 0 {
		return w, nil
	}
	if step < time.Second {
		return w, fmt.Errorf("metrics: step %s: a second at least", step)
	}
	if n := w.To.Sub(w.From) / step; n > MaxPoints {
		return w, fmt.Errorf("metrics: step %s over %s asks %d points a series, more than Prometheus answers (%d): a longer step", step, w.To.Sub(w.From), n, MaxPoints)
	}
	w.Step = step
	w.From = w.From.Truncate(step)
	return w, nil
}

// Targets are the Prometheus servers of clusters: a cluster's own, or the one of every cluster
// (key "").
type Targets map[string]string

// ParseTargets reads "URL" (every cluster's) or "cluster=URL,cluster=URL" (and both: a bare URL
// among them is every other cluster's). Each URL is http:// or https://.
func ParseTargets(s string) (Targets, error) {
	t := Targets{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, address := "", part
		if i := strings.Index(part, "="); i > 0 && !strings.Contains(part[:i], "/") {
			name, address = part[:i], part[i+1:]
		}
		u, err := url.Parse(address)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("prometheus %q: an http:// or https:// URL is needed, as URL or CLUSTER=URL", part)
		}
		if _, dup := t[name]; dup {
			return nil, fmt.Errorf("prometheus %q: cluster %q named twice", part, name)
		}
		t[name] = address
	}
	return t, nil
}

// For is the Prometheus of a cluster: its own, else the one of every cluster, else "".
func (t Targets) For(cluster string) string {
	if a, ok := t[cluster]; ok {
		return a
	}
	return t[""]
}

// LoadQueries reads the queries to run from a file: a JSON list of {"name", "query", "what"},
// names unique. They replace DefaultQueries; the rules read the queries of the default names.
func LoadQueries(path string) ([]Query, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("metrics: queries: %w", err)
	}
	var list []struct {
		Name  string `json:"name"`
		Query string `json:"query"`
		What  string `json:"what"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&list); err != nil {
		return nil, fmt.Errorf("metrics: queries %s: %w", path, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("metrics: queries %s: data after the list", path)
	}
	seen := map[string]bool{}
	out := make([]Query, 0, len(list))
	for i, q := range list {
		if q.Name == "" || q.Query == "" || strings.ContainsAny(q.Name, `/\: `) {
			return nil, fmt.Errorf("metrics: queries %s: entry %d: a name (no /, \\, : or space) and a query are needed", path, i)
		}
		if seen[q.Name] {
			return nil, fmt.Errorf("metrics: queries %s: %q named twice", path, q.Name)
		}
		seen[q.Name] = true
		out = append(out, Query{Name: q.Name, Expr: q.Query, What: q.What})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("metrics: queries %s: no queries", path)
	}
	return out, nil
}

// Files are the saved answers of outcomes and their manifest, as `rootline snapshot
// --prometheus` writes them and the server stores them: dir/<name>.json for each query with
// series, and dir/queries.json naming each query, its expression and step, or its gap.
func Files(dir string, outcomes []Outcome, w Window) (map[string][]byte, error) {
	files := map[string][]byte{}
	entries := make([]ManifestEntry, 0, len(outcomes))
	for _, o := range outcomes {
		e := ManifestEntry{Name: o.Query.Name, Query: o.Query.Expr, Step: w.Step.String(), Gap: o.Gap}
		if o.Gap == "" {
			b, err := Encode(o.Result)
			if err != nil {
				return nil, err
			}
			e.File = o.Query.Name + ".json"
			files[dir+"/"+e.File] = b
		}
		entries = append(entries, e)
	}
	m, err := Manifest(entries)
	if err != nil {
		return nil, err
	}
	files[dir+"/queries.json"] = m
	return files, nil
}
