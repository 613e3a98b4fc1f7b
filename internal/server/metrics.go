package server

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/rootline-dev/rootline/internal/markdown"
)

// Metrics are the server's Prometheus metrics, on a registry of its own (no global state).
type Metrics struct {
	Registry      *prometheus.Registry
	requests      *prometheus.CounterVec
	latency       *prometheus.HistogramVec
	objects       *prometheus.CounterVec
	uploadBytes   prometheus.Counter
	uploadResults *prometheus.CounterVec
	collected     *prometheus.CounterVec
	alerts        *prometheus.CounterVec
	alertOutcomes *prometheus.CounterVec
	analyses      prometheus.Counter
}

// NewMetrics creates and registers the metrics, with the Go runtime and process collectors.
func NewMetrics() *Metrics {
	m := &Metrics{
		Registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rootline_http_requests_total", Help: "HTTP requests by method, route and status.",
		}, []string{"method", "route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "rootline_http_request_duration_seconds", Help: "HTTP request latency by method and route.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, []string{"method", "route"}),
		objects: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rootline_ingested_objects_total", Help: "Objects stored from uploads, by kind.",
		}, []string{"kind"}),
		uploadBytes: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "rootline_upload_bytes_total", Help: "Bytes received in snapshot uploads (as sent, before decompression).",
		}),
		uploadResults: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rootline_uploads_total", Help: "Snapshot uploads by result: created, existing, rejected, failed.",
		}, []string{"result"}),
		collected: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rootline_collected_objects_total", Help: "Objects received from collectors (POST /api/v1/events), by kind.",
		}, []string{"kind"}),
		alerts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rootline_alerts_received_total", Help: "Alerts received from Alertmanager (POST /api/v1/alerts), by status: firing, resolved.",
		}, []string{"status"}),
		alertOutcomes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rootline_alerts_stored_total", Help: "What the alerts received did to the stored ones: new, resolved, updated (annotations), known (delivered again).",
		}, []string{"outcome"}),
		analyses: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "rootline_analyses_total", Help: "Analyses of an incident's evidence made: a page, the API or an export of an incident whose evidence changed since its last (or never analysed, or evicted from the cache).",
		}),
	}
	m.Registry.MustRegister(m.requests, m.latency, m.objects, m.uploadBytes, m.uploadResults, m.collected, m.alerts, m.alertOutcomes, m.analyses,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// renders publishes how many Markdown texts (notes, imported reports) r has converted to HTML:
// what the pages cost in rendering, which a page served from its incident's cached state does
// not add to. One renderer a registry: a second server given the same Metrics keeps the first's.
func (m *Metrics) renders(r *markdown.Renderer) {
	_ = m.Registry.Register(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "rootline_markdown_renders_total", Help: "Markdown texts (notes, imported reports) converted to HTML for the pages.",
	}, func() float64 { return float64(r.Renders()) }))
}

// middleware counts and times every request by its route pattern, never its raw path, and by
// its method when it is one of HTTP's, so that neither ids in paths nor made-up methods can
// blow up the number of series. The status is a number of three digits (net/http refuses
// others), so it adds at most a bounded set.
func (m *Metrics) middleware() gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		route := c.FullPath()
		if route == "" {
			route = "unmatched"
		}
		method := metricMethod(c.Request.Method)
		m.requests.WithLabelValues(method, route, strconv.Itoa(c.Writer.Status())).Inc()
		m.latency.WithLabelValues(method, route).Observe(time.Since(start).Seconds())
	}
}

// metricMethod is the method's label: one of HTTP's own methods, else "other", so that a client
// making up methods cannot add series to the scrape (a method may be any token, of any length).
func metricMethod(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "other"
}
