package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/store"
)

// TestUploadExitCodes runs `rootline upload` against a stand-in server and checks the exit
// codes scripts rely on.
func TestUploadExitCodes(t *testing.T) {
	t.Parallel()
	var gotBody, gotCT, gotAuth, gotQuery string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		gotBody, gotCT, gotAuth, gotQuery = string(b), r.Header.Get("Content-Type"), r.Header.Get("Authorization"), r.URL.RawQuery
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/api/v1/incidents":
			w.WriteHeader(201)
			_, _ = io.WriteString(w, `{"id": "inc-new"}`)
		// Markers with spaces: a multipart boundary is hex, and "bad" is hex too.
		case strings.Contains(gotBody, "not json at all"):
			w.WriteHeader(422)
			_, _ = io.WriteString(w, `{"error": "bad.json:1: invalid JSON"}`)
		case strings.Contains(gotBody, "server explodes"):
			w.WriteHeader(500)
			_, _ = io.WriteString(w, `{"error": "internal error"}`)
		default:
			w.WriteHeader(201)
			_, _ = io.WriteString(w, `{"snapshot": "abc", "incident": "IL-1", "cluster": "leap", "objects": {"Pod": 2}}`)
		}
	}))
	defer ts.Close()
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
	good := write("pods.json", `{"kind": "Pod"}`)
	bad := write("bad.json", `not json at all`)
	boom := write("boom.json", `server explodes`)
	write("snap/nodes.json", `{"kind": "Node"}`)
	write("snap/notes.md", `sent too: the server skips what it cannot read`)

	tests := []struct {
		name     string
		args     []string
		want     int
		wantSent string
	}{
		{"stored", []string{"upload", "--server", ts.URL, "--incident", "IL-1", "--token", "tok", good}, exitOK, `{"kind": "Pod"}`},
		{"folder as multipart", []string{"upload", "--server", ts.URL, "--incident", "IL-1", filepath.Join(dir, "snap"), good}, exitOK, `filename="nodes.json"`},
		{"every file of a folder", []string{"upload", "--server", ts.URL, "--incident", "IL-1", filepath.Join(dir, "snap"), good}, exitOK, `filename="notes.md"`},
		{"new incident", []string{"upload", "--server", ts.URL, good}, exitOK, ""},
		{"refused", []string{"upload", "--server", ts.URL, "--incident", "IL-1", bad}, exitRejected, ""},
		{"server error", []string{"upload", "--server", ts.URL, "--incident", "IL-1", boom}, exitServerError, ""},
		{"unreachable", []string{"upload", "--server", "http://127.0.0.1:1", "--incident", "IL-1", good}, exitUnreachable, ""},
		{"missing file", []string{"upload", "--server", ts.URL, "--incident", "IL-1", filepath.Join(dir, "nope.json")}, exitFailure, ""},
		{"no paths", []string{"upload", "--server", ts.URL}, exitFailure, ""},
		{"bad flag", []string{"upload", "--nope"}, exitUsage, ""},
		{"bad server URL", []string{"upload", "--server", "ftp://x", good}, exitUsage, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gotBody = ""
			if got := run(tt.args); got != tt.want {
				t.Errorf("exit code = %d, want %d", got, tt.want)
			}
			if !strings.Contains(gotBody, tt.wantSent) {
				t.Errorf("sent %q, want it to contain %q", gotBody, tt.wantSent)
			}
		})
	}
	run([]string{"upload", "--server", ts.URL, "--incident", "IL-1", "--token", "tok", "--cluster", "leap", good})
	if gotAuth != "Bearer tok" || gotCT != "application/octet-stream" || !strings.Contains(gotQuery, "cluster=leap") || !strings.Contains(gotQuery, "name=pods.json") {
		t.Errorf("request: auth %q, content type %q, query %q", gotAuth, gotCT, gotQuery)
	}
}

// TestServeRefusesOpenAuthBeyondLoopback: serve will not start without authentication on an
// address beyond loopback, and says why (a usage exit code alone is what a typo also gives).
func TestServeRefusesOpenAuthBeyondLoopback(t *testing.T) {
	t.Parallel()
	got, stderr := runCaptured(t, "serve", "--addr", "0.0.0.0:0", "--auth", "off", "--database", filepath.Join(t.TempDir(), "rootline.db"))
	if got != exitUsage || !strings.Contains(stderr, "--auth off is refused on 0.0.0.0:0: beyond loopback") {
		t.Errorf("exit code %d, stderr %q; want %d and the refusal of --auth off beyond loopback", got, stderr, exitUsage)
	}
}

// runCaptured runs the command line and returns its exit code and what it wrote to stderr.
func runCaptured(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var stderr strings.Builder
	code := runTo(args, &stderr)
	return code, stderr.String()
}

// TestServeStopsGracefully starts the server on a fresh SQLite file, waits until it is ready,
// and stops it the way SIGTERM does (its context ends): serve returns without error.
func TestServeStopsGracefully(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cfg, err := config.Default(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.Addr, cfg.LogLevel = addr, slog.LevelWarn
	if cfg.Database, err = store.ParseTarget(filepath.Join(t.TempDir(), "rootline.db")); err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg) }()
	ready := false
	for range 100 {
		resp, err := http.Get("http://" + addr + "/readyz")
		if err == nil {
			resp.Body.Close()
			ready = resp.StatusCode == 200
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !ready {
		t.Fatal("server never became ready")
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not return after its context ended")
	}
	if _, err := http.Get("http://" + addr + "/healthz"); err == nil {
		t.Error("server still answers after shutdown")
	}
}

func TestImportCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "lib.db")
	reports := filepath.Join(dir, "reports")
	if err := os.MkdirAll(reports, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(reports, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("IL-0070.md", "---\nid: IL-0070\ntitle: Hub restart\ncauses: [capacity_exhaustion]\n---\ntext\n")
	write("README.md", "not a report")
	// What the library holds: each incident's id, title and root cause, and its notes.
	library := func() string {
		t.Helper()
		st := testStore(t, db)
		ins, err := st.Incidents(t.Context(), store.IncidentFilter{})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, in := range ins {
			notes, err := st.Notes(t.Context(), in.ID)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s %q root %q, %d notes\n", in.ID, in.Title, in.RootCause, len(notes))
		}
		return b.String()
	}
	if got, stderr := runCaptured(t, "import", "--database", db, reports); got != exitOK {
		t.Fatalf("import: exit %d: %s", got, stderr)
	}
	once := library()
	if !strings.Contains(once, `IL-0070 "Hub restart" root "capacity_exhaustion"`) || strings.Count(once, "\n") != 1 {
		t.Fatalf("after one import the library holds:\n%s", once)
	}
	if got, stderr := runCaptured(t, "import", "--database", db, reports); got != exitOK {
		t.Fatalf("import again: exit %d: %s", got, stderr)
	}
	if twice := library(); twice != once {
		t.Errorf("importing the same reports again changed the library:\n%s\nwas:\n%s", twice, once)
	}
	// All or nothing: one bad report, and none of the run's reports is stored.
	write("IL-0071.md", "---\nid: IL-0071\ntitle: Another\n---\n")
	write("bad.md", "---\nid: x\ntitle: t\ncauses: [bad_luck]\n---\n")
	if got, stderr := runCaptured(t, "import", "--database", db, reports); got != exitFailure || !strings.Contains(stderr, "bad.md") || !strings.Contains(stderr, "bad_luck") {
		t.Errorf("bad report: exit %d, stderr %q; want %d naming the file and the unknown cause", got, stderr, exitFailure)
	}
	if after := library(); after != once {
		t.Errorf("a failed import changed the library:\n%s\nwas:\n%s", after, once)
	}
	missing := filepath.Join(dir, "missing")
	if got, stderr := runCaptured(t, "import", "--database", db, missing); got != exitFailure || !strings.Contains(stderr, missing) {
		t.Errorf("missing path: exit %d, stderr %q; want %d naming the path", got, stderr, exitFailure)
	}
}

// TestLibraryRoundTrip imports reports, exports the library, imports the export into an empty
// database, and finds the same reports there.
func TestLibraryRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{
		"IL-0070.md": "---\nid: IL-0070\ntitle: Hub restart\norg: 2i2c\ndate: 2023-02-01\ntags: [kubernetes]\nsymptoms: [pod_evicted, pod_pending]\nroot_cause: capacity_exhaustion\ncauses: [capacity_exhaustion, shared_prometheus]\ncomponents: [{kind: NodePool, name: core}, {kind: Prometheus, name: support-prometheus-server}]\nticket: 414\n---\nPrometheus load grows with the number of nodes.\n",
		"IL-0099.md": "# DNS outage\n\nCoreDNS was OOM-killed.\n",
	}
	for name, doc := range docs {
		if err := os.WriteFile(filepath.Join(src, name), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	first, second := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	out := filepath.Join(dir, "export")
	for _, args := range [][]string{
		{"import", "--database", first, src},
		{"export", "--database", first, "--out", out},
		{"import", "--database", second, out},
		{"export", "--database", second, "--out", out + "2"},
	} {
		if got := run(args); got != exitOK {
			t.Fatalf("%v: exit %d", args, got)
		}
	}
	for name := range docs {
		a, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(out+"2", name))
		if err != nil {
			t.Fatal(err)
		}
		if string(a) != string(b) {
			t.Errorf("%s differs after the round trip:\n%s\n---- vs ----\n%s", name, a, b)
		}
		if name == "IL-0070.md" && (!strings.Contains(string(a), "ticket: 414") || !strings.Contains(string(a), "root_cause: capacity_exhaustion")) {
			t.Errorf("export lost fields:\n%s", a)
		}
	}
}
