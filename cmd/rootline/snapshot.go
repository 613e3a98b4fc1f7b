package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/rootline-dev/rootline/internal/kube"
)

type snapshotOptions struct {
	target    kube.Target
	namespace string
	out       string
	pageSize  int64
	upload    uploadOptions
	// prometheus is the Prometheus to read the evidence's window of (--prometheus), queries
	// the file of its queries (--prometheus-queries; "" for the default ones).
	prometheus, queries string
	step                time.Duration // --prometheus-step; 0: about 500 points a series
}

func newSnapshotCmd() *cobra.Command {
	var o snapshotOptions
	cmd := &cobra.Command{
		Use:   "snapshot",
		Short: "Capture a live cluster's nodes, pods, events and workloads, to files or a server",
		Long: `Capture what an analysis needs from a live cluster, read-only (get and list): nodes, pods and
events of every namespace (or --namespace), events from both the v1 and the events.k8s.io/v1
APIs, the ReplicaSets, Deployments, StatefulSets, DaemonSets, Jobs and CronJobs that own the
pods (and the earlier ReplicaSets and ControllerRevisions of each, which tell its rollouts),
cluster-autoscaler's status ConfigMap, and the other ConfigMaps as their keys and the hash of
each value (never the value: two snapshots compare them). Lists are read in pages (--page-size), so
large clusters take memory for one page at a time.

The cluster is the kubeconfig's current context (--kubeconfig, $KUBECONFIG, ~/.kube/config;
--context for another), or the pod's own service account when run in a cluster without a
kubeconfig. Kinds the credentials may not read are skipped with a warning.

--out DIR writes kubectl-compatible JSON files (` + strings.Join([]string{kube.NodesFile, kube.PodsFile, kube.EventsFile,
			kube.EventsV1File, kube.WorkloadsFile, kube.AutoscalerFile, kube.ConfigMapsFile}, ", ") + `), which
'rootline analyze DIR' and 'rootline upload' read. --server (or --incident) uploads them to a
Rootline server as one snapshot, of --incident or of a new incident. Both may be given.

Exit codes: 0 captured, 1 the cluster could not be read or a file not written, 2 wrong usage,
and for the upload 3 server unreachable, 4 refused, 5 server error.`,
		Example: `  rootline snapshot --out incident-2023-02-01/
  rootline snapshot --context leap --namespace prod --incident IL-0070 --server https://rootline.example.org`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f := cmd.Flags()
			if o.upload.token == "" {
				o.upload.token = os.Getenv("ROOTLINE_TOKEN")
			}
			uploading := f.Changed("server") || f.Changed("incident")
			if !f.Changed("server") && os.Getenv("ROOTLINE_SERVER") != "" {
				o.upload.server = os.Getenv("ROOTLINE_SERVER")
			}
			if o.out == "" && !uploading {
				return usageError{fmt.Errorf("say where the snapshot goes: --out DIR, --server URL or --incident ID")}
			}
			o.upload.progress = term.IsTerminal(int(os.Stderr.Fd()))
			return takeSnapshot(cmd.Context(), o, uploading, nil, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.target.Kubeconfig, "kubeconfig", "", "kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)")
	f.StringVar(&o.target.Context, "context", "", "kubeconfig context (default: the current one)")
	f.StringVarP(&o.namespace, "namespace", "n", "", "read pods, events and workloads of this namespace only (nodes are always read)")
	f.StringVar(&o.out, "out", "", "folder to write the files into (created when missing)")
	f.Int64Var(&o.pageSize, "page-size", 500, "items per list request")
	f.StringVar(&o.upload.server, "server", "http://127.0.0.1:8080", "Rootline server to upload to (env ROOTLINE_SERVER)")
	f.StringVar(&o.upload.incident, "incident", "", "incident to attach the snapshot to (default with --server: create one)")
	f.StringVar(&o.upload.cluster, "cluster", "", "cluster name for Rootline (default: the kubeconfig context's name)")
	f.StringVar(&o.upload.token, "token", "", "API token of the Rootline server (env ROOTLINE_TOKEN)")
	f.StringVar(&o.upload.title, "title", "", "title of the incident created when --incident is not given")
	f.StringVar(&o.prometheus, "prometheus", "", "also read this Prometheus (http://host:9090) over the window of the captured events, into prometheus/ of the snapshot")
	f.DurationVar(&o.step, "prometheus-step", 0, "step of the range queries; 0 divides the window into about 500 points")
	f.StringVar(&o.queries, "prometheus-queries", "", "JSON file of the range queries to run instead of the default ones: [{\"name\", \"query\", \"what\"}]")
	return cmd
}

// takeSnapshot captures the cluster (client, when given, instead of the kubeconfig's) into
// o.out or a temporary folder, then uploads it when asked.
func takeSnapshot(ctx context.Context, o snapshotOptions, uploading bool, client kube.Client, stdout, stderr io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if o.pageSize <= 0 {
		return usageError{fmt.Errorf("--page-size must be positive")}
	}
	var err error
	client, o.upload.cluster, err = clusterClient(o.target, client, o.upload.cluster)
	if err != nil {
		return err
	}
	dir := o.out
	if dir == "" {
		tmp, err := os.MkdirTemp("", "rootline-snapshot-")
		if err != nil {
			return &exitError{exitFailure, err}
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	progress := func(string, int) {}
	if o.upload.progress {
		progress = func(file string, n int) { fmt.Fprintf(stderr, "\r%s: %d items ", file, n) }
	}
	res, err := kube.Snapshot(ctx, client, dir, kube.SnapshotOptions{Namespace: o.namespace, PageSize: o.pageSize, Progress: progress})
	if o.upload.progress {
		fmt.Fprint(stderr, "\r\033[K")
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	if err != nil {
		return &exitError{exitFailure, fmt.Errorf("snapshot of %s: %w", o.upload.cluster, err)}
	}
	if o.prometheus != "" {
		n, err := readPrometheus(ctx, o, dir, stderr)
		if err != nil {
			return &exitError{exitFailure, err}
		}
		for name, c := range n {
			res.Files[name] = c
		}
	}
	names := make([]string, 0, len(res.Files))
	for name := range res.Files {
		names = append(names, name)
	}
	sort.Strings(names)
	var parts []string
	for _, name := range names {
		parts = append(parts, fmt.Sprintf("%s %d", name, res.Files[name]))
	}
	where := dir
	if o.out == "" {
		where = "a temporary folder"
	}
	fmt.Fprintf(stderr, "snapshot of %s written to %s: %s\n", o.upload.cluster, where, strings.Join(parts, ", "))
	if !uploading {
		return nil
	}
	if o.upload.title == "" {
		o.upload.title = "Snapshot of " + o.upload.cluster
	}
	return upload(ctx, o.upload, []string{dir}, stdout, stderr)
}

// clusterClient returns a client of the target's cluster and the cluster's name in Rootline:
// name when given, else the kubeconfig context's. A client given (tests) is used as it is, and
// the cluster is then "test" unless named.
func clusterClient(target kube.Target, client kube.Client, name string) (kube.Client, string, error) {
	contextName := "test"
	if client == nil {
		cfg, n, err := kube.Config(target)
		if err != nil {
			return nil, "", &exitError{exitFailure, err}
		}
		if client, err = kube.NewClient(cfg); err != nil {
			return nil, "", &exitError{exitFailure, err}
		}
		contextName = n
	}
	if name == "" {
		name = contextName
	}
	return client, name, nil
}
