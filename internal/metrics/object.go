package metrics

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// Series travel through Rootline's one pipeline as objects of their own kind, one object a
// series: ingest emits them from a saved answer, a snapshot stores them with the cluster's
// objects, the model keeps them among its others, and the analysis reads them back with
// FromObjects. A manifest (ManifestKind) names the queries of the files beside it.
const (
	APIVersion   = "rootline.dev/v1"
	SeriesKind   = "MetricSeries"
	ManifestKind = "MetricQueries"
)

// Answer is the series of one query, as the analysis reads them: the query's name (a
// DefaultQueries name, which the rules look for), its expression when known, and the file
// they came from, which evidence cites.
type Answer struct {
	Name   string
	Expr   string
	File   string
	Series []Series
}

// seriesObject is the JSON of a series object.
type seriesObject struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Query      string            `json:"query"`
	Expr       string            `json:"expr,omitempty"`
	Labels     map[string]string `json:"labels"`
	Points     []storedPoint     `json:"points"`
	// Downsampled is how many points the series had before it was downsampled (0: whole).
	Downsampled int `json:"downsampled,omitempty"`
}

// storedPoint is [<unix milliseconds>, "<value>"]: the value a string, as Prometheus writes
// it, so that NaN and ±Inf survive JSON.
type storedPoint struct {
	ms int64
	v  float64
}

func (p storedPoint) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf(`[%d,"%s"]`, p.ms, strconv.FormatFloat(p.v, 'g', -1, 64))), nil
}

func (p *storedPoint) UnmarshalJSON(b []byte) error {
	var pair [2]json.RawMessage
	if err := json.Unmarshal(b, &pair); err != nil {
		return err
	}
	var s string
	if err := json.Unmarshal(pair[0], &p.ms); err != nil {
		return fmt.Errorf("a point's time: %w", err)
	}
	if err := json.Unmarshal(pair[1], &s); err != nil {
		return fmt.Errorf("a point's value: %w", err)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("a point's value %.40q: not a number", s)
	}
	p.v = v
	return nil
}

// QueryName is the name a saved answer's file gives its query: its base name without the
// extension ("prometheus/container_throttling.json" → "container_throttling"), the last
// part of an archive entry's name ("metrics.tar:hub/throttling.json" → "throttling").
func QueryName(file string) string {
	if i := strings.LastIndexByte(file, ':'); i >= 0 {
		file = file[i+1:]
	}
	base := path.Base(strings.ReplaceAll(file, "\\", "/"))
	for _, ext := range []string{".gz", ".json"} {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// Objects are the series of one answer as objects of the pipeline, each named by the query and
// a hash of its labels (unique within a snapshot), its source the file. expr is the query's
// expression when known ("" otherwise).
func Objects(name, expr string, src cluster.Source, res Result) ([]*cluster.Object, error) {
	out := make([]*cluster.Object, 0, len(res.Series))
	for _, s := range res.Series {
		so := seriesObject{APIVersion: APIVersion, Kind: SeriesKind, Query: name, Expr: expr, Labels: s.Labels,
			Points: make([]storedPoint, len(s.Points)), Downsampled: s.Downsampled}
		for i, p := range s.Points {
			so.Points[i] = storedPoint{ms: p.At.UnixMilli(), v: p.Value}
		}
		raw, err := json.Marshal(so)
		if err != nil {
			return nil, fmt.Errorf("metrics: series %s of %s: %w", Name(s.Labels), name, err)
		}
		h := fnv.New64a()
		h.Write([]byte(Name(s.Labels)))
		out = append(out, &cluster.Object{APIVersion: APIVersion, Kind: SeriesKind, Name: fmt.Sprintf("%s-%016x", name, h.Sum64()),
			Source: src, Raw: raw})
	}
	return out, nil
}

// manifest is a small file beside saved answers that names their queries:
//
//	{"apiVersion": "rootline.dev/v1", "kind": "MetricQueries",
//	 "queries": [{"file": "hub.json", "name": "container_throttling", "query": "…", "step": "1m"}]}
type manifest struct {
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Queries    []ManifestEntry `json:"queries"`
}

// ManifestEntry is one query of a manifest: the file holding its answer (its base name), the
// name the rules know it by, and its expression.
type ManifestEntry struct {
	File  string `json:"file"`
	Name  string `json:"name"`
	Query string `json:"query,omitempty"`
	Step  string `json:"step,omitempty"`
	// Gap, written by `rootline snapshot`, says why the query has no file.
	Gap string `json:"gap,omitempty"`
}

// Manifest is the JSON of a manifest of the entries.
func Manifest(entries []ManifestEntry) ([]byte, error) {
	return json.MarshalIndent(manifest{APIVersion: APIVersion, Kind: ManifestKind, Queries: entries}, "", "  ")
}

// ParseManifest reads a manifest strictly: every entry names its file and its query's name.
func ParseManifest(raw []byte) ([]ManifestEntry, error) {
	var m manifest
	if err := strict(raw, &m); err != nil {
		return nil, err
	}
	if m.Kind != ManifestKind {
		return nil, fmt.Errorf("kind %q: a manifest of saved answers is of kind %s", m.Kind, ManifestKind)
	}
	for i, e := range m.Queries {
		if e.Name == "" || (e.File == "" && e.Gap == "") {
			return nil, fmt.Errorf("queries[%d]: an entry names its query (name) and the file of its answer (file)", i)
		}
	}
	return m.Queries, nil
}

// FromObjects gathers the series among objs (the others of a model) into one answer per query
// name and file, in order of name then file. A manifest among objs names the queries of the
// files it lists, whichever came first. Series objects that do not read are left out and
// counted in bad.
func FromObjects(objs []*cluster.Object) (answers []Answer, bad int) {
	names := map[string]ManifestEntry{} // file base → its entry
	for _, o := range objs {
		if o.Kind != ManifestKind {
			continue
		}
		entries, err := ParseManifest(o.Raw)
		if err != nil {
			bad++
			continue
		}
		for _, e := range entries {
			if e.File != "" {
				names[path.Base(e.File)] = e
			}
		}
	}
	byKey := map[string]int{}
	for _, o := range objs {
		if o.Kind != SeriesKind {
			continue
		}
		var so seriesObject
		if err := json.Unmarshal(o.Raw, &so); err != nil || so.Query == "" {
			bad++
			continue
		}
		file := o.Source.File
		name, expr := so.Query, so.Expr
		base := file
		if i := strings.LastIndexByte(base, ':'); i >= 0 {
			base = base[i+1:]
		}
		if e, ok := names[path.Base(base)]; ok {
			name = e.Name
			if e.Query != "" {
				expr = e.Query
			}
		}
		if expr == "" {
			for _, q := range DefaultQueries() {
				if q.Name == name {
					expr = q.Expr
				}
			}
		}
		s := Series{Labels: so.Labels, Downsampled: so.Downsampled, Points: make([]Point, len(so.Points))}
		if s.Labels == nil {
			s.Labels = map[string]string{}
		}
		for i, p := range so.Points {
			s.Points[i] = Point{At: time.UnixMilli(p.ms).UTC(), Value: p.v}
		}
		key := name + "\x00" + file
		i, ok := byKey[key]
		if !ok {
			i = len(answers)
			byKey[key] = i
			answers = append(answers, Answer{Name: name, Expr: expr, File: file})
		}
		answers[i].Series = append(answers[i].Series, s)
	}
	sort.SliceStable(answers, func(i, j int) bool {
		if answers[i].Name != answers[j].Name {
			return answers[i].Name < answers[j].Name
		}
		return answers[i].File < answers[j].File
	})
	for i := range answers {
		sort.SliceStable(answers[i].Series, func(a, b int) bool {
			return Name(answers[i].Series[a].Labels) < Name(answers[i].Series[b].Labels)
		})
	}
	return answers, bad
}

// Encode writes a result as the Prometheus HTTP API answers a range query, which Decode reads
// back: what `rootline snapshot --prometheus` saves.
func Encode(res Result) ([]byte, error) {
	type series struct {
		Metric map[string]string `json:"metric"`
		Values [][2]any          `json:"values"`
	}
	out := struct {
		Status   string   `json:"status"`
		Warnings []string `json:"warnings,omitempty"`
		Data     struct {
			ResultType string   `json:"resultType"`
			Result     []series `json:"result"`
		} `json:"data"`
	}{Status: "success", Warnings: res.Warnings}
	out.Data.ResultType = "matrix"
	out.Data.Result = make([]series, 0, len(res.Series))
	for _, s := range res.Series {
		vs := make([][2]any, len(s.Points))
		for i, p := range s.Points {
			vs[i] = [2]any{json.Number(strconv.FormatFloat(float64(p.At.UnixMilli())/1e3, 'f', 3, 64)), strconv.FormatFloat(p.Value, 'g', -1, 64)}
		}
		out.Data.Result = append(out.Data.Result, series{Metric: s.Labels, Values: vs})
	}
	return json.Marshal(out)
}

// Sniff reports whether the start of a JSON document is an answer of the Prometheus HTTP API
// (an object whose first key is "status", as Prometheus writes it, or one holding
// "resultType" near its start) rather than a Kubernetes object.
func Sniff(head []byte) bool {
	s := strings.TrimLeft(string(head), " \t\r\n\ufeff")
	if !strings.HasPrefix(s, "{") {
		return false
	}
	rest := strings.TrimLeft(s[1:], " \t\r\n")
	if strings.HasPrefix(rest, `"status"`) {
		return true
	}
	if len(s) > 512 {
		s = s[:512]
	}
	return strings.Contains(s, `"resultType"`) && !strings.Contains(s, `"kind"`)
}

// CheckObject reads the JSON of a series object or a manifest as it comes in an input,
// strictly and within lim, and returns it compacted, a series' labels passed through redact
// (nil: kept as they are): what ingest keeps of it. Any other kind is an error.
func CheckObject(raw []byte, lim Limits, redact func(labels map[string]string)) ([]byte, error) {
	lim = lim.orDefaults()
	var head struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, err
	}
	switch head.Kind {
	case ManifestKind:
		entries, err := ParseManifest(raw)
		if err != nil {
			return nil, err
		}
		return Manifest(entries)
	case SeriesKind:
		var so seriesObject
		if err := strict(raw, &so); err != nil {
			return nil, err
		}
		if so.Query == "" {
			return nil, fmt.Errorf("a %s names its query (query)", SeriesKind)
		}
		if len(so.Points) > lim.Points {
			return nil, fmt.Errorf("a %s of %d points (at most %d)", SeriesKind, len(so.Points), lim.Points)
		}
		if len(so.Labels) > lim.Labels {
			return nil, fmt.Errorf("a %s of %d labels (at most %d)", SeriesKind, len(so.Labels), lim.Labels)
		}
		for k, v := range so.Labels {
			if len(k) > lim.Bytes || len(v) > lim.Bytes {
				return nil, fmt.Errorf("label %.40q: longer than %d bytes", k, lim.Bytes)
			}
		}
		if redact != nil && so.Labels != nil {
			redact(so.Labels)
		}
		return json.Marshal(so)
	}
	return nil, fmt.Errorf("kind %q is not one of metrics", head.Kind)
}
