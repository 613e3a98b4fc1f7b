package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
)

// AlertStore keeps what Alertmanager's webhook receiver posts.
type AlertStore interface {
	StoreAlerts(ctx context.Context, clusterName string, alerts []alert.Alert, now time.Time) (store.AlertCounts, error)
	// OpenIncident opens in unless the cluster has an open incident (whose id it returns).
	OpenIncident(ctx context.Context, clusterName string, in *incident.Incident) (id string, opened bool, err error)
	// ClusterKnown reports whether the store holds anything of the cluster besides alerts.
	ClusterKnown(ctx context.Context, clusterName string) (bool, error)
}

// Opening incidents from alerts is bounded: only for a cluster Rootline knows (one with a
// Prometheus configured, or of which the store holds an incident, a snapshot or a collector's
// batch: a payload's cluster= is whatever the sender wrote), and at most openBurst at once and
// one per openEvery after, across clusters.
const (
	openEvery = 6 * time.Minute
	openBurst = 10
)

// postAlerts answers POST /api/v1/alerts?cluster=NAME: the payload of an Alertmanager webhook
// receiver (version 4), authenticated and limited like a collector's batch. The payload is
// checked as hostile input (alert.Decode: size, fields, limits; annotations redacted), then its
// alerts are stored at once, in one transaction: a payload delivered again changes nothing, a
// resolved alert closes its row. 200 with the counts; 422 for a payload refused (another
// version, a field Alertmanager never sends, beyond a limit), which Alertmanager does not send
// again; 413 beyond the size limit.
func (s *Server) postAlerts(c *gin.Context) error {
	ctx := c.Request.Context()
	clusterName := c.Query("cluster")
	if clusterName == "" {
		return errStatus(http.StatusBadRequest, "cluster= is required: the name of the cluster the alerts are of")
	}
	if err := incident.ValidateClusterName(clusterName); err != nil {
		return errStatus(http.StatusUnprocessableEntity, err.Error())
	}
	if s.deps.Alerts == nil {
		return errStatus(http.StatusNotFound, "this server keeps no alerts")
	}
	lim := alert.DefaultLimits()
	body := http.MaxBytesReader(c.Writer, c.Request.Body, lim.MaxBytes+1)
	g, err := alert.Decode(body, lim)
	var refused *alert.Error
	var tooLarge *http.MaxBytesError
	switch {
	case errors.Is(err, alert.ErrTooLarge) || errors.As(err, &tooLarge):
		closeUnread(c)
		return errStatus(http.StatusRequestEntityTooLarge, fmt.Sprintf("the payload is larger than %d bytes: lower max_alerts in the webhook_config", lim.MaxBytes))
	case errors.As(err, &refused):
		return errStatus(http.StatusUnprocessableEntity, refused.Msg)
	case err != nil:
		return err
	}
	n, err := s.deps.Alerts.StoreAlerts(ctx, clusterName, g.Alerts, time.Now()) // run again by the store when it collides
	if err != nil {
		return err
	}
	s.log.DebugContext(ctx, "alerts stored", "cluster", clusterName, "receiver", g.Receiver, "new", n.New, "resolved", n.Resolved, "updated", n.Updated, "known", n.Known,
		"truncated", g.TruncatedAlerts)
	opened, err := s.openIncident(ctx, clusterName, g.Alerts)
	if err != nil {
		return err
	}
	for _, a := range g.Alerts {
		s.metrics.alerts.WithLabelValues(a.Status).Inc()
	}
	if n.Refused > 0 {
		s.log.WarnContext(ctx, "alerts refused: the cluster holds as many alerts as it may until retention expires the old",
			"cluster", clusterName, "refused", n.Refused, "max_alerts", store.MaxClusterAlerts, "max_bytes", store.MaxClusterAlertBytes)
	}
	for outcome, k := range map[string]int{"new": n.New, "resolved": n.Resolved, "updated": n.Updated, "known": n.Known, "refused": n.Refused} {
		s.metrics.alertOutcomes.WithLabelValues(outcome).Add(float64(k))
	}
	c.JSON(http.StatusOK, alertsResponse{New: n.New, Resolved: n.Resolved, Known: n.Known, Updated: n.Updated, Refused: n.Refused, Opened: opened})
	return nil
}

// openIncident opens an incident of the cluster for the first firing alert that
// --open-incidents-for picks, when the cluster has no open incident, so that evidence gathers
// while the incident is live: titled from the alert, started when it started. It returns the
// new incident's id ("" when none was opened). An incident made for the same firing before,
// and closed since, is not opened again.
func (s *Server) openIncident(ctx context.Context, clusterName string, alerts []alert.Alert) (string, error) {
	for _, a := range alerts {
		if a.Status != alert.Firing || !s.openFor.Matches(a.Labels) {
			continue
		}
		ok, err := s.clusterKnown(ctx, clusterName)
		if err != nil {
			return "", err
		}
		if !ok {
			s.log.WarnContext(ctx, "no incident opened for a firing alert: Rootline knows nothing of its cluster (no Prometheus configured for it, no incident, snapshot or collector's batch of it)",
				"cluster", clusterName, "alert", a.Fingerprint)
			return "", nil
		}
		start := a.StartsAt.UTC()
		in := &incident.Incident{ID: alertIncidentID(clusterName, a), Title: alertIncidentTitle(a), StartedAt: &start, Cluster: clusterName}
		if err := in.Validate(); err != nil {
			// The alerts are stored; an alert whose title an incident cannot take opens none.
			s.log.WarnContext(ctx, "no incident opened for a firing alert", "cluster", clusterName, "alert", a.Fingerprint, "error", err)
			return "", nil
		}
		// The bound is spent only by an incident opened: firings of a cluster with an open
		// incident spend nothing. One opening at a time, so that the bound is exact.
		s.openingMu.Lock()
		if s.opening.Tokens() < 1 {
			s.openingMu.Unlock()
			s.log.WarnContext(ctx, "no incident opened for a firing alert: incidents are opened from alerts at most "+fmt.Sprint(openBurst)+" at once and one every "+openEvery.String()+" after",
				"cluster", clusterName, "alert", a.Fingerprint)
			return "", nil
		}
		id, opened, err := s.deps.Alerts.OpenIncident(ctx, clusterName, in)
		if err == nil && opened {
			s.opening.Allow()
		}
		s.openingMu.Unlock()
		switch {
		case errors.Is(err, store.ErrExists):
			return "", nil
		case err != nil:
			return "", err
		case !opened:
			s.log.DebugContext(ctx, "the cluster has an open incident: none opened for the alert", "cluster", clusterName, "incident", id)
			return "", nil
		}
		s.log.InfoContext(ctx, "incident opened for a firing alert", "cluster", clusterName, "incident", id, "alert", a.Labels["alertname"])
		return id, nil
	}
	return "", nil
}

// clusterKnown reports whether Rootline knows the cluster: a Prometheus is configured for it,
// or the store holds something of it besides alerts.
func (s *Server) clusterKnown(ctx context.Context, clusterName string) (bool, error) {
	if _, ok := s.prometheus[clusterName]; ok {
		return true, nil
	}
	return s.deps.Alerts.ClusterKnown(ctx, clusterName)
}

// alertIncidentID names the incident a firing opens: its cluster, the day and time it started
// and its fingerprint, so that the same firing never opens two, and the same firing in two
// clusters opens one in each. A cluster's name may hold characters an id may not (: / @), and
// be long: those are made "-" and the name cut, with a hash of the whole name when either
// happened, so that two clusters never share an id.
func alertIncidentID(clusterName string, a alert.Alert) string {
	fp := a.Fingerprint
	if len(fp) > 12 {
		fp = fp[:12]
	}
	return "alert-" + clusterSlug(clusterName) + "-" + a.StartsAt.UTC().Format("20060102-1504") + "-" + fp
}

// clusterSlug is a cluster's name as a part of an incident id: at most 20 characters.
func clusterSlug(name string) string {
	const most = 20
	slug := []byte(name)
	for i, c := range slug {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			slug[i] = '-'
		}
	}
	if string(slug) == name && len(slug) <= most {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	return string(slug[:min(len(slug), most-7)]) + "-" + hex.EncodeToString(sum[:3])
}

// alertIncidentTitle is the alert's name and its summary (or description).
func alertIncidentTitle(a alert.Alert) string {
	title := a.Labels["alertname"]
	if title == "" {
		title = "Alert " + a.Fingerprint
	}
	for _, k := range []string{"summary", "description"} {
		if v := strings.TrimSpace(a.Annotations[k]); v != "" {
			title += ": " + v
			break
		}
	}
	title = strings.Join(strings.Fields(title), " ")
	if len(title) > incident.MaxTitle {
		cut := incident.MaxTitle - len("…")
		for cut > 0 && !utf8.RuneStart(title[cut]) {
			cut--
		}
		title = title[:cut] + "…"
	}
	return title
}

// alertsResponse answers a webhook payload: what it changed.
type alertsResponse struct {
	New      int `json:"new"`      // firings not stored before
	Resolved int `json:"resolved"` // firings closed by this payload
	Known    int `json:"known"`    // alerts as stored already (a payload delivered again)
	Updated  int `json:"updated"`  // firings whose annotations changed since they were stored
	// Refused are new alerts not stored: the cluster holds as many alerts as it may.
	Refused int `json:"refused,omitempty"`
	// Opened is the incident a firing alert opened (--open-incidents-for).
	Opened string `json:"opened,omitempty"`
}
