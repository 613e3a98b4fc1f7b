package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/kube/kubetest"
	"github.com/rootline-dev/rootline/internal/server"
	"github.com/rootline-dev/rootline/internal/synth"
)

// kinds reads the symptom and cause kinds of an analysis in CONTRACT.md's JSON.
func kinds(t *testing.T, raw []byte) []string {
	t.Helper()
	var rep struct {
		Symptoms []struct{ Kind, Summary string }
		Causes   []struct{ Kind, Role, Summary string }
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatalf("%v: %.300s", err, raw)
	}
	var out []string
	for _, s := range rep.Symptoms {
		out = append(out, "symptom "+s.Kind+": "+s.Summary)
	}
	for _, c := range rep.Causes {
		out = append(out, "cause "+c.Kind+" ("+c.Role+"): "+c.Summary)
	}
	return out
}

// TestSnapshotCommand: `rootline snapshot` of a cluster holding the IL-0070 objects writes a
// folder that `rootline analyze` reads to the findings of the original files, and uploads it
// to a server, where the new incident's analysis says the same.
func TestSnapshotCommand(t *testing.T) {
	t.Parallel()
	objs, err := synth.IL0070Objects("evicted")
	if err != nil {
		t.Fatal(err)
	}
	client := fake.NewClientset(objs...)

	ctx := context.Background()
	st := testStore(t, "")
	cfg, _ := config.Default(func(string) string { return "" })
	srv := server.New(cfg, server.StoreDeps(st, nil))
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()

	dir := filepath.Join(t.TempDir(), "snap")
	var stdout, stderr bytes.Buffer
	o := snapshotOptions{out: dir, pageSize: 50, upload: uploadOptions{server: ts.URL, title: "IL-0070 live"}}
	if err := takeSnapshot(ctx, o, true, kubetest.Client(client), &stdout, &stderr); err != nil {
		t.Fatalf("snapshot: %v\n%s", err, stderr.String())
	}
	m := regexp.MustCompile(`created incident (\S+)`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("no incident created: %s", stderr.String())
	}

	want := kinds(t, analyzeJSON(t, fixtures.IL0070Dir()))
	if got := kinds(t, analyzeJSON(t, dir)); !cmp.Equal(want, got) {
		t.Errorf("analyze of the snapshot folder (-files +snapshot):\n%s", cmp.Diff(want, got))
	}
	resp, err := http.Get(ts.URL + "/api/v1/incidents/" + m[1] + "/analysis")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		t.Fatal(err)
	}
	if got := kinds(t, buf.Bytes()); !cmp.Equal(want, got) {
		t.Errorf("the server's analysis of the uploaded snapshot (-files +server):\n%s", cmp.Diff(want, got))
	}
	if len(want) < 5 {
		t.Errorf("IL-0070 gives only %v", want)
	}
}
