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
	"sync"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// Hostile inputs of issue 15 that ingest must answer: a whitespace bomb, long leading
// whitespace, duplicate keys, and names and values the API server would refuse. Each goes
// through both doors, an upload and a collector's batch, on both databases.

// ingestDoors are the two ways objects come in; name is the upload's file name.
func ingestDoors(base, name string) []string {
	return []string{base + "/api/v1/incidents/h/snapshots?name=" + name, base + "/api/v1/events?cluster=c"}
}

// errorOf is the error message of a JSON answer.
func errorOf(b []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	_ = json.Unmarshal(b, &e)
	return e.Error
}

// postWithin posts body to url and returns the status and the body of the answer, failing the
// test when none comes within d: a hang detector, far above any real time.
func postWithin(t *testing.T, d time.Duration, url string, body []byte) (int, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), d)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/octet-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: no answer within %s: %v", url, d, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	return resp.StatusCode, b
}

// whitespaceBomb is a gzipped List whose items are 1 GiB of spaces: a body of 1.3 MB, made
// once, as it streams (never whole in memory).
var whitespaceBomb = sync.OnceValues(func() ([]byte, error) {
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestSpeed)
	if err != nil {
		return nil, err
	}
	spaces := bytes.Repeat([]byte(" "), 1<<20)
	if _, err := zw.Write([]byte(`{"apiVersion":"v1","kind":"List","items":[`)); err != nil {
		return nil, err
	}
	for range 1 << 10 {
		if _, err := zw.Write(spaces); err != nil {
			return nil, err
		}
	}
	if _, err := zw.Write([]byte(`]}`)); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
})

// TestWhitespaceBomb: 1 GiB of whitespace once unpacked is refused with 413, as a gzip bomb of
// zeros is, through an upload and a collector's batch; it never answered before (encoding/json
// took time quadratic in the run). Nothing is stored.
func TestWhitespaceBomb(t *testing.T) {
	t.Parallel()
	bomb, err := whitespaceBomb()
	if err != nil {
		t.Fatal(err)
	}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "h", "title": "hostile"}`)
		before := rowCounts(t, st, bk.Target)
		for _, url := range ingestDoors(base, "ws.json.gz") {
			status, b := postWithin(t, time.Minute, url, bomb)
			if status != http.StatusRequestEntityTooLarge || !strings.Contains(errorOf(b), "larger than the limit") {
				t.Errorf("%s: %d %s, want 413 saying larger than the limit", url, status, b)
			}
		}
		assertCounts(t, st, bk.Target, before)
	})
}

// TestLeadingWhitespaceUpload: JSON, YAML and text after 8,191 bytes of whitespace and more are
// stored (8,192 gave a 500, index out of range), through both doors, on both databases.
func TestLeadingWhitespaceUpload(t *testing.T) {
	t.Parallel()
	const (
		podJSON = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p%d","namespace":"ns"}}`
		podYAML = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p%d\n  namespace: ns\n"
		podText = "NAME    READY   STATUS    RESTARTS   AGE\np%d   1/1     Running   0          5m\n"
	)
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "h", "title": "hostile"}`)
		i := 0
		for _, n := range []int{8191, 8192, 8193, 65536, 1 << 20} {
			for _, fill := range []string{" ", "\n", "\t"} {
				for _, f := range []struct{ name, doc string }{{"pod.json", podJSON}, {"pod.yaml", podYAML}, {"pods.txt", podText}} {
					lead := strings.Repeat(fill, n)
					if f.name != "pod.json" {
						lead += "\n" // the first line keeps its indentation
					}
					for d, url := range ingestDoors(base, f.name) {
						if d == 1 && f.name == "pods.txt" {
							continue // a collector sends JSON
						}
						i++
						body := lead + fmt.Sprintf(f.doc, i)
						want := []int{http.StatusCreated, http.StatusOK}[d]
						if status, b := call(t, "POST", url, "application/octet-stream", strings.NewReader(body)); status != want {
							t.Errorf("%s after %d × %q: %d %s, want %d", f.name, n, fill, status, b, want)
						}
					}
				}
			}
		}
	})
}

// storedValues is every value of every table, one a line: to look for what must not be kept.
func storedValues(t *testing.T, tg store.Target) string {
	t.Helper()
	var all strings.Builder
	err := storetest.EachValue(t, tg, func(_, _ string, v []byte) error {
		all.Write(v)
		all.WriteByte('\n')
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return all.String()
}

// TestDuplicateKeysUpload: an object that says "kind" twice (a Deployment, then a Secret with
// its data) is refused with 422 naming the key and its line, through both doors, in JSON and
// YAML; nothing of the upload is stored. In an upload of several files it is skipped like any
// file that cannot be read, listed with its reason, and the Secret's data reaches no table.
func TestDuplicateKeysUpload(t *testing.T) {
	t.Parallel()
	const (
		dupJSON = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"x","namespace":"y"},"spec":{},"kind":"Secret","stringData":{"config.ini":"hunter2"}}`
		dupYAML = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\n  namespace: yy\nspec: {}\nkind: Secret\nstringData:\n  config.ini: hunter2\n"
		pod     = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"y"}}`
	)
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "h", "title": "hostile"}`)
		before := rowCounts(t, st, bk.Target)
		for _, tc := range []struct{ name, body, says string }{
			{"d.json", dupJSON, `d.json:1: duplicate key "kind"`},
			{"d.yaml", dupYAML, `d.yaml:7: duplicate key "kind"`},
			{"list.json", `{"apiVersion":"v1","kind":"List","items":[` + pod + ",\n" + dupJSON + `]}`, `list.json:2: duplicate key "kind"`},
		} {
			for _, url := range ingestDoors(base, tc.name) {
				status, b := call(t, "POST", url, "application/octet-stream", strings.NewReader(tc.body))
				says := tc.says
				if strings.Contains(url, "/events") {
					says = "batch" + strings.TrimPrefix(says, tc.name)
				}
				if status != http.StatusUnprocessableEntity || !strings.Contains(errorOf(b), says) || strings.Contains(string(b), "hunter2") {
					t.Errorf("%s to %s: %d %s, want 422 saying %s", tc.name, url, status, b, says)
				}
			}
		}
		assertCounts(t, st, bk.Target, before)

		body, ct := multipartBody(t, map[string][]byte{"pod.json": []byte(pod), "d.json": []byte(dupJSON)}, "pod.json", "d.json")
		status, b := call(t, "POST", base+"/api/v1/incidents/h/snapshots", ct, body)
		if status != http.StatusCreated || !strings.Contains(string(b), `duplicate key \"kind\"`) {
			t.Errorf("an upload of a pod and a repeated kind: %d %s, want 201 listing d.json as skipped", status, b)
		}
		if all := storedValues(t, bk.Target); strings.Contains(all, "hunter2") {
			t.Errorf("the Secret's data was stored")
		} else if !strings.Contains(all, "duplicate key") {
			t.Errorf("the snapshot does not say why d.json was skipped")
		}
	})
}

// TestLimitsUpload: names and values the API server refuses are refused with 422 naming the
// field, through both doors, alike on both databases, and nothing is stored: a NUL and a name
// too long for an index row were 500s on PostgreSQL; a 1 MB name, a 10 MB label value, 300,000
// labels and a YAML number of a million digits were stored.
func TestLimitsUpload(t *testing.T) {
	t.Parallel()
	pod := func(meta string) string {
		return `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns"` + meta + `}}`
	}
	var many strings.Builder
	for i := range 300000 {
		fmt.Fprintf(&many, `,"k%d":"v"`, i)
	}
	var paste strings.Builder
	paste.WriteString("NAME    READY   STATUS    RESTARTS   AGE\n")
	for i := range 300 { // past the sniffed head, where a NUL is not taken for binary data
		fmt.Fprintf(&paste, "web-%d   1/1     Running   0          5m\n", i)
	}
	paste.WriteString("we\x00b   1/1     Running   0          5m\n")
	cases := []struct{ name, body, says string }{
		{"name.json", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"` + strings.Repeat("x", 1<<20) + `"}}`, "name.json:1: metadata.name is 1048576 bytes, longer than 253"},
		{"name4k.json", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"` + strings.Repeat("x", 4096) + `"}}`, "metadata.name is 4096 bytes, longer than 253"},
		{"nul.json", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a\u0000b"}}`, "nul.json:1: metadata.name holds a NUL"},
		{"namespace.json", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"` + strings.Repeat("n", 4096) + `"}}`, "metadata.namespace is 4096 bytes, longer than 63"},
		{"label.json", pod(`,"labels":{"app":"` + strings.Repeat("v", 10<<20) + `"}`), "metadata.labels.app is 10485760 bytes, longer than 63"},
		{"labels.json", pod(`,"labels":{"a":"b"` + many.String() + `}`), "metadata.labels has 300001 labels, more than 2048"},
		{"number.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  replicas: 1" + strings.Repeat("0", 1000000) + "\n",
			"number.yaml:1: spec.replicas holds 1000001 digits in a row, more than 1024"},
		{"event.json", `{"apiVersion":"v1","kind":"Event","metadata":{"name":"e","namespace":"ns"},"involvedObject":{"kind":"Pod","name":"` + strings.Repeat("x", 4096) + `"},"reason":"Failed","message":"m"}`,
			"involvedObject.name is 4096 bytes, longer than 253"},
		{"message.json", `{"apiVersion":"v1","kind":"Event","metadata":{"name":"e","namespace":"ns"},"reason":"Failed","message":"a\u0000"}`, "message holds a NUL"},
		{"pods.txt", paste.String(), "pods.txt:302: metadata.name holds a NUL"},
	}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "h", "title": "hostile"}`)
		before := rowCounts(t, st, bk.Target)
		for _, tc := range cases {
			for _, url := range ingestDoors(base, tc.name) {
				says := tc.says
				if strings.Contains(url, "/events") {
					if strings.HasSuffix(tc.name, ".txt") {
						continue // a collector sends JSON
					}
					says = strings.ReplaceAll(says, tc.name+":", "batch:")
				}
				status, b := call(t, "POST", url, "application/octet-stream", strings.NewReader(tc.body))
				if status != http.StatusUnprocessableEntity || !strings.Contains(errorOf(b), says) {
					t.Errorf("%s to %s: %d %.300s, want 422 saying %s", tc.name, url, status, b, says)
				}
			}
		}
		assertCounts(t, st, bk.Target, before)
	})
}
