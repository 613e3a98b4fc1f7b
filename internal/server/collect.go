package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/wire"
)

// postEvents answers POST /api/v1/events?cluster=NAME: a batch from `rootline collect`
// (wire.ContentType): Events, Pods and Nodes, and the workloads and ConfigMaps whose compared
// fields changed, as the API server gave them, each with when the collector saw it. A body of
// another type (a List or JSON Lines of objects, as a script posts) is read as an upload, its
// objects seen when it is received. Each object goes through
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
	dec := ingest.NewDecoder(ingest.Options{MaxBytes: s.cfg.MaxDecodedBytes, ValueKey: s.deps.ValueKey})
	keep := func(o *cluster.Object) error {
		objs = append(objs, o)
		return nil
	}
	if c.ContentType() == wire.ContentType {
		err = decodeBatch(ctx, dec, f, keep)
	} else {
		err = dec.Decode(ctx, "batch", f, keep)
	}
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

// decodeBatch reads a collector's batch: the items' objects are ingested as an upload's would
// be, and each carries, as its provenance, when the collector saw it (to the microsecond, as
// databases keep times) and whether it saw it deleted. A body that is not a batch is a 422.
func decodeBatch(ctx context.Context, dec *ingest.Decoder, r io.Reader, keep func(*cluster.Object) error) error {
	lines := &batchLines{r: wire.NewReader(r)}
	err := dec.Decode(ctx, "batch", lines, func(o *cluster.Object) error {
		it, ok := lines.item(int(o.Source.Line))
		if !ok {
			return fmt.Errorf("collected %s %s/%s on line %d, which no item of the batch is", o.Kind, o.Namespace, o.Name, o.Source.Line)
		}
		o.Source.ObservedAt = cluster.Observed(it.ObservedAt.UTC().Truncate(time.Microsecond))
		o.Source.Deleted = it.Deleted
		return keep(o)
	})
	if lines.err != nil { // the batch itself is at fault, whatever ingest made of it
		return errStatus(http.StatusUnprocessableEntity, lines.err.Error())
	}
	return err
}

// batchLines is a batch as ingest reads it: JSON Lines, the object of item n on line n, so that
// one pass of one decoder reads them all (a decoder an item would cost its buffers, some
// 140 KB, every item), and each object it emits finds its item by its line.
type batchLines struct {
	r    *wire.Reader
	line []byte // the line being read
	off  int    // how much of it was read
	err  error  // the batch's own fault

	mu    sync.Mutex  // ingest may read ahead of what it emits, in another goroutine
	items []wire.Item // of the lines so far, without their objects
}

func (b *batchLines) Read(p []byte) (int, error) {
	for b.off == len(b.line) {
		it, err := b.r.Next()
		if err != nil {
			if err != io.EOF {
				b.err = err
			}
			return 0, err
		}
		b.line, b.off = b.line[:0], 0
		if bytes.ContainsAny(it.Object, "\r\n") { // written over lines (by hand): one line
			var buf bytes.Buffer
			if err := json.Compact(&buf, it.Object); err != nil {
				b.err = err
				return 0, err
			}
			b.line = append(b.line, buf.Bytes()...)
		} else {
			b.line = append(b.line, it.Object...)
		}
		b.line = append(b.line, '\n')
		it.Object = nil
		b.mu.Lock()
		b.items = append(b.items, it)
		b.mu.Unlock()
	}
	n := copy(p, b.line[b.off:])
	b.off += n
	return n, nil
}

// item is the item of line n (from 1).
func (b *batchLines) item(n int) (wire.Item, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n < 1 || n > len(b.items) {
		return wire.Item{}, false
	}
	return b.items[n-1], true
}

// collectedResponse answers a collector's batch: what it stored.
type collectedResponse struct {
	Events  int `json:"events"`  // events new or changed (a higher count, a wider time span)
	States  int `json:"states"`  // new states of pods, nodes, workloads and ConfigMaps
	Known   int `json:"known"`   // states already stored (a batch delivered again)
	Ignored int `json:"ignored"` // objects of other kinds
}
