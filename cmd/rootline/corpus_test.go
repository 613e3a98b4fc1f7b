package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// corpusDir is the shared corpus of real kubectl output, read in place (never copied).
const corpusDir = "../../../shared/corpus"

// truth is what SOURCES.md says a corpus file shows: the symptoms an analyzer must find, those
// it may also report (true but secondary), and causes it must not claim (the negative cases).
type truth struct {
	want      []string
	allowed   []string
	notCauses []string
}

var corpusTruth = map[string]truth{
	"01-aks-minecraft-evicted-memory-events.txt":                                    {want: []string{"pod_evicted", "pod_pending"}},
	"04-gitpod-workspace-pod-evicted-diskpressure.json":                             {want: []string{"pod_evicted"}, allowed: []string{"evicted_pods_lingering"}},
	"05-kubeadm-coredns-pending-notready-taint-describe.txt":                        {want: []string{"pod_pending"}, allowed: []string{"container_restarted", "node_not_ready"}},
	"07-k8s-issue115469-liveness-readiness-probe-timeout-events.txt":                {want: []string{"liveness_probe_failed", "readiness_probe_failed"}},
	"09-kube-eventer-issue285-oomkilled-crashloop-describe-fragment.txt":            {want: []string{"oom_killed", "crash_loop_backoff"}, allowed: []string{"container_restarted"}},
	"11-kubescout-get-pods-evicted-memory-besteffort.json":                          {want: []string{"pod_evicted"}, allowed: []string{"evicted_pods_lingering"}},
	"12-kubescout-get-pods-pending-containercreating-scheduled.json":                {},
	"13-kubescout-get-nodes-notready-unknown-unreachable-taint.json":                {want: []string{"node_not_ready"}},
	"15-kubescout-get-pods-unschedulable-insufficient-memory-imagepullbackoff.json": {want: []string{"pod_pending", "image_pull_failed"}},
	"16-starburst-oomkilled-describe-300Mi-limit.txt":                               {want: []string{"oom_killed"}, allowed: []string{"container_restarted", "crash_loop_backoff"}},
	"21-autoscaler-issue5938-triggeredscaleup-failedscheduling-events.txt":          {want: []string{"scale_up", "pod_pending"}},
	"23-k9s-issue174-describe-evicted-pod-memory-over-request.txt":                  {want: []string{"pod_evicted"}, allowed: []string{"evicted_pods_lingering"}},
	"27-k8s-issue105467-evicted-pod-yaml-disruptiontarget-no-reason.yaml":           {want: []string{"pod_evicted"}, allowed: []string{"evicted_pods_lingering"}},
	"31-k8s-issue107899-describe-node-memorypressure-true-low-requests.txt":         {want: []string{"node_pressure"}, notCauses: []string{"node_overcommitted", "capacity_exhaustion"}},
	"35-krane-pr666-events.k8s.io-v1beta1-json-failedscheduling-pvc.json":           {want: []string{"pod_pending"}},
	"38-k8s-issue19825-pod-json-truncated-memtest.json":                             {},
	"43-trivy-dojo-pr24-liveness-probe-connection-refused-killing-events.txt":       {want: []string{"liveness_probe_failed"}},
	"53-kubescout-get-events-crashloop-bad-command-v1-list.json":                    {want: []string{"crash_loop_backoff"}, notCauses: []string{"memory_limit_too_low"}},
}

// Floors the corpus must keep: raise them as the parsers and rules improve, never lower them.
const (
	minRecall    = 0.95
	minPrecision = 0.95
)

// TestCorpus runs the analysis over every corpus file and scores it against the ground truth
// of SOURCES.md: recall over the symptoms expected, precision over the symptoms reported. No
// file may crash the analysis; a file it cannot read yet counts as found nothing.
func TestCorpus(t *testing.T) {
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Skipf("shared corpus not present: %v", err)
	}
	var expected, found, reported, correct int
	var misses []string
	for _, e := range entries {
		name := e.Name()
		tr, ok := corpusTruth[name]
		if !ok {
			continue // postmortems and SOURCES.md: prose, scored by the library's tests
		}
		rep, err := analyzePaths(context.Background(), []string{filepath.Join(corpusDir, name)}, analysis.Options{}, io.Discard)
		var kinds, causes []string
		if err == nil {
			for _, s := range rep.Symptoms {
				if !slices.Contains(kinds, s.Kind) {
					kinds = append(kinds, s.Kind)
				}
			}
			for _, c := range rep.Causes {
				causes = append(causes, c.Kind)
			}
		}
		for _, k := range tr.want {
			expected++
			if slices.Contains(kinds, k) {
				found++
			} else {
				misses = append(misses, name+": "+k)
			}
		}
		for _, k := range kinds {
			reported++
			if slices.Contains(tr.want, k) || slices.Contains(tr.allowed, k) {
				correct++
			} else {
				t.Logf("%s: reported %s, which the ground truth does not show", name, k)
			}
		}
		for _, c := range tr.notCauses {
			if slices.Contains(causes, c) {
				t.Errorf("%s: claims cause %s, which the ground truth rules out", name, c)
			}
		}
	}
	recall := float64(found) / float64(max(expected, 1))
	precision := float64(correct) / float64(max(reported, 1))
	sort.Strings(misses)
	t.Logf("corpus: recall %.2f (%d of %d expected symptoms), precision %.2f (%d of %d reported)", recall, found, expected, precision, correct, reported)
	if len(misses) > 0 {
		t.Logf("missed: %s", strings.Join(misses, "; "))
	}
	if recall < minRecall {
		t.Errorf("recall %.2f below %.2f", recall, minRecall)
	}
	if precision < minPrecision {
		t.Errorf("precision %.2f below %.2f", precision, minPrecision)
	}
}
