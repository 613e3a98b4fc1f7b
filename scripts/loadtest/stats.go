package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"time"
)

// maxFailures is how many failed requests are kept with their answers, to be shown.
const maxFailures = 5

// endpoint gathers the latencies and errors of one endpoint.
type endpoint struct {
	name string
	mu   sync.Mutex
	lat  []time.Duration // every request's, failed ones included
	errs int
}

// failure is a failed request as it is shown: the request, the status (0 for a transport
// error) and the answer or the error.
type failure struct {
	at      time.Time
	request string
	status  int
	body    string
}

// result is what a load test measured.
type result struct {
	opts      options
	url       string
	incident  string
	base      snapshotInfo
	baseTook  time.Duration
	elapsed   time.Duration
	created   int64 // small snapshots stored (201)
	existing  int64 // small snapshots the server already had (200): should stay 0
	entries   int   // timeline entries at the end
	endpoints []*endpoint

	mu       sync.Mutex
	failures []failure
}

// record counts one request. A request cut short by an interrupt is not counted: it says
// nothing about the server.
func (r *result) record(ctx context.Context, ep *endpoint, request string, start time.Time, a answer, err error) {
	d := time.Since(start)
	if err != nil && ctx.Err() != nil {
		return
	}
	ep.mu.Lock()
	ep.lat = append(ep.lat, d)
	ep.mu.Unlock()
	switch {
	case err != nil:
		r.fail(ep, request, 0, err.Error())
	case !ok(a.status):
		r.fail(ep, request, a.status, string(bytes.TrimSpace(a.body)))
	}
}

// fail counts an error of ep and keeps the first few.
func (r *result) fail(ep *endpoint, request string, status int, body string) {
	ep.mu.Lock()
	ep.errs++
	ep.mu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.failures) < maxFailures {
		r.failures = append(r.failures, failure{at: time.Now(), request: request, status: status, body: body})
	}
}

func (r *result) errorCount() int {
	n := 0
	for _, ep := range r.endpoints {
		n += ep.errs
	}
	return n
}

// printErrors writes the failures kept, with their time so that they can be found in the
// server's log.
func (r *result) printErrors(w io.Writer) {
	fmt.Fprintf(w, "%d requests failed; the first %d:\n", r.errorCount(), len(r.failures))
	for _, f := range r.failures {
		fmt.Fprintf(w, "  %s %s -> %s\n", f.at.UTC().Format(time.RFC3339Nano), f.request, describe(f))
	}
}

func describe(f failure) string {
	if f.status == 0 {
		return "transport error: " + f.body
	}
	return fmt.Sprintf("%d %s", f.status, f.body)
}

// percentile returns the p-th percentile of sorted latencies (nearest rank).
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d)/float64(time.Millisecond)) }

// markdown is the summary and the table, as docs/load.md shows them.
func (r *result) markdown() string {
	var b strings.Builder
	o := r.opts
	fmt.Fprintf(&b, "Incident `%s` on %s. First snapshot: IL-0070 (%d nodes, %d pods, %d events in %s; %.1f MiB), stored in %s. ",
		r.incident, r.url, r.base.nodes, r.base.pods, r.base.events, strings.Join(r.base.files, ", "),
		float64(len(r.base.body))/(1<<20), r.baseTook.Round(time.Millisecond))
	fmt.Fprintf(&b, "Then %s of load: %d readers, each alternating the page and the timeline API, and %d uploaders, "+
		"each sending small snapshots of %d events one after another (seed %d). ",
		r.elapsed.Round(100*time.Millisecond), o.readers, o.uploaders, o.uploadEvents, o.seed)
	fmt.Fprintf(&b, "%d small snapshots stored", r.created)
	if r.existing > 0 {
		fmt.Fprintf(&b, " (and %d answered as already stored)", r.existing)
	}
	fmt.Fprintf(&b, "; the timeline ended with %d entries.\n\n", r.entries)

	b.WriteString("| endpoint | requests | req/s | p50 ms | p99 ms | max ms | errors |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	var all []time.Duration
	errs := 0
	for _, ep := range r.endpoints {
		lat := slices.Clone(ep.lat)
		slices.Sort(lat)
		all = append(all, lat...)
		errs += ep.errs
		b.WriteString(r.row("`"+ep.name+"`", lat, ep.errs))
	}
	slices.Sort(all)
	b.WriteString(r.row("all", all, errs))
	if len(r.failures) > 0 {
		fmt.Fprintf(&b, "\nThe first %d of %d errors:\n\n", len(r.failures), errs)
		for _, f := range r.failures {
			fmt.Fprintf(&b, "- %s `%s` → %s\n", f.at.UTC().Format("15:04:05.000"), f.request, describe(f))
		}
	}
	return b.String()
}

func (r *result) row(name string, sorted []time.Duration, errs int) string {
	rate := 0.0
	if r.elapsed > 0 {
		rate = float64(len(sorted)) / r.elapsed.Seconds()
	}
	var maxLat time.Duration
	if len(sorted) > 0 {
		maxLat = sorted[len(sorted)-1]
	}
	return fmt.Sprintf("| %s | %d | %.1f | %s | %s | %s | %d |\n", name, len(sorted), rate,
		ms(percentile(sorted, 0.50)), ms(percentile(sorted, 0.99)), ms(maxLat), errs)
}
