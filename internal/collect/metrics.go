package collect

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// Metrics are the collector's Prometheus metrics, on a registry of its own.
type Metrics struct {
	Registry         *prometheus.Registry
	observed         *prometheus.CounterVec
	spooled          prometheus.Counter
	delivered        prometheus.Counter
	deliveredObjects prometheus.Counter
	failures         prometheus.Counter
	refused          prometheus.Counter
	dropped          prometheus.Counter
	spoolBatches     prometheus.Gauge
	spoolBytes       prometheus.Gauge
	sendSeconds      prometheus.Histogram
}

// NewMetrics creates and registers the metrics, with the Go runtime and process collectors.
func NewMetrics() *Metrics {
	m := &Metrics{
		Registry: prometheus.NewRegistry(),
		observed: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "rootline_collector_observed_total",
			Help: "Objects seen in the cluster and queued for delivery, by kind."}, []string{"kind"}),
		spooled:          prometheus.NewCounter(prometheus.CounterOpts{Name: "rootline_collector_batches_spooled_total", Help: "Batches written to the spool."}),
		delivered:        prometheus.NewCounter(prometheus.CounterOpts{Name: "rootline_collector_batches_delivered_total", Help: "Batches the server took."}),
		deliveredObjects: prometheus.NewCounter(prometheus.CounterOpts{Name: "rootline_collector_objects_delivered_total", Help: "Objects in batches the server took."}),
		failures:         prometheus.NewCounter(prometheus.CounterOpts{Name: "rootline_collector_send_failures_total", Help: "Deliveries that failed and will be retried."}),
		refused:          prometheus.NewCounter(prometheus.CounterOpts{Name: "rootline_collector_batches_refused_total", Help: "Batches the server refused for good (dropped)."}),
		dropped:          prometheus.NewCounter(prometheus.CounterOpts{Name: "rootline_collector_objects_dropped_total", Help: "Objects lost: spool full, a batch refused or unreadable."}),
		spoolBatches:     prometheus.NewGauge(prometheus.GaugeOpts{Name: "rootline_collector_spool_batches", Help: "Batches waiting for delivery."}),
		spoolBytes:       prometheus.NewGauge(prometheus.GaugeOpts{Name: "rootline_collector_spool_bytes", Help: "Bytes waiting for delivery."}),
		sendSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "rootline_collector_send_seconds", Help: "Time to deliver a batch.",
			Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}}),
	}
	m.Registry.MustRegister(m.observed, m.spooled, m.delivered, m.deliveredObjects, m.failures, m.refused, m.dropped,
		m.spoolBatches, m.spoolBytes, m.sendSeconds, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}
