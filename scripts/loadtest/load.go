package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// The endpoints under load, as the table names them.
const (
	epPage     = "GET /incidents/:id"
	epTimeline = "GET /api/v1/incidents/:id/timeline"
	epUpload   = "POST /api/v1/incidents/:id/snapshots"
)

// client sends requests to the server, with the bearer token when there is one.
type client struct {
	base  *url.URL
	token string
	http  *http.Client
}

// answer is what the server said. body is whole when asked for, else only kept (its first
// maxErrorBody bytes) when the status is not 2xx; a successful view's body is read and dropped.
type answer struct {
	status int
	header http.Header
	body   []byte
}

const maxErrorBody = 2 << 10

func (c *client) do(ctx context.Context, method, path, contentType string, body []byte, keep bool) (answer, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base.String()+path, r)
	if err != nil {
		return answer{}, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	a := answer{status: resp.StatusCode, header: resp.Header}
	switch {
	case keep:
		a.body, err = io.ReadAll(resp.Body)
	case ok(a.status):
		_, err = io.Copy(io.Discard, resp.Body)
	default:
		a.body, err = io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	}
	if err != nil {
		return a, fmt.Errorf("read the answer (status %d): %w", a.status, err)
	}
	return a, nil
}

func ok(status int) bool { return status >= 200 && status < 300 }

// loadTest creates the incident, stores its first snapshot, and then runs the readers and the
// uploaders until o.duration has passed. A request in flight at the end is waited for and
// counted; one cut short by an interrupt is not.
func loadTest(ctx context.Context, c *client, o options) (*result, error) {
	res := &result{opts: o, url: c.base.String(), endpoints: []*endpoint{{name: epPage}, {name: epTimeline}, {name: epUpload}}}

	title := fmt.Sprintf("Load test %s: IL-0070 with concurrent uploads", time.Now().UTC().Format(time.DateTime))
	req, err := json.Marshal(map[string]any{"title": title, "cluster": loadCluster, "tags": []string{"load-test"}})
	if err != nil {
		return nil, err
	}
	a, err := c.do(ctx, http.MethodPost, "/api/v1/incidents", "application/json", req, true)
	if err != nil {
		return nil, fmt.Errorf("create the incident: %w", err)
	}
	if a.status != http.StatusCreated {
		return nil, fmt.Errorf("create the incident: POST /api/v1/incidents answered %d: %s", a.status, bytes.TrimSpace(a.body))
	}
	var in struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(a.body, &in); err != nil || in.ID == "" {
		return nil, fmt.Errorf("create the incident: no id in the answer %s", bytes.TrimSpace(a.body))
	}
	res.incident = in.ID
	fmt.Fprintf(os.Stderr, "incident %s created\n", in.ID)

	base, err := baseSnapshot()
	if err != nil {
		return nil, err
	}
	res.base = base
	uploadPath := "/api/v1/incidents/" + url.PathEscape(in.ID) + "/snapshots"
	t0 := time.Now()
	a, err = c.do(ctx, http.MethodPost, uploadPath+"?cluster="+loadCluster, base.contentType, base.body, true)
	res.baseTook = time.Since(t0)
	if err != nil {
		return nil, fmt.Errorf("upload the IL-0070 snapshot: %w", err)
	}
	if a.status != http.StatusCreated {
		return nil, fmt.Errorf("upload the IL-0070 snapshot: POST %s answered %d: %s", uploadPath, a.status, bytes.TrimSpace(a.body))
	}
	fmt.Fprintf(os.Stderr, "IL-0070 snapshot stored in %s; %s of load with %d readers and %d uploaders\n",
		res.baseTook.Round(time.Millisecond), o.duration, o.readers, o.uploaders)

	views := [2]struct {
		ep   *endpoint
		path string
	}{
		{res.endpoints[0], "/incidents/" + url.PathEscape(in.ID)},
		{res.endpoints[1], "/api/v1/incidents/" + url.PathEscape(in.ID) + "/timeline"},
	}
	up := res.endpoints[2]
	var next atomic.Int64 // the number of the next small snapshot
	var created, existing atomic.Int64
	start := time.Now()
	deadline := start.Add(o.duration)
	running := func() bool { return ctx.Err() == nil && time.Now().Before(deadline) }
	var wg sync.WaitGroup
	for r := range o.readers {
		wg.Go(func() {
			for i := r; running(); i++ { // readers start on different views, then alternate
				v := views[i%2]
				t := time.Now()
				a, err := c.do(ctx, http.MethodGet, v.path, "", nil, false)
				res.record(ctx, v.ep, "GET "+v.path, t, a, err)
			}
		})
	}
	for range o.uploaders {
		wg.Go(func() {
			for running() {
				k := next.Add(1) - 1
				name, body, err := smallSnapshot(o.seed, k, o.uploadEvents)
				if err != nil {
					res.fail(up, "generate small snapshot "+strconv.FormatInt(k, 10), 0, err.Error())
					return
				}
				path := uploadPath + "?cluster=" + loadCluster + "&name=" + name
				t := time.Now()
				a, err := c.do(ctx, http.MethodPost, path, "application/json", body, false)
				res.record(ctx, up, "POST "+path, t, a, err)
				switch {
				case err != nil:
				case a.status == http.StatusCreated:
					created.Add(1)
				case a.status == http.StatusOK: // the same bytes were stored before: not new evidence
					existing.Add(1)
				}
			}
		})
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	res.created, res.existing = created.Load(), existing.Load()

	// What the incident ended with: its timeline's length (X-Total-Count).
	if ctx.Err() == nil {
		a, err := c.do(ctx, http.MethodGet, views[1].path+"?limit=1", "", nil, false)
		if err == nil && ok(a.status) {
			res.entries, _ = strconv.Atoi(a.header.Get("X-Total-Count"))
		}
	}
	return res, nil
}
