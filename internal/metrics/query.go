package metrics

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/api"
)

// Query is one range query Rootline runs over an incident's window.
type Query struct {
	// Name keys the query's answer (a file name in a snapshot, a key in the store).
	Name string
	// Expr is the PromQL expression.
	Expr string
	// What says what it measures, for people.
	What string
}

// DefaultQueries are the range queries run when none are configured: node CPU and memory use
// (node_exporter, and cAdvisor's root cgroup where there is no node_exporter),
// containers' working set, CPU use and CFS throttling (cAdvisor), restarts and OOM kills
// (kube-state-metrics), and Prometheus's own memory and head series. A query whose metric
// the Prometheus lacks answers nothing, which is a gap, not an error.
func DefaultQueries() []Query {
	return []Query{
		{"node_cpu", `sum by (instance) (rate(node_cpu_seconds_total{mode!="idle"}[5m]))`, "CPU cores in use per node (node_exporter)"},
		{"node_memory", `node_memory_MemTotal_bytes - node_memory_MemAvailable_bytes`, "memory in use per node (node_exporter)"},
		{"node_cpu_cadvisor", `sum by (instance, node) (rate(container_cpu_usage_seconds_total{id="/"}[5m]))`, "CPU cores in use per node (cAdvisor's root cgroup, where node_exporter is not scraped)"},
		{"node_memory_cadvisor", `sum by (instance, node) (container_memory_working_set_bytes{id="/"})`, "memory in use per node (cAdvisor's root cgroup)"},
		{"container_memory", `sum by (namespace, pod, container) (container_memory_working_set_bytes{container!="", container!="POD"})`, "working set per container (cAdvisor)"},
		{"container_cpu", `sum by (namespace, pod, container) (rate(container_cpu_usage_seconds_total{container!="", container!="POD"}[5m]))`, "CPU cores used per container (cAdvisor)"},
		{"container_throttling", `sum by (namespace, pod, container) (rate(container_cpu_cfs_throttled_periods_total{container!=""}[5m])) / sum by (namespace, pod, container) (rate(container_cpu_cfs_periods_total{container!=""}[5m]))`, "share of CFS periods throttled per container (cAdvisor)"},
		{"container_restarts", `sum by (namespace, pod, container) (kube_pod_container_status_restarts_total)`, "restarts per container (kube-state-metrics)"},
		{"container_oom", `sum by (namespace, pod, container) (kube_pod_container_status_last_terminated_reason{reason="OOMKilled"})`, "containers last terminated by an OOM kill (kube-state-metrics)"},
		{"prometheus_memory", `process_resident_memory_bytes{job=~".*prometheus.*"}`, "Prometheus's resident memory"},
		{"prometheus_head_series", `prometheus_tsdb_head_series`, "series in Prometheus's head block"},
	}
}

// Window is the time range of the queries and their step.
type Window struct {
	From, To time.Time
	Step     time.Duration
}

// Fetcher runs range queries against one Prometheus through its HTTP API (client_golang's
// api.Client, whose transport here bounds each answer's bytes: the answer is read whole by the
// client before Decode bounds its series and points).
type Fetcher struct {
	client api.Client
	lim    Limits
}

// ErrTooLarge is an answer longer than the Fetcher's bound.
var ErrTooLarge = errors.New("the answer is larger than the bound")

// NewFetcher prepares queries of the Prometheus at address (http://host:9090, with a path
// prefix if it has one), each answer at most maxBytes (32 MiB when 0) and read within lim.
func NewFetcher(address string, maxBytes int64, lim Limits) (*Fetcher, error) {
	if maxBytes <= 0 {
		maxBytes = 32 << 20
	}
	u, err := url.Parse(address)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("metrics: Prometheus address %q: an http:// or https:// URL is needed", address)
	}
	c, err := api.NewClient(api.Config{Address: address, RoundTripper: bounded{next: api.DefaultRoundTripper, max: maxBytes}})
	if err != nil {
		return nil, fmt.Errorf("metrics: Prometheus address %q: %w", address, err)
	}
	return &Fetcher{client: c, lim: lim}, nil
}

// Fetch runs one range query over the window. An answer of status "error" is ErrFailed (the
// query or the window is wrong); an unreachable Prometheus, an answer over the bound or one
// that is not the API's is an error too.
func (f *Fetcher) Fetch(ctx context.Context, q Query, w Window) (Result, error) {
	step := w.Step
	if step <= 0 {
		step = time.Minute
	}
	form := url.Values{
		"query": {q.Expr},
		"start": {strconv.FormatFloat(float64(w.From.UnixMilli())/1e3, 'f', 3, 64)},
		"end":   {strconv.FormatFloat(float64(w.To.UnixMilli())/1e3, 'f', 3, 64)},
		"step":  {strconv.FormatFloat(step.Seconds(), 'f', -1, 64)},
	}
	u := f.client.URL("/api/v1/query_range", nil)
	u.RawQuery = form.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Result{Query: q.Expr}, fmt.Errorf("metrics: %s: %w", q.Name, err)
	}
	resp, body, err := f.client.Do(ctx, req)
	if err != nil {
		return Result{Query: q.Expr}, fmt.Errorf("metrics: %s: %w", q.Name, err)
	}
	// Prometheus answers a bad query with 400 or 422 and a JSON error, which Decode names.
	if resp.StatusCode/100 != 2 && resp.StatusCode != http.StatusBadRequest && resp.StatusCode != http.StatusUnprocessableEntity {
		return Result{Query: q.Expr}, fmt.Errorf("metrics: %s: %s answered %s", q.Name, u.Host, resp.Status)
	}
	res, err := DecodeBytes(body, q.Expr, f.lim)
	if err != nil {
		return res, fmt.Errorf("metrics: %s: %w", q.Name, err)
	}
	return res, nil
}

// Outcome is what one query of FetchAll gave: its answer, or why there is none.
type Outcome struct {
	Query  Query
	Result Result
	// Gap says why the query gave no series: the metric is not there (an empty answer), or
	// Prometheus could not run the query. Empty when there are series.
	Gap string
}

// FetchAll runs the queries over the window, one after the other. A query that answers no
// series, or that Prometheus refuses, is a gap of its own and the others go on; a Prometheus
// that cannot be reached (or whose answers are not the API's) stops them with an error.
func (f *Fetcher) FetchAll(ctx context.Context, queries []Query, w Window) ([]Outcome, error) {
	out := make([]Outcome, 0, len(queries))
	for _, q := range queries {
		res, err := f.Fetch(ctx, q, w)
		switch {
		case errors.Is(err, ErrFailed):
			out = append(out, Outcome{Query: q, Result: res, Gap: "Prometheus could not run it: " + err.Error()})
		case err != nil:
			return out, err
		case len(res.Series) == 0:
			out = append(out, Outcome{Query: q, Result: res, Gap: "no series: " + q.What + " is not in this Prometheus over the window"})
		default:
			out = append(out, Outcome{Query: q, Result: res})
		}
	}
	return out, nil
}

// bounded is a transport whose answers end in ErrTooLarge past max bytes.
type bounded struct {
	next http.RoundTripper
	max  int64
}

func (b bounded) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := b.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &limitedBody{ReadCloser: resp.Body, left: b.max}
	return resp, nil
}

type limitedBody struct {
	io.ReadCloser
	left int64
}

func (l *limitedBody) Read(p []byte) (int, error) {
	if l.left <= 0 {
		// One byte more than the bound tells an answer of exactly the bound from a longer one.
		var one [1]byte
		if n, _ := l.ReadCloser.Read(one[:]); n > 0 {
			return 0, ErrTooLarge
		}
		return 0, io.EOF
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.ReadCloser.Read(p)
	l.left -= int64(n)
	return n, err
}
