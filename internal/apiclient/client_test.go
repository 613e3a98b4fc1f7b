package apiclient

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestDoErrors: each way a call fails is its own error, for the caller to tell apart: refused
// (with the API's message, or the body), unreachable, and an answer that is not JSON.
func TestDoErrors(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/refused":
			w.WriteHeader(http.StatusUnprocessableEntity)
			_, _ = io.WriteString(w, `{"error": "not Kubernetes objects"}`)
		case "/broken":
			w.WriteHeader(http.StatusBadGateway)
			_, _ = io.WriteString(w, " upstream gone \n")
		case "/garbled":
			_, _ = io.WriteString(w, "<html>")
		default:
			_, _ = io.WriteString(w, `{"ok": true}`)
		}
	}))
	defer ts.Close()
	c := &Client{Base: ts.URL}
	var out map[string]any
	var se *StatusError
	if err := c.Do(context.Background(), http.MethodGet, "/refused", "", nil, &out); !errors.As(err, &se) || se.Code != 422 || se.Msg != "not Kubernetes objects" {
		t.Errorf("refused: %v", err)
	}
	if err := c.Do(context.Background(), http.MethodGet, "/broken", "", nil, &out); !errors.As(err, &se) || se.Code != 502 || se.Msg != "upstream gone" {
		t.Errorf("broken: %v", err)
	}
	var ae *AnswerError
	if err := c.Do(context.Background(), http.MethodGet, "/garbled", "", nil, &out); !errors.As(err, &ae) {
		t.Errorf("garbled: %v", err)
	}
	if err := c.Do(context.Background(), http.MethodGet, "/", "", nil, &out); err != nil || out["ok"] != true {
		t.Errorf("ok: %v, %v", out, err)
	}
	var ue *UnreachableError
	if err := (&Client{Base: "http://127.0.0.1:1"}).Do(context.Background(), http.MethodGet, "/", "", nil, &out); !errors.As(err, &ue) ||
		!strings.HasPrefix(err.Error(), "cannot reach http://127.0.0.1:1: ") {
		t.Errorf("unreachable: %v", err)
	}
}

// TestUploadSnapshot: an upload of several files is a multipart form of them, sent to the
// incident's snapshots with the query the API reads, authorised by the token.
func TestUploadSnapshot(t *testing.T) {
	got := map[string]string{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/incidents/IL-1/snapshots" || r.URL.Query().Get("create") != "true" || r.URL.Query().Get("title") != "t" ||
			r.URL.Query().Get("cluster") != "prod" || r.Header.Get("Authorization") != "Bearer tok" {
			t.Errorf("request %s %v", r.URL, r.Header)
		}
		mr, err := r.MultipartReader()
		if err != nil {
			t.Fatal(err)
		}
		for p, err := mr.NextPart(); err == nil; p, err = mr.NextPart() {
			b, _ := io.ReadAll(p)
			got[p.FileName()] = string(b)
		}
		_, _ = io.WriteString(w, `{"incident": "IL-1", "created": true, "skipped": [{"file": "a.txt", "kind": "File", "reason": "r"}]}`)
	}))
	defer ts.Close()
	file := func(name, body string) File {
		return File{Name: name, Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(body)), nil }}
	}
	body, ct := Body([]File{file("a.txt", "A"), file("b.json", "{}")}, nil)
	c := &Client{Base: ts.URL, Token: "tok"}
	raw, err := c.UploadSnapshot(context.Background(), Upload{Incident: "IL-1", Create: true, Title: "t", Cluster: "prod", Body: body, ContentType: ct})
	if err != nil || got["a.txt"] != "A" || got["b.json"] != "{}" || !strings.Contains(string(raw), `"created": true`) {
		t.Errorf("answer %s, err %v, files %v", raw, err, got)
	}
}
