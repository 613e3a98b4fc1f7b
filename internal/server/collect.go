package server

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/collect"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/ingest"
)

// postEvents answers POST /api/v1/events?cluster=NAME: a batch from `rootline collect`, a
// List (or JSON Lines) of Events, Pods and Nodes, and of the workloads and ConfigMaps whose
// compared fields changed, as the API server gave them. It goes through
// ingestion like any upload (limits, redaction, Secrets refused), then is stored at once:
// events upserted, pod and node states kept once per version, so that a batch delivered again
// changes nothing. 200 with the counts. Like an upload, it is received whole into the spool
// first, then waits for its share of the memory budget.
func (s *Server) postEvents(c *gin.Context) error {
	ctx := c.Request.Context()
	clusterName := c.Query("cluster")
	if clusterName == "" {
		return errStatus(http.StatusBadRequest, "cluster= is required: the name of the cluster the batch comes from")
	}
	if err := incident.ValidateClusterName(clusterName); err != nil {
		return errStatus(http.StatusUnprocessableEntity, err.Error())
	}
	sp, err := receive(c.Writer, c.Request, s.spoolDir(), s.cfg.MaxUploadBytes, nil)
	if err != nil {
		return err
	}
	defer sp.remove()
	if len(sp.files) != 1 {
		return errStatus(http.StatusUnprocessableEntity, "empty batch: send a List or JSON Lines of Events, Pods and Nodes")
	}
	release, err := s.budget.acquire(ctx, sp.cost(s.cfg.MaxDecodedBytes))
	if err != nil {
		return err
	}
	defer release()
	ctx, cancel := context.WithTimeout(ctx, s.cfg.UploadTimeout)
	defer cancel()
	f, err := os.Open(sp.files[0].path)
	if err != nil {
		return fmt.Errorf("open spooled batch: %w", err)
	}
	defer f.Close()
	var objs []*cluster.Object
	dec := ingest.NewDecoder(ingest.Options{MaxBytes: s.cfg.MaxDecodedBytes})
	err = dec.Decode(ctx, "batch", f, func(o *cluster.Object) error {
		collect.TakeObservedAt(o) // when the collector saw it, as provenance, not as an annotation stored
		objs = append(objs, o)
		return nil
	})
	if err != nil {
		return err
	}
	n, err := s.deps.Collected.StoreCollected(ctx, clusterName, objs, time.Now()) // run again by the store when it collides
	if err != nil {
		return err
	}
	for _, o := range objs {
		s.metrics.collected.WithLabelValues(o.Kind).Inc()
	}
	s.log.DebugContext(ctx, "collected batch stored", "cluster", clusterName, "events", n.Events, "states", n.States, "known", n.Known)
	c.JSON(http.StatusOK, collectedResponse{Events: n.Events, States: n.States, Known: n.Known, Ignored: n.Ignored})
	return nil
}

// collectedResponse answers a collector's batch: what it stored.
type collectedResponse struct {
	Events  int `json:"events"`  // events new or changed (a higher count, a wider time span)
	States  int `json:"states"`  // new states of pods, nodes, workloads and ConfigMaps
	Known   int `json:"known"`   // states already stored (a batch delivered again)
	Ignored int `json:"ignored"` // objects of other kinds
}
