package metrics

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fakePrometheus answers /prom/api/v1/query_range by the query asked: throttled for "ok", an
// empty matrix for "absent", a bad_data error (HTTP 400) for "bad", a huge answer for "huge".
func fakePrometheus(t *testing.T, seen *[]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/prom/api/v1/query_range" {
			http.NotFound(w, r)
			return
		}
		q := r.URL.Query()
		*seen = append(*seen, q.Get("query")+" "+q.Get("start")+" "+q.Get("end")+" "+q.Get("step"))
		w.Header().Set("Content-Type", "application/json")
		switch q.Get("query") {
		case "ok":
			_, _ = w.Write([]byte(throttled))
		case "absent":
			_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"matrix","result":[]}}`))
		case "bad":
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"status":"error","errorType":"bad_data","error":"invalid parameter \"query\": 1:4: parse error"}`))
		case "huge":
			_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"a":"` + strings.Repeat("x", 4096) + `"},"values":[]}]}}`))
		default:
			w.WriteHeader(http.StatusBadGateway)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestFetchAll: the queries go to the API under the address's path with the window and step;
// an answer of no series and one Prometheus refuses are gaps, the rest answers; a refused
// status or an answer over the bound stops the queries with an error.
func TestFetchAll(t *testing.T) {
	var seen []string
	srv := fakePrometheus(t, &seen)
	var admitted, released atomic.Int32
	f, err := NewFetcher(srv.URL+"/prom", FetchOptions{MaxBytes: 1024, Admit: func(context.Context) (func(), error) {
		admitted.Add(1)
		return func() { released.Add(1) }, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	w := Window{From: time.Date(2023, 2, 1, 16, 0, 0, 0, time.UTC), To: time.Date(2023, 2, 1, 18, 0, 0, 500e6, time.UTC), Step: 30 * time.Second}
	out, err := f.FetchAll(context.Background(), []Query{{Name: "a", Expr: "ok"}, {Name: "b", Expr: "absent", What: "X"}, {Name: "c", Expr: "bad"}}, w)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 3 || len(out[0].Result.Series) != 2 || out[0].Gap != "" ||
		!strings.Contains(out[1].Gap, "no series: X") || !strings.Contains(out[2].Gap, "bad_data") {
		t.Errorf("outcomes: %+v", out)
	}
	if admitted.Load() != 3 || released.Load() != 3 {
		t.Errorf("three answers admitted %d times, released %d", admitted.Load(), released.Load())
	}
	if seen[0] != "ok 1675267200.000 1675274400.500 30" {
		t.Errorf("asked %q", seen[0])
	}
	if _, err := f.Fetch(context.Background(), Query{Name: "d", Expr: "gateway"}, w); err == nil || !strings.Contains(err.Error(), "502") {
		t.Errorf("a 502: %v", err)
	}
	if _, err := f.FetchAll(context.Background(), []Query{{Name: "e", Expr: "huge"}}, w); !errors.Is(err, ErrTooLarge) {
		t.Errorf("an answer over the bound: %v", err)
	}
	if _, err := NewFetcher("prometheus:9090", FetchOptions{}); err == nil {
		t.Error("an address without a scheme is taken")
	}
}

// TestFetchBasicAuth: a Prometheus behind basic authentication is read with the user and
// password of its URL.
func TestFetchBasicAuth(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if user, pass, ok := r.BasicAuth(); !ok || user != "rootline" || pass != "s3cret" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte(throttled))
	}))
	defer srv.Close()
	f, err := NewFetcher(strings.Replace(srv.URL, "http://", "http://rootline:s3cret@", 1), FetchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.Fetch(context.Background(), Query{Name: "q", Expr: "ok"}, Window{From: time.Unix(0, 0), To: time.Unix(60, 0)})
	if err != nil || len(res.Series) == 0 {
		t.Errorf("read behind basic authentication: %v, %+v", err, res)
	}
}

// TestFetchRedirects: a redirect within the Prometheus's host is followed; one to another host
// is not (ErrRedirected), and that host is never asked.
func TestFetchRedirects(t *testing.T) {
	t.Parallel()
	var asked atomic.Int32
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		_, _ = w.Write([]byte(throttled))
	}))
	defer elsewhere.Close()
	var prom *httptest.Server
	prom = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, "/moved/"):
			_, _ = w.Write([]byte(throttled))
		case r.URL.Query().Get("query") == "here":
			http.Redirect(w, r, prom.URL+"/moved"+r.URL.Path+"?"+r.URL.RawQuery, http.StatusFound)
		default:
			http.Redirect(w, r, elsewhere.URL+r.URL.Path+"?"+r.URL.RawQuery, http.StatusFound)
		}
	}))
	defer prom.Close()
	f, err := NewFetcher(prom.URL, FetchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w := Window{From: time.Unix(0, 0), To: time.Unix(60, 0)}
	if res, err := f.Fetch(t.Context(), Query{Name: "a", Expr: "here"}, w); err != nil || len(res.Series) == 0 {
		t.Errorf("a redirect within the host: %v, %+v", err, res)
	}
	if _, err := f.Fetch(t.Context(), Query{Name: "b", Expr: "away"}, w); !errors.Is(err, ErrRedirected) {
		t.Errorf("a redirect to another host: %v, want ErrRedirected", err)
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("the other host was asked %d times", n)
	}
}

// TestFetchDeadlines: a Prometheus that accepts the connection and never answers is given up
// at the headers' deadline, by Reach and by Fetch alike, not at the caller's.
func TestFetchDeadlines(t *testing.T) {
	t.Parallel()
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(hang)
	var admitted atomic.Int32
	f, err := NewFetcher(srv.URL, FetchOptions{Deadlines: Deadlines{Headers: 200 * time.Millisecond},
		Admit: func(context.Context) (func(), error) { admitted.Add(1); return func() {}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	// net/http's words for ResponseHeaderTimeout; the caller's context has no deadline.
	const headers = "timeout awaiting response headers"
	if err := f.Reach(t.Context()); err == nil || !strings.Contains(err.Error(), headers) {
		t.Errorf("Reach of a Prometheus that never answers: %v, want %q", err, headers)
	}
	if _, err := f.Fetch(t.Context(), Query{Name: "a", Expr: "up"}, Window{From: time.Unix(0, 0), To: time.Unix(60, 0)}); err == nil || !strings.Contains(err.Error(), headers) {
		t.Errorf("Fetch of a Prometheus that never answers: %v, want %q", err, headers)
	}
	if n := admitted.Load(); n != 0 {
		t.Errorf("an answer that never came was admitted %d times: what it costs was taken while waiting", n)
	}
}
