package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/server"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// newcomerReadme is a README as people keep one beside the evidence: kubectl words in inline
// code, a PromQL selector, a pods row and a fence of words as examples, and sentences saying
// what they looked for. Read as evidence, it made phantom OOM kills (issue 27).
const newcomerReadme = "# IL-0070: the hub evicted during a scale-up\n\n" +
	"Captured by the on-call engineer with `kubectl get nodes,pods,events -A -o json`.\n\n" +
	"What to look for: a pod status of `OOMKilled`, `Evicted` or `CrashLoopBackOff`; nodes `NotReady`.\n" +
	"We checked for `OOMKilled` and found none.\n\n" +
	"| query | what |\n| --- | --- |\n| `kube_pod_container_status_last_terminated_reason{reason=\"OOMKilled\"}` | OOM kills |\n\n" +
	"An example row: `hub-0   0/1   OOMKilled   4   2m`.\n\n" +
	"The words kubectl prints:\n\n```\nOOMKilled\nEvicted\nCrashLoopBackOff\nImagePullBackOff\n```\n"

// symptomCounts are the kinds and counts of a report's symptoms, sorted: "node_not_ready ×96".
func symptomCounts(t *testing.T, report []byte) []string {
	t.Helper()
	var r struct {
		Symptoms []struct {
			Kind  string `json:"kind"`
			Count int    `json:"count"`
		} `json:"symptoms"`
	}
	if err := json.Unmarshal(report, &r); err != nil {
		t.Fatalf("%v: %.300s", err, report)
	}
	var out []string
	for _, s := range r.Symptoms {
		out = append(out, fmt.Sprintf("%s ×%d", s.Kind, s.Count))
	}
	sort.Strings(out)
	return out
}

// TestUploadNewcomer is the newcomer's path of issue 27 on both databases: `rootline upload`
// of the IL-0070 evicted folder with a README beside the evidence, twice without --incident,
// makes one incident, titled after the folder, and prints its page's address each time; the
// incident's symptoms are exactly those of the evidence without the README, which adds
// claims, no symptom.
func TestUploadNewcomer(t *testing.T) {
	t.Parallel()
	const example = "../../internal/analysis/testdata/il0070/evicted"
	rep, err := analyzePaths(context.Background(), []string{example}, analysis.Options{}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	want := symptomCounts(t, plain)

	dir := filepath.Join(t.TempDir(), "evicted")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"nodes.json", "pods.json", "events.json"} {
		data, err := os.ReadFile(filepath.Join(example, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte(newcomerReadme), 0o644); err != nil {
		t.Fatal(err)
	}

	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		cfg, _ := config.Default(func(string) string { return "" })
		cfg.Auth = "off"
		ts := httptest.NewServer(server.New(cfg, server.StoreDeps(st, nil)).Handler())
		defer ts.Close()
		var pages []string
		for range 2 {
			var stdout, stderr bytes.Buffer
			if err := upload(context.Background(), uploadOptions{server: ts.URL + "/", cluster: "leap"}, []string{dir}, &stdout, &stderr); err != nil {
				t.Fatalf("upload: %v\n%s", err, stderr.String())
			}
			lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
			pages = append(pages, lines[len(lines)-1])
		}
		list, err := st.Incidents(context.Background(), store.IncidentFilter{})
		if err != nil || len(list) != 1 {
			t.Fatalf("incidents after the same folder twice: %d (%v), want 1", len(list), err)
		}
		if !strings.HasPrefix(list[0].Title, "Upload of evicted at ") {
			t.Errorf("title %q, want it to name the folder, not the README first in it", list[0].Title)
		}
		page := ts.URL + "/incidents/" + list[0].ID
		if diff := cmp.Diff([]string{page, page}, pages); diff != "" {
			t.Errorf("the page's address, the last line of each upload (-want +got):\n%s", diff)
		}
		resp, err := http.Get(page)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %v %v", page, resp, err)
		}
		resp.Body.Close()

		resp, err = http.Get(ts.URL + "/api/v1/incidents/" + list[0].ID + "/analysis")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, symptomCounts(t, body)); diff != "" {
			t.Errorf("symptoms with the README beside the evidence (-without +with):\n%s", diff)
		}
		if !bytes.Contains(body, []byte(`"claims":[{"file":"README.md"`)) {
			t.Errorf("the README's sentences are not claims: %.300s", body)
		}
	})
}
