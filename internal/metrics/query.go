package metrics

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
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
// client before Decode bounds its series and points). Its reads have deadlines of their own
// (Deadlines), and follow no redirect that leaves the configured host.
type Fetcher struct {
	client    api.Client
	http      *http.Client
	lim       Limits
	deadlines Deadlines
	admit     func(context.Context) (func(), error)
}

// Deadlines bound a read of a Prometheus that hangs: the connection (and its TLS handshake),
// the wait for an answer's headers, and the whole of one query (its answer read to the end).
type Deadlines struct {
	Connect, Headers, Read time.Duration
}

// DefaultDeadlines are the deadlines of a read when none are given: a Prometheus that has not
// answered a query's headers in 30 s is taken as unreachable, and one query never takes more
// than 2 minutes.
var DefaultDeadlines = Deadlines{Connect: 10 * time.Second, Headers: 30 * time.Second, Read: 2 * time.Minute}

// FetchOptions tune a Fetcher: each answer at most MaxBytes (32 MiB when 0), read within
// Limits, under Deadlines (DefaultDeadlines' for each one zero).
type FetchOptions struct {
	MaxBytes  int64
	Limits    Limits
	Deadlines Deadlines
	// Admit, when set, is asked once an answer's headers have come, before its body is read
	// and decoded, and its release called when that is done: a server takes what reading an
	// answer costs only then, never while it waits on the network.
	Admit func(ctx context.Context) (release func(), err error)
}

// ErrTooLarge is an answer longer than the Fetcher's bound.
var ErrTooLarge = errors.New("the answer is larger than the bound")

// NewFetcher prepares queries of the Prometheus at address (http://host:9090, with a path
// prefix if it has one).
func NewFetcher(address string, o FetchOptions) (*Fetcher, error) {
	if o.MaxBytes <= 0 {
		o.MaxBytes = 32 << 20
	}
	d := o.Deadlines
	d.Connect = cmp.Or(d.Connect, DefaultDeadlines.Connect)
	d.Headers = cmp.Or(d.Headers, DefaultDeadlines.Headers)
	d.Read = cmp.Or(d.Read, DefaultDeadlines.Read)
	u, err := url.Parse(address)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("metrics: Prometheus address %q: an http:// or https:// URL is needed", address)
	}
	transport := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: d.Connect, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   d.Connect,
		ResponseHeaderTimeout: d.Headers,
		MaxIdleConns:          4,
		IdleConnTimeout:       90 * time.Second,
	}
	client := &http.Client{Transport: bounded{next: transport, max: o.MaxBytes}, CheckRedirect: sameHost(u)}
	c, err := api.NewClient(api.Config{Address: address, Client: client})
	if err != nil {
		return nil, fmt.Errorf("metrics: Prometheus address %q: %w", address, err)
	}
	return &Fetcher{client: c, http: client, lim: o.Limits, deadlines: d, admit: o.Admit}, nil
}

// maxRedirects is how many redirects within its host a read follows.
const maxRedirects = 5

// sameHost follows a redirect only within the configured Prometheus's scheme and host: one
// that leaves it (to a host the operator never named, perhaps inside the cluster's network) is
// not followed, and what it would have answered is never stored.
func sameHost(base *url.URL) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) >= maxRedirects {
			return fmt.Errorf("metrics: more than %d redirects", maxRedirects)
		}
		if req.URL.Scheme != base.Scheme || req.URL.Host != base.Host {
			return fmt.Errorf("%w: the Prometheus at %s sent to %s://%s", ErrRedirected, base.Host, req.URL.Scheme, req.URL.Host)
		}
		return nil
	}
}

// ErrRedirected is a redirect that leaves the configured Prometheus's host: not followed.
var ErrRedirected = errors.New("a redirect to another host is not followed")

// Reach asks the Prometheus the least it can answer (the instant query 1), within the
// deadlines: a caller learns that it answers before taking what a read of it costs.
func (f *Fetcher) Reach(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, f.deadlines.Headers+f.deadlines.Connect)
	defer cancel()
	u := f.client.URL("/api/v1/query", nil)
	u.RawQuery = url.Values{"query": {"1"}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fmt.Errorf("metrics: %w", err)
	}
	resp, _, err := f.client.Do(ctx, req)
	if err != nil {
		return fmt.Errorf("metrics: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("metrics: %s answered %s", u.Host, resp.Status)
	}
	return nil
}

// Fetch runs one range query over the window. An answer of status "error" is ErrFailed (the
// query or the window is wrong); an unreachable Prometheus, an answer over the bound or one
// that is not the API's is an error too.
func (f *Fetcher) Fetch(ctx context.Context, q Query, w Window) (Result, error) {
	ctx, cancel := context.WithTimeout(ctx, f.deadlines.Read)
	defer cancel()
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
	resp, err := f.http.Do(req)
	if err != nil {
		return Result{Query: q.Expr}, fmt.Errorf("metrics: %s: %w", q.Name, err)
	}
	defer resp.Body.Close()
	if f.admit != nil {
		release, err := f.admit(ctx)
		if err != nil {
			return Result{Query: q.Expr}, err
		}
		defer release()
	}
	body, err := io.ReadAll(resp.Body)
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
