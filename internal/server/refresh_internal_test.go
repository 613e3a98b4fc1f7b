package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestRefreshRounds: start returns at once; the calls that come while a round runs share the
// next round; settle returns only once every round asked for before it has finished, or its
// context ends; nothing is left behind.
func TestRefreshRounds(t *testing.T) {
	t.Parallel()
	var r refreshes
	release := make(chan struct{})
	var mu sync.Mutex
	rounds := map[string]int{}
	run := func(id string) func() {
		return func() {
			mu.Lock()
			rounds[id]++
			first := id == "a" && rounds[id] == 1
			mu.Unlock()
			if first {
				<-release // a's first round runs until every call has come
			}
		}
	}
	count := func(id string) int {
		mu.Lock()
		defer mu.Unlock()
		return rounds[id]
	}
	r.start("a", run("a"))
	for deadline := time.Now().Add(5 * time.Second); count("a") < 1; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the first round never started")
		}
	}
	for range 39 {
		r.start("a", run("a")) // returns at once, while the first round runs
	}
	r.start("b", run("b"))

	short, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := r.settle(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("settle while a round it waits for runs: %v, want the context's deadline", err)
	}

	settled := make(chan error, 1)
	go func() { settled <- r.settle(context.Background()) }()
	select {
	case err := <-settled:
		t.Fatalf("settle returned (%v) while a round asked for before it still ran", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if err := <-settled; err != nil {
		t.Fatal(err)
	}
	if n := count("a"); n != 2 {
		t.Errorf("a: %d rounds, want 2: the first, and one for the 39 calls that came during it", n)
	}
	if n := count("b"); n != 1 {
		t.Errorf("b: %d rounds, want 1", n)
	}
	r.running.Wait()
	if len(r.rounds) != 0 {
		t.Errorf("state left behind: %v", r.rounds)
	}
	r.start("a", run("a")) // alone: one more round
	if err := r.settle(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := count("a"); n != 3 {
		t.Errorf("a call alone: %d rounds of a, want 3", n)
	}
	if err := r.settle(context.Background()); err != nil { // nothing asked for: at once
		t.Fatal(err)
	}
}

// gatedLibrary holds every analysis signature (set or merged) back until gate is closed, saying on entered
// that one is waiting.
type gatedLibrary struct {
	LibraryStore
	gate    chan struct{}
	entered chan string
}

// wait says on entered that a write of id's signature waits, and waits for the gate.
func (g gatedLibrary) wait(ctx context.Context, id string) error {
	select {
	case g.entered <- id:
	default:
	}
	select {
	case <-g.gate:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (g gatedLibrary) SetAnalysisSignature(ctx context.Context, id string, sig incident.Signature) error {
	if err := g.wait(ctx, id); err != nil {
		return err
	}
	return g.LibraryStore.SetAnalysisSignature(ctx, id, sig)
}

func (g gatedLibrary) MergeAnalysisSignature(ctx context.Context, id string, sig incident.Signature, from *time.Time) error {
	if err := g.wait(ctx, id); err != nil {
		return err
	}
	return g.LibraryStore.MergeAnalysisSignature(ctx, id, sig, from)
}

// TestUploadAnswersBeforeItsSignature: an upload is answered once its snapshot is stored,
// while its signature refresh still runs; what reads signatures (the library's list, related
// incidents, the signature) waits for that refresh and then shows it; Close waits for it too.
func TestUploadAnswersBeforeItsSignature(t *testing.T) {
	t.Parallel()
	pg := storetest.NewPostgres()
	t.Cleanup(pg.Drop)
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		deps := quietDeps(st)
		lib := gatedLibrary{LibraryStore: st, gate: make(chan struct{}), entered: make(chan string, 1)}
		deps.Library = lib
		srv := New(offConfig(), deps)
		ts := httptest.NewServer(srv.Handler())
		defer ts.Close()
		client := &http.Client{Timeout: 30 * time.Second} // an upload that waited for the gate fails, not hangs
		do := func(method, path, contentType string, body io.Reader) (int, string) {
			t.Helper()
			req, err := http.NewRequestWithContext(t.Context(), method, ts.URL+path, body)
			if err != nil {
				t.Fatal(err)
			}
			if contentType != "" {
				req.Header.Set("Content-Type", contentType)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Error(err) // in a goroutine: no Fatal
				return 0, ""
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b)
		}
		if status, out := do("POST", "/api/v1/incidents", "application/json", strings.NewReader(`{"id": "g", "title": "Gated"}`)); status != http.StatusCreated {
			t.Fatalf("create: %d %s", status, out)
		}
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		part, _ := mw.CreateFormFile("file", "pods.json")
		fmt.Fprint(part, `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "hub-1", "namespace": "prod", "uid": "u1"},
			"spec": {"nodeName": "core-1", "containers": [{"name": "hub"}]},
			"status": {"phase": "Failed", "reason": "Evicted", "message": "The node was low on resource: memory."}}`)
		mw.Close()
		if status, out := do("POST", "/api/v1/incidents/g/snapshots", mw.FormDataContentType(), &body); status != http.StatusCreated {
			t.Fatalf("upload: %d %s", status, out)
		}
		select { // answered while the refresh is held at its write
		case <-lib.entered:
		case <-time.After(30 * time.Second):
			t.Fatal("the upload's signature refresh never came to its write")
		}

		type answer struct {
			path   string
			status int
			body   string
		}
		paths := []string{"/api/v1/incidents", "/api/v1/incidents/g/signature", "/api/v1/incidents/g/related"}
		answers := make(chan answer, len(paths))
		for _, p := range paths {
			go func() {
				status, out := do("GET", p, "", nil)
				answers <- answer{p, status, out}
			}()
		}
		select {
		case a := <-answers:
			t.Fatalf("%s answered (%d) before the refresh asked for before it was done", a.path, a.status)
		case <-time.After(100 * time.Millisecond):
		}
		close(lib.gate)
		for range paths {
			a := <-answers
			if a.status != http.StatusOK {
				t.Errorf("%s: %d %s", a.path, a.status, a.body)
			}
			if a.path == "/api/v1/incidents/g/signature" && !strings.Contains(a.body, `"pod_evicted"`) {
				t.Errorf("the signature after the refresh lacks the eviction: %s", a.body)
			}
		}
		if err := srv.Close(t.Context()); err != nil {
			t.Fatal(err)
		}
		sigs, err := st.Signatures(t.Context(), "g")
		if err != nil {
			t.Fatal(err)
		}
		if sigs.ByOrigin[incident.OriginAnalysis].Empty() {
			t.Errorf("no analysis signature stored: %+v", sigs)
		}
	})
}

// TestUploadKeepsNoSlotForItsRefresh: an upload answered while its objects wait for the refresh
// of its incident's signature gives its worker slot back. On a server of one slot, with every
// refresh held before it starts, a second upload is stored; when the first kept its slot, the
// second waited for it and was refused 503 (and a refresh of a whole incident, which takes a
// slot, waited on uploads that waited on it).
func TestUploadKeepsNoSlotForItsRefresh(t *testing.T) {
	t.Parallel()
	pg := storetest.NewPostgres()
	t.Cleanup(pg.Drop)
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		srv := New(offConfig(), quietDeps(st))
		srv.budget = newBudget(1<<30, 1, 2*time.Second)
		srv.refreshes.mu.Lock()
		srv.refreshes.init()
		srv.refreshes.mu.Unlock()
		for range cap(srv.refreshes.slots) { // every refresh waits before it starts
			srv.refreshes.slots <- struct{}{}
		}
		ts := httptest.NewServer(srv.Handler())
		defer ts.Close()
		defer func() {
			for range cap(srv.refreshes.slots) {
				<-srv.refreshes.slots
			}
		}()
		upload := func(id, pod string) (int, string) {
			t.Helper()
			var body bytes.Buffer
			mw := multipart.NewWriter(&body)
			part, _ := mw.CreateFormFile("file", "pods.json")
			fmt.Fprintf(part, `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": %q, "namespace": "prod", "uid": %q},
				"spec": {"nodeName": "core-1", "containers": [{"name": "hub"}]},
				"status": {"phase": "Failed", "reason": "Evicted", "message": "The node was low on resource: memory."}}`, pod, "uid-"+pod)
			mw.Close()
			resp, err := http.Post(ts.URL+"/api/v1/incidents/"+id+"/snapshots?create=true", mw.FormDataContentType(), &body)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b)
		}
		if status, out := upload("first", "hub-1"); status != http.StatusCreated {
			t.Fatalf("first upload: %d %s", status, out)
		}
		if status, out := upload("second", "hub-2"); status != http.StatusCreated {
			t.Errorf("an upload while another's objects wait for their refresh: %d %s", status, out)
		}
	})
}
