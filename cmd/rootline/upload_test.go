package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
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

// strayFolder writes a folder as people keep one after an incident: evidence (a pods list, a
// describe paste, a list cut short after two pods), and beside it a README, a truth.json of an
// exercise and a binary.
func strayFolder(t *testing.T) string {
	t.Helper()
	pod := func(name string) string {
		return `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "` + name + `", "namespace": "prod", "uid": "uid-` + name + `"},
 "spec": {"nodeName": "node-a"}, "status": {"phase": "Running"}}`
	}
	binary := make([]byte, 16<<10)
	_, _ = rand.NewChaCha8([32]byte{'s', 't', 'r', 'a', 'y'}).Read(binary)
	files := map[string]string{
		"pods.json": `{"apiVersion": "v1", "kind": "List", "items": [` + pod("hub-0") + ",\n" + pod("hub-1") + "]}",
		"describe.txt": `Name:             api-0
Namespace:        prod
Node:             node-b/10.1.0.7
Status:           Running
Containers:
  api:
    State:          Running
    Ready:          True
    Restart Count:  0
Events:           <none>
`,
		"README.md":  "# Outage of the hub\n\nWhat the on-call engineer captured, for the post-mortem.\n",
		"truth.json": `{"expected":["pod_evicted"]}`,
		"random.bin": string(binary),
		// Two pods whole, then a third cut before its name (so not read) whose message still
		// says why it went.
		"cut.json": `{"apiVersion": "v1", "kind": "List", "items": [` + pod("web-0") + ",\n" + pod("web-1") + `,
{"apiVersion": "v1", "kind": "Pod",
 "status": {"phase": "Failed", "reason": "Evicted",
  "message": "The node was low on resource: memory. Container web was using 3Gi, which exceeds its request of 1Gi."`,
	}
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// fileNotes are the "skipped …" and "truncated …" lines of a command's stderr, with the
// folder's path taken out of the file names, sorted.
func fileNotes(stderr, dir string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "skipped ") || strings.HasPrefix(l, "truncated ") {
			out = append(out, strings.Replace(l, dir+string(filepath.Separator), "", 1))
		}
	}
	sort.Strings(out)
	return out
}

// TestAnalyzeAndUploadAgree runs the same folder through `rootline analyze` and `rootline
// upload` to a server (issue 13): both read the same files, skip the same ones with the same
// reasons, and salvage the truncated one alike.
func TestAnalyzeAndUploadAgree(t *testing.T) {
	t.Parallel()
	dir := strayFolder(t)
	ctx := context.Background()

	var analyzeErr bytes.Buffer
	rep, err := analyzePaths(ctx, []string{dir}, analysis.Options{}, &analyzeErr)
	if err != nil {
		t.Fatalf("analyze: %v", err)
	}

	cfg, err := config.Default(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(server.New(cfg, server.StoreDeps(testStore(t, ""), nil)).Handler())
	defer ts.Close()
	var stdout, uploadErr bytes.Buffer
	if err := upload(ctx, uploadOptions{server: ts.URL, title: "strays", asJSON: true}, []string{dir}, &stdout, &uploadErr); err != nil {
		t.Fatalf("upload: %v\n%s", err, uploadErr.String())
	}

	analyzed, uploaded := fileNotes(analyzeErr.String(), dir), fileNotes(uploadErr.String(), dir)
	if diff := cmp.Diff(analyzed, uploaded); diff != "" {
		t.Errorf("analyze and upload differ on the files they skip or cut (-analyze +upload):\n%s", diff)
	}
	var names []string
	for _, n := range analyzed {
		what, rest, _ := strings.Cut(n, " ")
		file, _, _ := strings.Cut(rest, ":")
		names = append(names, what+" "+file)
	}
	want := []string{"skipped README.md", "skipped random.bin", "skipped truth.json", "truncated cut.json"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("files skipped and cut (-want +got):\n%s\nstderr of analyze:\n%s", diff, analyzeErr.String())
	}
	if len(analyzed) > 0 && !strings.Contains(analyzed[len(analyzed)-1], "kept 2 objects before the cut and 1 signal phrase after the last of them") {
		t.Errorf("the truncated file was not salvaged as expected: %s", analyzed[len(analyzed)-1])
	}

	// The same objects: five pods (two of pods.json, one described, two whole in cut.json) and
	// the eviction phrase after the cut.
	var answer struct {
		Objects   map[string]int `json:"objects"`
		Truncated []string       `json:"truncated"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &answer); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	if rep.Inputs.Files != 3 || rep.Inputs.Pods != 5 || answer.Objects["Pod"] != 5 || rep.Inputs.Events != 1 || answer.Objects["Event"] != 1 {
		t.Errorf("analyze read %+v, the server stored %v; want 3 files, 5 pods and 1 event both ways", rep.Inputs, answer.Objects)
	}
	if diff := cmp.Diff([]string{"cut.json"}, answer.Truncated); diff != "" {
		t.Errorf("truncated in the answer (-want +got):\n%s", diff)
	}
}

// TestCollectFiles: from a folder, upload sends every regular file, whatever its name, but
// hidden files and folders and symbolic links (noted on stderr).
func TestCollectFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, name := range []string{"pods.json", "notes.md", "paste.txt", "sub/events.log", ".DS_Store", ".git/config"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "pods.json"), filepath.Join(dir, "link.json")); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	files, err := collectFiles([]string{dir}, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.name)
	}
	if diff := cmp.Diff([]string{"notes.md", "paste.txt", "pods.json", "sub/events.log"}, names); diff != "" {
		t.Errorf("files sent (-want +got):\n%s", diff)
	}
	if want := "skipped " + filepath.Join(dir, "link.json") + ": " + notFollowed + "\n"; stderr.String() != want {
		t.Errorf("stderr = %q, want %q", stderr.String(), want)
	}
}

// TestUploadCreatesNoEmptyIncident: `rootline upload` without --incident creates its incident
// with the snapshot, on both databases. An upload the server refuses (a file it cannot read, a
// folder of which it can read nothing, a body over the limit) exits 4 and leaves no incident;
// an accepted one creates the incident, titled by --title, and says its id.
func TestUploadCreatesNoEmptyIncident(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bad := write("bad.json", `{"kind": "Pod", "metadata": {"name": `)
	write("junk/README.md", "# notes\n\nnothing Kubernetes wrote\n")
	write("junk/truth.json", `{"answer": 42}`)
	big := write("big.json", `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "x"}, "spec": {}, "status": {"message": "`+strings.Repeat("x", 4096)+`"}}`)
	good := write("pods.json", `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "hub-0", "namespace": "prod", "uid": "u1"}, "spec": {"nodeName": "n1"}, "status": {"phase": "Running"}}`)
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		cfg, _ := config.Default(func(string) string { return "" })
		cfg.Auth, cfg.MaxUploadBytes = "off", 2048
		ts := httptest.NewServer(server.New(cfg, server.StoreDeps(st, nil)).Handler())
		defer ts.Close()
		count := func() int {
			list, err := st.Incidents(context.Background(), store.IncidentFilter{})
			if err != nil {
				t.Fatal(err)
			}
			return len(list)
		}
		for _, args := range [][]string{{bad}, {filepath.Join(dir, "junk")}, {big}} {
			var stdout, stderr bytes.Buffer
			err := upload(context.Background(), uploadOptions{server: ts.URL, title: "refused"}, args, &stdout, &stderr)
			var ee *exitError
			if !errors.As(err, &ee) || ee.code != exitRejected {
				t.Errorf("upload %v: %v, want exit %d", args, err, exitRejected)
			}
			if n := count(); n != 0 || strings.Contains(stderr.String(), "created incident") {
				t.Errorf("upload %v was refused, yet %d incident(s) exist; stderr %q", args, n, stderr.String())
			}
		}
		var stdout, stderr bytes.Buffer
		if err := upload(context.Background(), uploadOptions{server: ts.URL, title: "Hub down", cluster: "leap"}, []string{good}, &stdout, &stderr); err != nil {
			t.Fatalf("upload: %v\n%s", err, stderr.String())
		}
		list, err := st.Incidents(context.Background(), store.IncidentFilter{})
		if err != nil || len(list) != 1 || list[0].Title != "Hub down" || list[0].Cluster != "leap" ||
			!strings.Contains(stderr.String(), "created incident "+list[0].ID) {
			t.Errorf("the accepted upload: incidents %v (%v), stderr %q", list, err, stderr.String())
		}
	})
}
