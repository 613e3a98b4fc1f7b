package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/spf13/cobra"

	"github.com/rootline-dev/rootline/internal/collect"
	"github.com/rootline-dev/rootline/internal/kube"
)

type collectOptions struct {
	target     kube.Target
	namespace  string
	server     string
	token      string
	cluster    string
	listen     string
	spoolDir   string
	spoolBytes int64
	batchSize  int
	flushEvery time.Duration
	drain      time.Duration
	logLevel   string
}

func newCollectCmd() *cobra.Command {
	var o collectOptions
	cmd := &cobra.Command{
		Use:   "collect",
		Short: "Watch a live cluster and stream its events, pod and node changes to a Rootline server",
		Long: `Watch a live cluster, read-only (list and watch), and stream to a Rootline server what
happens in it, so that it outlives the API server's one-hour event retention:

  - events, when they appear and each time they are updated (count and last time grow in place);
  - pods and nodes, when they appear and whenever their state changes (phase, reason,
    readiness, restarts, container waits and terminations, node conditions, taints);
  - Deployments, StatefulSets, DaemonSets, ReplicaSets, ConfigMaps and nodes, when they appear
    and whenever a field the server compares for what changed does (a template's images,
    commands, env names, requests, limits, probes, placement; replicas; a node's labels,
    taints, cordon and capacity; a ConfigMap's keys and the hash of each value: values are
    hashed before they leave the collector), never on status churn. A kind the collector may
    not list is left out with a warning. A node deleted is sent as it was last, marked deleted.

Batches (--batch-size objects, or what --flush-every gathered) are written to a spool folder
first and then posted to --server, in order, with retries that wait longer while the server
is away. Nothing is lost over a server restart or a collector restart: the spool is delivered
when the server is back, and the server stores every batch idempotently. The spool is bounded
(--spool-bytes): past it the oldest batches are dropped and counted in
rootline_collector_objects_dropped_total.

The collector serves /healthz and /metrics on --listen. SIGTERM or Ctrl-C stop it: it spools
what it holds and goes on delivering for --drain.`,
		Example: `  rootline collect --server https://rootline.example.org --cluster leap
  ROOTLINE_TOKEN=… rootline collect --context prod --spool-dir /var/lib/rootline/spool`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.token == "" {
				o.token = os.Getenv("ROOTLINE_TOKEN")
			}
			if !cmd.Flags().Changed("server") && os.Getenv("ROOTLINE_SERVER") != "" {
				o.server = os.Getenv("ROOTLINE_SERVER")
			}
			return runCollect(cmd.Context(), o, nil)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.target.Kubeconfig, "kubeconfig", "", "kubeconfig file (default: $KUBECONFIG, then ~/.kube/config; in a pod, its service account)")
	f.StringVar(&o.target.Context, "context", "", "kubeconfig context (default: the current one)")
	f.StringVarP(&o.namespace, "namespace", "n", "", "watch pods and events of this namespace only (nodes are always watched)")
	f.StringVar(&o.server, "server", "http://127.0.0.1:8080", "Rootline server (env ROOTLINE_SERVER)")
	f.StringVar(&o.token, "token", "", "API token of the Rootline server (env ROOTLINE_TOKEN)")
	f.StringVar(&o.cluster, "cluster", "", "cluster name in Rootline (default: the kubeconfig context's name)")
	f.StringVar(&o.listen, "listen", "127.0.0.1:9090", "address of /healthz and /metrics (\"\" for none)")
	f.StringVar(&o.spoolDir, "spool-dir", defaultSpoolDir(), "folder where batches wait for delivery")
	f.Int64Var(&o.spoolBytes, "spool-bytes", 256<<20, "bound of the spool in bytes; past it the oldest batches are dropped")
	f.IntVar(&o.batchSize, "batch-size", 500, "objects per batch")
	f.DurationVar(&o.flushEvery, "flush-every", 2*time.Second, "longest time an object waits before its batch is spooled")
	f.DurationVar(&o.drain, "drain", 10*time.Second, "how long to go on delivering after SIGTERM")
	f.StringVar(&o.logLevel, "log-level", "info", "debug, info, warn or error (logs go to stderr as JSON)")
	return cmd
}

func defaultSpoolDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "rootline", "spool")
	}
	return filepath.Join(os.TempDir(), "rootline-spool")
}

// runCollect runs the collector until SIGINT or SIGTERM (or ctx ends). client, when given,
// replaces the kubeconfig's (tests).
func runCollect(parent context.Context, o collectOptions, client kube.Client) error {
	if parent == nil {
		parent = context.Background()
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		return usageError{fmt.Errorf("--log-level %q: use debug, info, warn or error", o.logLevel)}
	}
	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	var err error
	client, o.cluster, err = clusterClient(o.target, client, o.cluster)
	if err != nil {
		return err
	}
	sender, err := collect.NewHTTPSender(o.server, o.cluster, o.token)
	if err != nil {
		return usageError{err}
	}
	metrics := collect.NewMetrics()
	c, err := collect.New(client, collect.Options{Namespace: o.namespace, BatchSize: o.batchSize, FlushEvery: o.flushEvery,
		SpoolDir: o.spoolDir, SpoolBytes: o.spoolBytes, DrainTimeout: o.drain, Sender: sender, Metrics: metrics, Log: log.With("cluster", o.cluster)})
	if err != nil {
		return &exitError{exitFailure, err}
	}
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if o.listen != "" {
		ln, err := net.Listen("tcp", o.listen)
		if err != nil {
			return &exitError{exitFailure, fmt.Errorf("--listen %s: %w", o.listen, err)}
		}
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", promhttp.HandlerFor(metrics.Registry, promhttp.HandlerOpts{}))
		mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			select {
			case <-c.Synced():
				fmt.Fprintln(w, `{"status":"ok"}`)
			default:
				w.WriteHeader(http.StatusServiceUnavailable)
				fmt.Fprintln(w, `{"status":"starting"}`)
			}
		})
		hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go func() {
			if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				log.Error("metrics endpoint stopped", "error", err)
			}
		}()
		defer hs.Close()
		log.Info("serving /healthz and /metrics", "addr", ln.Addr().String())
	}
	log.Info("collecting", "cluster", o.cluster, "server", o.server, "spool", o.spoolDir)
	if err := c.Run(ctx); err != nil {
		return &exitError{exitFailure, err}
	}
	return nil
}
