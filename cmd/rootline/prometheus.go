package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/kube"
	"github.com/rootline-dev/rootline/internal/metrics"
)

// readPrometheus runs the range queries on o.prometheus over the window of the events the
// snapshot in dir captured (with metrics' margins, up to now) and writes the answers into
// dir/prometheus: one saved answer a query with series, and queries.json naming each query,
// or saying why it gave nothing. It returns the files written and their series.
func readPrometheus(ctx context.Context, o snapshotOptions, dir string, stderr io.Writer) (map[string]int, error) {
	queries := metrics.DefaultQueries()
	if o.queries != "" {
		q, err := metrics.LoadQueries(o.queries)
		if err != nil {
			return nil, err
		}
		queries = q
	}
	from, to, err := eventSpan(ctx, dir)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	if from.IsZero() { // no events: the hour the API server keeps them for
		from, to = now.Add(-time.Hour), now
	}
	w, err := metrics.WindowFor(from, to, now)
	if err != nil {
		return nil, err
	}
	if w, err = w.WithStep(o.step); err != nil {
		return nil, err
	}
	f, err := metrics.NewFetcher(o.prometheus, metrics.FetchOptions{})
	if err != nil {
		return nil, err
	}
	outcomes, err := f.FetchAll(ctx, queries, w)
	if err != nil {
		return nil, fmt.Errorf("prometheus %s: %w", o.prometheus, err)
	}
	files, err := metrics.Files("prometheus", outcomes, w)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "prometheus"), 0o755); err != nil {
		return nil, err
	}
	written := map[string]int{}
	for name, b := range files {
		if err := writeWhole(filepath.Join(dir, filepath.FromSlash(name)), b); err != nil {
			return nil, err
		}
		written[name] = 0
	}
	for _, o := range outcomes {
		if o.Gap != "" {
			fmt.Fprintf(stderr, "prometheus: %s: %s\n", o.Query.Name, o.Gap)
			continue
		}
		written["prometheus/"+o.Query.Name+".json"] = len(o.Result.Series)
	}
	written["prometheus/queries.json"] = len(outcomes)
	return written, nil
}

// eventSpan is the time the events of a snapshot folder span (zero when it holds none).
func eventSpan(ctx context.Context, dir string) (from, to time.Time, err error) {
	dec := ingest.NewDecoder(ingest.Options{})
	for _, name := range []string{kube.EventsFile, kube.EventsV1File} {
		f, err := os.Open(filepath.Join(dir, name))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return from, to, err
		}
		err = dec.Decode(ctx, name, f, func(o *cluster.Object) error {
			if o.Event == nil {
				return nil
			}
			at := cluster.EventTime(o)
			if at.IsZero() {
				return nil
			}
			if from.IsZero() || at.Before(from) {
				from = at
			}
			if at.After(to) {
				to = at
			}
			return nil
		})
		f.Close()
		if err != nil {
			return from, to, fmt.Errorf("the snapshot's %s: %w", name, err)
		}
	}
	return from, to, nil
}

// writeWhole writes a file aside and renames it, so that it appears whole or not at all.
func writeWhole(path string, b []byte) error {
	tmp := path + ".part"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
