package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
)

// AlertStore keeps what Alertmanager's webhook receiver posts.
type AlertStore interface {
	StoreAlerts(ctx context.Context, clusterName string, alerts []alert.Alert, now time.Time) (store.AlertCounts, error)
}

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
	s.log.DebugContext(ctx, "alerts stored", "cluster", clusterName, "receiver", g.Receiver, "new", n.New, "resolved", n.Resolved, "known", n.Known,
		"truncated", g.TruncatedAlerts)
	c.JSON(http.StatusOK, alertsResponse{New: n.New, Resolved: n.Resolved, Known: n.Known})
	return nil
}

// alertsResponse answers a webhook payload: what it changed.
type alertsResponse struct {
	New      int `json:"new"`      // firings not stored before
	Resolved int `json:"resolved"` // firings closed by this payload
	Known    int `json:"known"`    // alerts as stored already (a payload delivered again)
}
