package server_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/evidence"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
	"github.com/rootline-dev/rootline/internal/synth"
)

// kubectlSnapshot writes the three files `kubectl get nodes|pods|events -A -o json` would.
func kubectlSnapshot(t *testing.T, o synth.Options) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for name, write := range map[string]func(io.Writer, synth.Options) error{
		"nodes.json": synth.WriteNodeList, "pods.json": synth.WritePodList, "events.json": synth.WriteEventList,
	} {
		var b bytes.Buffer
		if err := write(&b, o); err != nil {
			t.Fatal(err)
		}
		files[name] = b.Bytes()
	}
	return files
}

// TestUploadSnapshot is the three-file snapshot of the issue: stored once, the same upload
// again answers with the same id and stores nothing, and an event seen again with a higher
// count updates its one row.
func TestUploadSnapshot(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		ctx := context.Background()
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "IL-0070", "title": "Hub restart during a large node scale-up", "cluster": "leap"}`)
		o := synth.Options{Nodes: 20, Pods: 300, Events: 120, Seed: 70}
		files := kubectlSnapshot(t, o)
		url := base + "/api/v1/incidents/IL-0070/snapshots"

		body, ct := multipartBody(t, files, "nodes.json", "pods.json", "events.json")
		status, b := call(t, "POST", url, ct, body)
		if status != http.StatusCreated {
			t.Fatalf("first upload: %d %s", status, b)
		}
		id, objects := decodeSnapshot(t, b)
		if want := map[string]int{"Node": 20, "Pod": 300, "Event": 120}; fmt.Sprint(objects) != fmt.Sprint(want) {
			t.Errorf("objects = %v, want %v", objects, want)
		}
		before := rowCounts(t, st, bk.Target)
		for table, want := range map[string]int64{"nodes": 20, "pods": 300, "events": 120, "snapshot_events": 120, "snapshots": 1} {
			if before[table] != want {
				t.Errorf("%s rows = %d, want %d", table, before[table], want)
			}
		}

		// The same files again, sent in another order: the same snapshot, nothing new.
		body, ct = multipartBody(t, files, "events.json", "pods.json", "nodes.json")
		status, b = call(t, "POST", url, ct, body)
		if status != http.StatusOK {
			t.Fatalf("second upload: %d %s", status, b)
		}
		if id2, _ := decodeSnapshot(t, b); id2 != id {
			t.Errorf("second upload id = %s, want %s", id2, id)
		}
		assertCounts(t, st, bk.Target, before)

		// One event seen again, later and more often.
		ev := synth.Event(o, 7)
		ev.Count += 5
		later := ev.LastTimestamp.Add(10 * time.Minute)
		ev.LastTimestamp = metav1.NewTime(later)
		ev.Message = "seen again: " + ev.Message
		again, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		status, b = call(t, "POST", url+"?name=again.json", "application/json", bytes.NewReader(again))
		if status != http.StatusCreated {
			t.Fatalf("event upload: %d %s", status, b)
		}
		after := rowCounts(t, st, bk.Target)
		if after["events"] != before["events"] {
			t.Errorf("events rows = %d, want %d: the event was duplicated", after["events"], before["events"])
		}
		// As the incident reads it: every sighting merged.
		loaded, err := evidence.Load(ctx, st, "IL-0070", nil)
		if err != nil {
			t.Fatal(err)
		}
		var got *cluster.Event
		for _, o := range loaded.Objects {
			if o.Event != nil && o.Event.UID == ev.UID {
				got = o.Event
			}
		}
		if got == nil {
			t.Fatalf("event %s not found", ev.UID)
		}
		if got.Count != ev.Count || !got.LastTimestamp.Time().Equal(later) || got.Message != ev.Message {
			t.Errorf("event = count %d, last %s, message %q; want %d, %s, %q", got.Count, got.LastTimestamp, got.Message, ev.Count, later, ev.Message)
		}
		if !got.FirstTimestamp.Time().Equal(synth.Event(o, 7).FirstTimestamp.Time) {
			t.Errorf("first seen = %s, want the original %s", got.FirstTimestamp, synth.Event(o, 7).FirstTimestamp)
		}

		_, metrics := call(t, "GET", base+"/metrics", "", nil)
		for _, want := range []string{`rootline_ingested_objects_total{kind="Pod"} 300`, `rootline_uploads_total{result="existing"} 1`, "rootline_upload_bytes_total"} {
			if !strings.Contains(string(metrics), want) {
				t.Errorf("metrics lack %s", want)
			}
		}
	})
}

// TestUploadLeavesNoSecret uploads a Secret and env values and proves that no trace of their
// values is anywhere in the database.
func TestUploadLeavesNoSecret(t *testing.T) {
	t.Parallel()
	const secret = "s3cr3t-9f8e7d6c5b4a"
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "sec", "title": "secrets"}`)
		doc := strings.ReplaceAll(`apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Secret
  metadata: {name: hub, namespace: prod}
  stringData: {token: SECRET}
- apiVersion: v1
  kind: Pod
  metadata:
    name: hub-0
    namespace: prod
    annotations:
      kubectl.kubernetes.io/last-applied-configuration: '{"env": [{"name": "API_TOKEN", "value": "SECRET"}]}'
      example.com/api-key: SECRET
  spec:
    containers:
    - name: hub
      image: jupyterhub/k8s-hub
      env:
      - {name: API_TOKEN, value: SECRET}
      - {name: PLAIN, value: also-SECRET}
      args: ["--token=SECRET"]
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: hub, namespace: prod}
  spec:
    template:
      spec:
        containers:
        - name: hub
          env: [{name: API_TOKEN, value: SECRET}]
`, "SECRET", secret)
		status, b := call(t, "POST", base+"/api/v1/incidents/sec/snapshots?name=hub.yaml", "application/yaml", strings.NewReader(doc))
		if status != http.StatusCreated {
			t.Fatalf("upload: %d %s", status, b)
		}
		if !strings.Contains(string(b), `"kind":"Secret"`) {
			t.Errorf("the skipped Secret is not reported: %s", b)
		}
		if strings.Contains(string(b), secret) {
			t.Errorf("the answer echoes the secret: %s", b)
		}
		sawRedacted := false
		err := storetest.EachValue(t, bk.Target, func(table, column string, v []byte) error {
			if bytes.Contains(v, []byte("s3cr3t")) {
				t.Errorf("%s.%s holds the secret: %.200s", table, column, v)
			}
			if bytes.Contains(v, []byte("[redacted]")) {
				sawRedacted = true
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !sawRedacted {
			t.Error("no redacted value found: the scan did not look inside the stored objects")
		}
	})
}

func gzipBytes(t *testing.T, size int64) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.CopyN(w, zeroReader{}, size); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestUploadOverTheLimit: a body larger than --max-upload-bytes is refused with 413 and
// nothing stored. (The hostile inputs are in TestHostileSuite.)
func TestUploadOverTheLimit(t *testing.T) {
	t.Parallel()
	var pods bytes.Buffer
	if err := synth.WritePodList(&pods, synth.Options{Nodes: 3, Pods: 40, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "h", "title": "hostile"}`)
		before := rowCounts(t, st, bk.Target)
		cfg := testConfig()
		cfg.MaxUploadBytes = 1 << 10
		small := newServer(t, st, cfg)
		status, b := call(t, "POST", small+"/api/v1/incidents/h/snapshots", "application/json", bytes.NewReader(pods.Bytes()))
		if status != http.StatusRequestEntityTooLarge {
			t.Errorf("status = %d, want 413: %s", status, b)
		}
		assertCounts(t, st, bk.Target, before)
	})
}

// TestUploadLargeList stores a List of 50,000 pods in one upload, streamed to the server;
// under the race detector 5,000 (there it took minutes: .ci/run runs it again at full size
// without the detector).
func TestUploadLargeList(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("stores 50,000 pods")
	}
	n := 50000
	if raceDetector {
		n = 5000
	}
	o := synth.Options{Pods: n, Nodes: 1500, Seed: 5}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "big", "title": "a large list"}`)
		pr, pw := io.Pipe()
		go func() {
			// Compact items, as `kubectl get pods -A -o json | jq -c` leaves them: the list
			// stays under the default limit of 256 MiB.
			fmt.Fprint(pw, `{"apiVersion": "v1", "kind": "List", "items": [`)
			for i := range n {
				if i > 0 {
					fmt.Fprint(pw, ",\n")
				}
				b, err := json.Marshal(synth.Pod(o, i))
				if err != nil {
					pw.CloseWithError(err)
					return
				}
				if _, err := pw.Write(b); err != nil {
					return // the reader gave up: the test says why
				}
			}
			fmt.Fprint(pw, "]}")
			pw.Close()
		}()
		status, b := call(t, "POST", base+"/api/v1/incidents/big/snapshots?name=pods.json", "application/json", pr)
		if status != http.StatusCreated {
			t.Fatalf("status = %d: %.500s", status, b)
		}
		if _, objects := decodeSnapshot(t, b); objects["Pod"] != n {
			t.Errorf("pods stored = %d, want %d", objects["Pod"], n)
		}
		if c := rowCounts(t, st, bk.Target); c["pods"] != int64(n) {
			t.Errorf("pods rows = %d, want %d", c["pods"], n)
		}
	})
}

// TestConcurrentUploads sends the same snapshot, and snapshots sharing events, at once: the
// same bytes are stored once (one 201, the rest 200 with the same id), and shared events
// converge to one row each.
func TestConcurrentUploads(t *testing.T) {
	t.Parallel()
	o := synth.Options{Nodes: 5, Pods: 60, Events: 80, Seed: 9}
	files := kubectlSnapshot(t, o)
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "c", "title": "concurrent", "cluster": "leap"}`)
		url := base + "/api/v1/incidents/c/snapshots"
		const n = 6
		type result struct {
			status int
			body   []byte
		}
		results := make(chan result, n)
		for i := range n {
			go func() {
				var body io.Reader
				ct := "application/json"
				if i%2 == 0 { // the same three files
					body, ct = multipartBody(t, files, "nodes.json", "pods.json", "events.json")
				} else { // the events again, each upload with its own extra event
					var b bytes.Buffer
					b.WriteString(`{"apiVersion": "v1", "kind": "List", "items": [`)
					for j := range o.Events {
						ev, _ := json.Marshal(synth.Event(o, j))
						b.Write(ev)
						b.WriteString(",")
					}
					extra := synth.Event(o, 0)
					extra.UID = types.UID(fmt.Sprintf("%s-extra-%d", extra.UID, i))
					ev, _ := json.Marshal(extra)
					b.Write(ev)
					b.WriteString("]}")
					body = &b
				}
				req, _ := http.NewRequest("POST", url, body)
				req.Header.Set("Content-Type", ct)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					results <- result{0, []byte(err.Error())}
					return
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				results <- result{resp.StatusCode, b}
			}()
		}
		ids := map[string]int{}
		created, existing := 0, 0
		for range n {
			r := <-results
			switch r.status {
			case http.StatusCreated:
				created++
			case http.StatusOK:
				existing++
			default:
				t.Errorf("upload failed: %d %s", r.status, r.body)
				continue
			}
			id, _ := decodeSnapshot(t, r.body)
			ids[id]++
		}
		if created != 4 || existing != 2 {
			t.Errorf("created %d, existing %d; want 4 and 2 (ids %v)", created, existing, ids)
		}
		c := rowCounts(t, st, bk.Target)
		if want := int64(o.Events + 3); c["events"] != want {
			t.Errorf("events rows = %d, want %d", c["events"], want)
		}
		if c["snapshots"] != 4 || c["pods"] != int64(o.Pods) {
			t.Errorf("snapshots %d, pods %d; want 4 and %d", c["snapshots"], c["pods"], o.Pods)
		}
	})
}

// TestUploadStrayFiles: in an upload of several files, a file that cannot be read is skipped
// and listed with its reason, nothing of it stored, and a truncated file is stored as far as
// it goes and flagged; the same upload again answers the same lists. An upload of which no
// file can be read answers the first file's own error, as one file alone does.
func TestUploadStrayFiles(t *testing.T) {
	t.Parallel()
	pod := func(name string) string {
		return `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "` + name + `", "namespace": "prod", "uid": "uid-` + name + `"}}`
	}
	files := map[string][]byte{
		"pods.json": []byte(`{"apiVersion": "v1", "kind": "List", "items": [` + pod("hub-0") + `,` + pod("hub-1") + `]}`),
		"README.md": []byte("# Evidence\n\nWhat the on-call engineer captured.\n"),
		"empty.txt": {}, // listed as skipped, as analyze lists it
		// A pod, then an item that is not a Kubernetes object: the whole file is skipped.
		"broken.json": []byte(`{"apiVersion": "v1", "kind": "List", "items": [` + pod("stray-0") + `,` + "\n" + `{"kind": 5}]}`),
		// Two pods whole, the third cut before it said its name (so not read at all).
		"cut.json": []byte(`{"apiVersion": "v1", "kind": "List", "items": [` + pod("web-0") + ",\n" + pod("web-1") + ",\n" +
			`{"apiVersion": "v1", "kind": "Pod", "status": {"phase": "Fai`),
	}
	type answer struct {
		Snapshot string         `json:"snapshot"`
		Objects  map[string]int `json:"objects"`
		Skipped  []struct {
			File, Kind, Reason string
			Truncated          bool
		} `json:"skipped"`
		Truncated []string `json:"truncated"`
		Existing  bool     `json:"existing"`
		Error     string   `json:"error"`
	}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "s", "title": "strays"}`)
		url := base + "/api/v1/incidents/s/snapshots"
		upload := func(names ...string) (int, answer) {
			t.Helper()
			body, ct := multipartBody(t, files, names...)
			status, b := call(t, "POST", url, ct, body)
			var a answer
			if err := json.Unmarshal(b, &a); err != nil {
				t.Fatalf("%d %s: %v", status, b, err)
			}
			return status, a
		}
		for _, want := range []int{http.StatusCreated, http.StatusOK} {
			status, a := upload("README.md", "broken.json", "cut.json", "empty.txt", "pods.json")
			if status != want {
				t.Fatalf("status %d (%+v), want %d", status, a, want)
			}
			if fmt.Sprint(a.Objects) != fmt.Sprint(map[string]int{"Pod": 4}) {
				t.Errorf("objects = %v, want the 4 pods of pods.json and cut.json", a.Objects)
			}
			var got []string
			for _, s := range a.Skipped {
				got = append(got, fmt.Sprintf("%s %s truncated=%v", s.File, s.Kind, s.Truncated))
				if s.Reason == "" {
					t.Errorf("%s skipped without a reason", s.File)
				}
			}
			wantSkipped := []string{"README.md File truncated=false", "broken.json File truncated=false", "cut.json File truncated=true", "empty.txt File truncated=false"}
			if diff := cmp.Diff(wantSkipped, got); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"cut.json"}, a.Truncated); diff != "" {
				t.Errorf("truncated (-want +got):\n%s", diff)
			}
		}
		if c := rowCounts(t, st, bk.Target); c["pods"] != 4 || c["snapshots"] != 1 {
			t.Errorf("rows = %v, want 4 pods (none of broken.json) in 1 snapshot", c)
		}

		before := rowCounts(t, st, bk.Target)
		status, a := upload("README.md", "broken.json")
		if status != http.StatusUnsupportedMediaType || !strings.HasPrefix(a.Error, "README.md: ") {
			t.Errorf("strays alone: %d %+v, want 415 and README.md's own error", status, a)
		}
		assertCounts(t, st, bk.Target, before)

		// A truncated file alone is salvaged too, and says so.
		status, b := call(t, "POST", url+"?name=cut.json", "application/json", bytes.NewReader(files["cut.json"]))
		var one answer
		if err := json.Unmarshal(b, &one); err != nil || status != http.StatusCreated || one.Objects["Pod"] != 2 || fmt.Sprint(one.Truncated) != "[cut.json]" {
			t.Errorf("cut.json alone: %d %s", status, b)
		}
	})
}

// TestUploadCreatingIncident: an upload with create=true creates its incident with the
// snapshot, in one transaction. A refused upload (it does not parse, nothing in it is kept, it
// is too large, its title or cluster is wrong) creates nothing; an id that is taken is a 409;
// the same bytes again, for a new incident, go to the incident that holds them and create none
// (issue 27).
func TestUploadCreatingIncident(t *testing.T) {
	t.Parallel()
	pod := `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "hub-0", "namespace": "prod", "uid": "u1"}, "spec": {"nodeName": "n1"}, "status": {"phase": "Running"}}`
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		cfg := testConfig()
		cfg.MaxUploadBytes = 4096
		base := newServer(t, st, cfg)
		tests := []struct {
			name, id, query, body string
			want                  int
			says                  string
			exists                bool // the incident exists afterwards
		}{
			{"does not parse", "N1", "create=true&title=T&name=bad.json", `{"kind": "Pod", "metadata": {`, 422, "bad.json", false},
			{"nothing kept", "N2", "create=true&title=T&name=notes.md", "# just prose\n\nno objects here\n", 422, "", false},
			{"too large", "N3", "create=true&title=T", `{"kind": "Pod", "x": "` + strings.Repeat("x", 5000) + `"}`, 413, "", false},
			{"bad cluster", "N4", "create=true&title=T&cluster=a%20b", pod, 422, "cluster", false},
			{"bad id", "bad%20id", "create=true&title=T", pod, 422, "id", false},
			{"created", "N5", "create=true&title=Hub+down&cluster=leap&name=pods.json", pod, 201, `"created":true`, true},
			{"id taken", "N5", "create=true&title=again&name=pods.json", strings.ReplaceAll(pod, "hub-0", "hub-2"), 409, "already exists", true},
			{"same bytes, no new incident", "N6", "create=true&title=again&cluster=leap&name=pods.json", pod, 200, `"incident":"N5"`, false},
			// The same bytes of another cluster are a snapshot of that cluster (issue 29).
			{"same bytes, another cluster", "N9", "create=true&title=elsewhere&cluster=east&name=pods.json", pod, 201, `"cluster":"east"`, true},
			{"without create, unknown id", "N7", "name=pods.json", pod, 404, "not found", false},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				status, b := call(t, "POST", base+"/api/v1/incidents/"+tt.id+"/snapshots?"+tt.query, "application/octet-stream", strings.NewReader(tt.body))
				if status != tt.want || !strings.Contains(string(b), tt.says) {
					t.Errorf("status %d, want %d saying %q: %s", status, tt.want, tt.says, b)
				}
				got, _ := call(t, "GET", base+"/api/v1/incidents/"+tt.id, "", nil)
				if (got == http.StatusOK) != tt.exists {
					t.Errorf("incident %s: %d, want it to exist: %v", tt.id, got, tt.exists)
				}
			})
		}
		_, b := call(t, "GET", base+"/api/v1/incidents/N5", "", nil)
		if !strings.Contains(string(b), `"title":"Hub down"`) || !strings.Contains(string(b), `"cluster":"leap"`) {
			t.Errorf("N5: %s", b)
		}
		status, b := call(t, "POST", base+"/api/v1/incidents/N8/snapshots?create=true&name=pod2.json", "application/octet-stream",
			strings.NewReader(strings.ReplaceAll(pod, "hub-0", "hub-1")))
		_, got := call(t, "GET", base+"/api/v1/incidents/N8", "", nil)
		if status != 201 || !strings.Contains(string(got), `"title":"Upload of pod2.json at `) {
			t.Errorf("N8 without a title: %d %s; %s", status, b, got)
		}
		_, b = call(t, "GET", base+"/api/v1/incidents", "", nil)
		if n := strings.Count(string(b), `"id":`); n != 3 {
			t.Errorf("%d incidents, want N5, N8 and N9: %s", n, b)
		}
	})
}
