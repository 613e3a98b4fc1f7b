// Package retention runs the expiry of raw evidence in the background: every so often, what
// was stored before the retention age is deleted (see store.Expire), so that the database does
// not grow without bound. Every server runs it; expiry is idempotent, so replicas need no
// coordination.
package retention

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/rootline-dev/rootline/internal/store"
)

// Expirer deletes what was stored before now-age.
type Expirer interface {
	Expire(ctx context.Context, now time.Time, age time.Duration) (store.Expired, error)
}

// Loop expires evidence at start and then every period (give or take a tenth, so that replicas
// started together spread out), until ctx ends. An age of 0 keeps everything, but the loop
// still runs: expiry also prepares the next days' event partitions.
type Loop struct {
	Expirer Expirer
	Age     time.Duration
	Every   time.Duration
	Log     *slog.Logger
	Now     func() time.Time // time.Now when nil
}

// Run runs the loop until ctx ends.
func (l Loop) Run(ctx context.Context) {
	now := l.Now
	if now == nil {
		now = time.Now
	}
	for {
		l.once(ctx, now())
		jitter := time.Duration(rand.Int64N(int64(l.Every)/5+1)) - l.Every/10
		t := time.NewTimer(l.Every + jitter)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

func (l Loop) once(ctx context.Context, now time.Time) {
	start := time.Now()
	n, err := l.Expirer.Expire(ctx, now, l.Age)
	switch {
	case err != nil && ctx.Err() != nil:
	case err != nil:
		l.Log.Error("retention: expiry failed; it runs again later", "err", err)
	case n != store.Expired{}:
		l.Log.Info("retention: expired raw evidence", "older_than", now.Add(-l.Age).UTC().Format(time.RFC3339),
			"event_days", n.EventDays, "events", n.Events, "snapshots", n.Snapshots, "states", n.States, "alerts", n.Alerts, "took", time.Since(start).String())
	default:
		l.Log.Debug("retention: nothing expired", "took", time.Since(start).String())
	}
}
