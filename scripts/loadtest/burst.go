package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rootline-dev/rootline/internal/synth"
)

// burstOptions are the flags of the burst test (--burst).
type burstOptions struct {
	uploads   int           // concurrent snapshot uploads, each a different pod list
	pods      int           // pods in each list
	hostile   int           // concurrent hostile decompression requests, alongside the uploads
	serverPID int           // the server's process, whose resident memory is sampled from /proc
	budget    int64         // the server's memory budget: peak RSS above idle must stay within it
	settle    time.Duration // how long RSS gets to come back near idle after the burst
}

// hostileKind is a decompression attack of the burst.
type hostileKind struct {
	name string
	body []byte
	path func(incident string) string
}

// burstResult is what the burst test saw.
type burstResult struct {
	opts        burstOptions
	incident    string
	listBytes   int
	statuses    map[string]map[int]int // request kind → status → count
	noRetry     int                    // 503 answers without Retry-After
	wrongStored []string               // accepted uploads whose stored counts are not the list's
	retried     []string               // refused uploads sent again after the burst: what they got
	took        time.Duration
	idle        int64 // RSS before the burst, bytes
	peak        int64
	after       int64         // RSS when the settle ended
	settledIn   time.Duration // how long RSS took to come back within 25% of the budget above idle; -1: never
	transport   []string
}

// burstTest creates an incident and sends, all at once, o.uploads different pod lists to it and
// o.hostile decompression bombs (half whitespace, half zeros; half to the snapshot endpoint, half
// to the collector's), while sampling the server's resident memory. Then it waits for the memory
// to come back near idle and sends a few of the refused uploads again, one at a time, to show
// that nothing of them was kept.
func burstTest(ctx context.Context, c *client, o burstOptions) (*burstResult, error) {
	res := &burstResult{opts: o, statuses: map[string]map[int]int{}}
	req, _ := json.Marshal(map[string]any{"title": "Burst test " + time.Now().UTC().Format(time.DateTime), "cluster": loadCluster, "tags": []string{"load-test"}})
	a, err := c.do(ctx, http.MethodPost, "/api/v1/incidents", "application/json", req, true)
	if err != nil || a.status != http.StatusCreated {
		return nil, fmt.Errorf("create the incident: %d %s %v", a.status, bytes.TrimSpace(a.body), err)
	}
	var in struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(a.body, &in); err != nil || in.ID == "" {
		return nil, fmt.Errorf("create the incident: no id in %s", a.body)
	}
	res.incident = in.ID

	fmt.Fprintf(os.Stderr, "making %d pod lists of %d pods and the hostile bodies\n", o.uploads, o.pods)
	lists := make([][]byte, o.uploads)
	for i := range lists {
		var b bytes.Buffer
		if err := synth.WritePodList(&b, synth.Options{Seed: int64(1000 + i), Pods: o.pods}); err != nil {
			return nil, err
		}
		lists[i] = b.Bytes()
	}
	if len(lists) > 0 {
		res.listBytes = len(lists[0])
	}
	hostile, err := hostileBodies()
	if err != nil {
		return nil, err
	}

	var mem memSampler
	if o.serverPID > 0 {
		if res.idle, err = rss(o.serverPID); err != nil {
			return nil, err
		}
		stop := mem.start(o.serverPID)
		defer stop()
	}

	uploadPath := "/api/v1/incidents/" + url.PathEscape(in.ID) + "/snapshots?cluster=" + loadCluster
	var (
		mu      sync.Mutex
		refused []int
		wg      sync.WaitGroup
	)
	count := func(kind string, a answer, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			res.transport = append(res.transport, kind+": "+err.Error())
			return
		}
		if res.statuses[kind] == nil {
			res.statuses[kind] = map[int]int{}
		}
		res.statuses[kind][a.status]++
		if a.status == http.StatusServiceUnavailable && a.header.Get("Retry-After") == "" {
			res.noRetry++
		}
	}
	start := time.Now()
	for i, body := range lists {
		wg.Go(func() {
			a, err := c.do(ctx, http.MethodPost, uploadPath+"&name=pods-"+strconv.Itoa(i)+".json", "application/json", body, true)
			count("upload", a, err)
			if err != nil {
				return
			}
			switch a.status {
			case http.StatusCreated:
				if msg := checkStored(a.body, o.pods); msg != "" {
					mu.Lock()
					res.wrongStored = append(res.wrongStored, fmt.Sprintf("upload %d: %s", i, msg))
					mu.Unlock()
				}
			case http.StatusServiceUnavailable:
				mu.Lock()
				refused = append(refused, i)
				mu.Unlock()
			}
		})
	}
	for i := range o.hostile {
		h := hostile[i%len(hostile)]
		wg.Go(func() {
			a, err := c.do(ctx, http.MethodPost, h.path(in.ID), "application/gzip", h.body, false)
			count(h.name, a, err)
		})
	}
	wg.Wait()
	res.took = time.Since(start)

	if o.serverPID > 0 {
		res.settledIn = -1
		limit := res.idle + o.budget/4
		for t0 := time.Now(); time.Since(t0) < o.settle; time.Sleep(250 * time.Millisecond) {
			if now, err := rss(o.serverPID); err == nil && now <= limit {
				res.settledIn = time.Since(t0)
				break
			}
		}
		res.after, _ = rss(o.serverPID)
		res.peak = mem.peak()
	}

	sort.Ints(refused)
	for _, i := range refused[:min(len(refused), 3)] {
		a, err := c.do(ctx, http.MethodPost, uploadPath+"&name=pods-"+strconv.Itoa(i)+".json", "application/json", lists[i], true)
		switch {
		case err != nil:
			res.retried = append(res.retried, fmt.Sprintf("upload %d: %v", i, err))
		case a.status != http.StatusCreated:
			res.retried = append(res.retried, fmt.Sprintf("upload %d: %d %s (want 201: a refused upload must leave nothing behind)", i, a.status, bytes.TrimSpace(a.body)))
		default:
			if msg := checkStored(a.body, o.pods); msg != "" {
				res.wrongStored = append(res.wrongStored, fmt.Sprintf("upload %d sent again: %s", i, msg))
			}
			res.retried = append(res.retried, fmt.Sprintf("upload %d: 201, %d pods", i, o.pods))
		}
	}
	return res, nil
}

// checkStored says what is wrong with an upload's answer, or "" when it stored every pod.
func checkStored(body []byte, pods int) string {
	var r struct {
		Objects  map[string]int `json:"objects"`
		Existing bool           `json:"existing"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return "unreadable answer: " + err.Error()
	}
	if r.Objects["Pod"] != pods {
		return fmt.Sprintf("stored %d pods of %d", r.Objects["Pod"], pods)
	}
	return ""
}

// hostileBodies are the decompression attacks: 1 GiB of whitespace inside a List, and 1 GiB of
// zeros, each gzipped to about a megabyte, sent to the snapshot and the collector endpoints.
func hostileBodies() ([]hostileKind, error) {
	const unpacked = 1 << 30
	space, err := gzipStream(`{"apiVersion":"v1","kind":"List","items":[`, ' ', unpacked, `]}`)
	if err != nil {
		return nil, err
	}
	zeros, err := gzipStream("", 0, unpacked, "")
	if err != nil {
		return nil, err
	}
	snap := func(id string) string {
		return "/api/v1/incidents/" + url.PathEscape(id) + "/snapshots?name=bomb.json.gz"
	}
	events := func(string) string { return "/api/v1/events?cluster=" + loadCluster }
	return []hostileKind{
		{"whitespace bomb → snapshots", space, snap},
		{"whitespace bomb → events", space, events},
		{"zero bomb → snapshots", zeros, snap},
		{"zero bomb → events", zeros, events},
	}, nil
}

// gzipStream gzips head, n copies of fill, and tail.
func gzipStream(head string, fill byte, n int, tail string) ([]byte, error) {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if _, err := zw.Write([]byte(head)); err != nil {
		return nil, err
	}
	chunk := bytes.Repeat([]byte{fill}, 1<<20)
	for left := n; left > 0; left -= len(chunk) {
		if _, err := zw.Write(chunk[:min(left, len(chunk))]); err != nil {
			return nil, err
		}
	}
	if _, err := zw.Write([]byte(tail)); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// rss is the resident memory of a process, in bytes, from /proc.
func rss(pid int) (int64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, fmt.Errorf("the server's memory: %w", err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}

// memSampler keeps the largest RSS seen, sampled every 50 ms.
type memSampler struct {
	mu  sync.Mutex
	max int64
}

func (m *memSampler) start(pid int) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			if v, err := rss(pid); err == nil {
				m.mu.Lock()
				m.max = max(m.max, v)
				m.mu.Unlock()
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

func (m *memSampler) peak() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.max
}

// failures lists what breaks the burst's promises: a 5xx other than 503 with Retry-After, a
// transport error, an accepted upload not stored whole, a refused one that left something
// behind, memory above the budget, memory that did not come back.
func (r *burstResult) failures() []string {
	var out []string
	for kind, by := range r.statuses {
		for status, n := range by {
			if status >= 500 && status != http.StatusServiceUnavailable {
				out = append(out, fmt.Sprintf("%s: %d answered %d", kind, n, status))
			}
		}
	}
	if r.noRetry > 0 {
		out = append(out, fmt.Sprintf("%d answers 503 without Retry-After", r.noRetry))
	}
	out = append(out, r.transport...)
	out = append(out, r.wrongStored...)
	for _, s := range r.retried {
		if !strings.Contains(s, ": 201,") {
			out = append(out, s)
		}
	}
	if r.opts.serverPID > 0 {
		if r.opts.budget > 0 && r.peak-r.idle > r.opts.budget {
			out = append(out, fmt.Sprintf("peak RSS %s is %s above idle, beyond the budget of %s", mib(r.peak), mib(r.peak-r.idle), mib(r.opts.budget)))
		}
		if r.settledIn < 0 {
			out = append(out, fmt.Sprintf("RSS was still %s (idle %s) %s after the burst", mib(r.after), mib(r.idle), r.opts.settle))
		}
	}
	sort.Strings(out)
	return out
}

func mib(n int64) string { return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20)) }

// markdown is the burst's table.
func (r *burstResult) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Incident `%s`. %d uploads of different pod lists (%d pods, %.1f MiB each) and %d decompression bombs (1 GiB unpacked, about 1 MiB sent), all at once; the burst took %s.\n\n",
		r.incident, r.opts.uploads, r.opts.pods, float64(r.listBytes)/(1<<20), r.opts.hostile, r.took.Round(100*time.Millisecond))
	b.WriteString("| request | answers |\n| --- | --- |\n")
	kinds := make([]string, 0, len(r.statuses))
	for k := range r.statuses {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		var parts []string
		codes := make([]int, 0, len(r.statuses[k]))
		for s := range r.statuses[k] {
			codes = append(codes, s)
		}
		sort.Ints(codes)
		for _, s := range codes {
			parts = append(parts, fmt.Sprintf("%d × %d", r.statuses[k][s], s))
		}
		fmt.Fprintf(&b, "| %s | %s |\n", k, strings.Join(parts, ", "))
	}
	if r.opts.serverPID > 0 {
		settled := "did not come back within " + r.opts.settle.String()
		if r.settledIn >= 0 {
			settled = "back within a quarter of the budget above idle " + r.settledIn.Round(time.Second).String() + " after the burst"
		}
		fmt.Fprintf(&b, "\nServer RSS: idle %s, peak %s (%s above idle; budget %s), %s, %s at the end of the wait.\n",
			mib(r.idle), mib(r.peak), mib(r.peak-r.idle), mib(r.opts.budget), settled, mib(r.after))
	}
	if len(r.retried) > 0 {
		fmt.Fprintf(&b, "\nRefused uploads sent again one at a time: %s.\n", strings.Join(r.retried, "; "))
	}
	if f := r.failures(); len(f) > 0 {
		fmt.Fprintf(&b, "\n**Failures:** %s.\n", strings.Join(f, "; "))
	} else {
		b.WriteString("\nNo 5xx other than 503 with Retry-After; every accepted upload stored whole.\n")
	}
	return b.String()
}
