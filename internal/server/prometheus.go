package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/metrics"
	"github.com/rootline-dev/rootline/templates/incidents"
)

// fetchMaxBytes bounds one answer of a Prometheus read, and keptPerQuery is what the series
// kept of one query may cost (500 series of 1,000 points).
const (
	fetchMaxBytes = 32 << 20
	keptPerQuery  = 16 << 20
)

// metricsQuery is what one query of a Prometheus read gave, as the answer tells it.
type metricsQuery struct {
	Name   string `json:"name"`
	Series int    `json:"series"`
	Gap    string `json:"gap,omitempty"`
}

// metricsResponse is the answer of POST /api/v1/incidents/{id}/prometheus.
type metricsResponse struct {
	Prometheus string           `json:"prometheus"`
	From       time.Time        `json:"from"`
	To         time.Time        `json:"to"`
	Step       string           `json:"step"`
	Queries    []metricsQuery   `json:"queries"`
	Snapshot   snapshotResponse `json:"snapshot"`
}

// readPrometheus answers POST /api/v1/incidents/{id}/prometheus: the range queries run on the
// Prometheus of the incident's cluster (--prometheus) over the incident's window (its start and
// end when set, until now for one started and not ended, else the time its evidence spans, with
// metrics.MarginBefore and MarginAfter), and their answers stored as a snapshot of the incident, through the same pipeline as an
// upload of the saved answers: prometheus/<query>.json and prometheus/queries.json (which
// names each query and says why one gave nothing). Reading the same window again gives the same
// snapshot. A query Prometheus lacks the metric of is a gap, not an error; a Prometheus that
// cannot be reached is 502.
func (s *Server) readPrometheus(c *gin.Context) error {
	return s.readPrometheusInto(c, func(status int, resp metricsResponse) { c.JSON(status, resp) })
}

// readPrometheusInto reads the incident's Prometheus and hands the answer to done.
func (s *Server) readPrometheusInto(c *gin.Context, done func(status int, resp metricsResponse)) error {
	ctx := c.Request.Context()
	id := c.Param("id")
	st, err := s.loadIncident(ctx, id)
	if err != nil {
		return err
	}
	address := s.prometheus.For(st.incident.Cluster)
	if address == "" {
		return errStatus(http.StatusConflict, fmt.Sprintf("no Prometheus is configured for cluster %q of incident %s (serve --prometheus %s=URL)",
			st.incident.Cluster, id, orWord(st.incident.Cluster, "CLUSTER")))
	}
	var from, to time.Time
	if st.report.Inputs.From != nil {
		from, to = *st.report.Inputs.From, *st.report.Inputs.To
	}
	if st.incident.StartedAt != nil {
		from = *st.incident.StartedAt
	}
	switch {
	case st.incident.EndedAt != nil:
		to = *st.incident.EndedAt
	case st.incident.StartedAt != nil: // an incident still open: until now
		to = time.Now()
	}
	w, err := metrics.WindowFor(from, to, time.Now())
	if err != nil {
		return errStatus(http.StatusUnprocessableEntity, fmt.Sprintf("incident %s: %v: upload its evidence or set its start first", id, err))
	}
	if w, err = w.WithStep(s.cfg.PrometheusStep); err != nil {
		return errStatus(http.StatusUnprocessableEntity, fmt.Sprintf("incident %s: %v", id, err))
	}
	// A Prometheus that hangs must not hold what ingest needs. Each answer takes its share of
	// the budget and a worker slot only once its headers have come (Admit), for as long as it is
	// read and decoded; the series kept of all the queries take theirs (memory, no slot) for the
	// whole read. And the read first learns that the Prometheus answers at all, holding nothing.
	f, err := metrics.NewFetcher(address, metrics.FetchOptions{MaxBytes: fetchMaxBytes,
		Admit: func(ctx context.Context) (func(), error) { return s.budget.acquire(ctx, costPerByte*fetchMaxBytes) }})
	if err != nil {
		return err
	}
	if err := f.Reach(ctx); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errStatus(http.StatusBadGateway, fmt.Sprintf("Prometheus of cluster %q: %v", st.incident.Cluster, err))
	}
	release, err := s.budget.reserve(ctx, int64(len(s.queries))*keptPerQuery)
	if err != nil {
		return err
	}
	fctx, cancel := context.WithTimeout(ctx, s.cfg.UploadTimeout)
	defer cancel()
	outcomes, err := f.FetchAll(fctx, s.queries, w)
	if err != nil {
		release()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if he := (*httpError)(nil); errors.As(err, &he) {
			return err // no room in the budget for an answer: 503, as for an upload
		}
		return errStatus(http.StatusBadGateway, fmt.Sprintf("Prometheus of cluster %q: %v", st.incident.Cluster, err))
	}
	resp := metricsResponse{Prometheus: shownAddress(address), From: w.From, To: w.To, Step: w.Step.String()}
	for _, o := range outcomes {
		resp.Queries = append(resp.Queries, metricsQuery{Name: o.Query.Name, Series: len(o.Result.Series), Gap: o.Gap})
	}
	files, err := metrics.Files("prometheus", outcomes, w)
	if err != nil {
		release()
		return err
	}
	sp, err := spoolOf(s.spoolDir(), files)
	release() // the snapshot's store takes its own share, as an upload's
	if err != nil {
		return err
	}
	defer sp.remove()
	snap, status, err := s.storeSnapshot(ctx, id, st.incident.Cluster, nil, sp)
	if err != nil {
		return err
	}
	resp.Snapshot = snap
	if status == http.StatusCreated {
		s.log.InfoContext(ctx, "Prometheus read", "incident_id", id, "prometheus", shownAddress(address), "snapshot", snap.Snapshot, "queries", len(outcomes))
		s.refreshSignature(ctx, id, nil) // the series are read against the incident's pods: the whole again
	}
	done(status, resp)
	return nil
}

// prometheusErrorKey carries a refused read's reason to the page.
const prometheusErrorKey = "prometheus_error"

// prometheusForm takes the incident page's "Read metrics" form: the same read as the API's,
// then back to the page, where the metrics are drawn (or to the page with the reason, when the
// read was refused).
func (s *Server) prometheusForm(c *gin.Context) error {
	err := s.readPrometheusInto(c, func(int, metricsResponse) {})
	var he *httpError
	if errors.As(err, &he) && he.Status != http.StatusNotFound && (he.Status < 500 || he.Status == http.StatusBadGateway) {
		c.Set(prometheusErrorKey, he.Msg)
		return s.renderIncident(c, he.Status, incidents.NoteForm{Kind: incident.Observation}, "")
	}
	if err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, "/incidents/"+url.PathEscape(c.Param("id"))+"#pictures")
	return nil
}

// spoolOf spools files made by the server itself (name → bytes) as an upload's.
func spoolOf(dir string, files map[string][]byte) (*spool, error) {
	folder, err := os.MkdirTemp(dir, "upload-")
	if err != nil {
		return nil, fmt.Errorf("spool: %w", err)
	}
	sp := &spool{dir: folder, fields: map[string]string{}}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for i, name := range names {
		b := files[name]
		path := filepath.Join(folder, fmt.Sprintf("%04d", i))
		if err := os.WriteFile(path, b, 0o600); err != nil {
			sp.remove()
			return nil, fmt.Errorf("spool: %w", err)
		}
		sum := sha256.Sum256(b)
		sp.files = append(sp.files, spooledFile{name: name, path: path, sha256: hex.EncodeToString(sum[:]), size: int64(len(b))})
	}
	return sp, nil
}

// shownAddress is a Prometheus's address as answers, pages and logs show it: without the
// password a URL may carry (http://user:pass@host).
func shownAddress(address string) string {
	u, err := url.Parse(address)
	if err != nil {
		return "a Prometheus"
	}
	return u.Redacted()
}

// orWord is s, or word when s is empty.
func orWord(s, word string) string {
	if s == "" {
		return word
	}
	return s
}
