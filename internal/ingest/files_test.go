package ingest

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// Files of the kind people keep beside their evidence, and cut or broken evidence.
const (
	podsFile = `{"apiVersion": "v1", "kind": "List", "items": [
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "hub-0", "namespace": "prod"}},
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "hub-1", "namespace": "prod"}}
]}`
	describeFile = `Name:             api-0
Namespace:        prod
Node:             node-b/10.1.0.7
Status:           Running
Containers:
  api:
    State:          Running
    Ready:          True
    Restart Count:  0
Events:           <none>
`
	readmeFile = "# Evidence of the outage\n\nCaptured by the on-call engineer after the page.\n"
	truthFile  = `{"expected":["pod_evicted"]}`
	// cutFile is a list cut in its third pod, before the pod said its name: the decoder cannot
	// read that one, but its status still says why it was evicted.
	cutFile = `{"apiVersion": "v1", "kind": "List", "items": [
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "hub-0", "namespace": "prod"}},
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "hub-1", "namespace": "prod"}},
{"apiVersion": "v1", "kind": "Pod",
 "status": {"phase": "Failed", "reason": "Evicted",
  "message": "The node was low on resource: memory. Container hub was using 3Gi, which exceeds its request of 1Gi."`
	// cutNamedFile is cut in its second pod, after its name: the decoder reads that pod as far
	// as it goes, and nothing after it is read again for phrases.
	cutNamedFile = `{"apiVersion": "v1", "kind": "List", "items": [
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "hub-0", "namespace": "prod"}},
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "hub-1", "namespace": "prod"},
 "status": {"phase": "Failed", "reason": "Evicted",
  "message": "The node was low on resource: memory. Container hub was using 3Gi, which exceeds its request of 1Gi."`
	// brokenFile fails after its first pod: a file that may be skipped must not have it emitted.
	brokenFile = `{"apiVersion": "v1", "kind": "List", "items": [
{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "token", "namespace": "prod"}},
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "hub-0", "namespace": "prod"}},
{"apiVersion": "v1", "kind": 5}
]}`
	secretFile = `{"apiVersion": "v1", "kind": "List", "items": [
{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "token", "namespace": "prod"}},
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "hub-0", "namespace": "prod"}}
]}`
)

func randomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.NewChaCha8([32]byte{'f', 'i', 'l', 'e'}).Read(b)
	return b
}

// cutGzip is a gzip of a list of pods cut in its middle: each pod before the cut decompresses
// whole, but the archive is damaged.
func cutGzip(t *testing.T) []byte {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"kind": "List", "items": [`)
	for i := range 300 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "hub-%d", "namespace": "prod"}}`, i)
	}
	b.WriteString("]}")
	z := gzipped(t, b.String())
	return z[:len(z)/2]
}

// hubPods are the refs of the first n pods of cutGzip.
func hubPods(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("Pod prod/hub-%d", i)
	}
	return out
}

func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// fileRun is what one DecodeFile call did: the result or error, and what it emitted and told
// OnSkip, in order.
type fileRun struct {
	res  FileResult
	err  error
	seen []string // "Pod prod/hub-0", "Event Evicted …" (the only events: phrases), "skip Secret prod/token"
}

func decodeFile(t *testing.T, name string, data []byte, explicit bool, maxHeld int64, opts Options) fileRun {
	t.Helper()
	var run fileRun
	opts.OnSkip = func(s Skipped) {
		run.seen = append(run.seen, fmt.Sprintf("skip %s %s/%s", s.Kind, s.Namespace, s.Name))
	}
	d := NewDecoder(opts)
	run.res, run.err = d.DecodeFile(context.Background(), File{Name: name, Content: bytes.NewReader(data), Explicit: explicit, MaxHeld: maxHeld},
		func(o *cluster.Object) error {
			if o.Event != nil {
				run.seen = append(run.seen, "Event "+o.Event.Reason+" (a phrase after the cut)")
				return nil
			}
			run.seen = append(run.seen, o.Ref())
			return nil
		})
	return run
}

func TestDecodeFile(t *testing.T) {
	const evicted = "Event Evicted (a phrase after the cut)"
	tests := []struct {
		name     string
		file     string
		data     []byte
		explicit bool
		maxHeld  int64
		opts     Options
		outcome  Outcome
		objects  int
		salvaged int
		reason   string   // in Reason(); for an error, in its message
		errIs    error    // the error returned, if any
		seen     []string // emitted and skipped, in order; nil for nothing
	}{
		{name: "pods", file: "pods.json", data: []byte(podsFile), outcome: FileRead, objects: 2,
			seen: []string{"Pod prod/hub-0", "Pod prod/hub-1"}},
		{name: "describe text", file: "describe.txt", data: []byte(describeFile), outcome: FileRead, objects: 1,
			seen: []string{"Pod prod/api-0"}},
		{name: "README in a folder", file: "README.md", data: []byte(readmeFile), outcome: FileSkipped,
			reason: "kubectl output"},
		// A document of prose named on purpose is read, with nothing in it kept: no refusal.
		{name: "README named", file: "README.md", data: []byte(readmeFile), explicit: true, outcome: FileRead,
			reason: "prose without kubectl output"},
		// A JSON log named on purpose holds no Kubernetes object: it is read as text, for the
		// messages in it; notes that YAML takes for a list too.
		{name: "a JSON log named", file: "karpenter.log", explicit: true, outcome: FileRead, objects: 1,
			data: []byte(`{"level":"ERROR","message":"could not schedule pod","Pod":{"name":"web-1","namespace":"shop"}}` + "\n"),
			seen: []string{"Event FailedScheduling (a phrase after the cut)"}},
		{name: "notes YAML takes for a list", file: "notes.txt", explicit: true, outcome: FileRead,
			data: []byte("## Sample run\n\n    [01:18 PM main]\n    [INFO] Using kubeconfig from env.\n"), reason: "read as text: expected a Kubernetes object, found an array"},
		// A file named as JSON says what it is: its error says where.
		{name: "broken JSON named .json", file: "pods.json", explicit: true, data: []byte(`[{"kind":"Pod","metadata":{"name":"a"}} {"kind":"Pod"}]`),
			reason: "invalid character", errIs: ErrMalformed, seen: []string{"Pod a"}},
		// Unless it holds no Kubernetes object at all: a tool's records, read as text for their
		// messages; with none, the JSON's error stands.
		{name: "JSON of no Kubernetes object nor message named .json", file: "pods.json", explicit: true, data: []byte(`[{"level":"INFO"}]`),
			reason: "pods.json:1: object without kind", errIs: ErrMalformed},
		{name: "a node's conditions on one line named .json: machine output, not a person's claim", file: "conditions.json", explicit: true, outcome: FileRead, objects: 1,
			data: []byte(`[{"type":"DiskPressure","status":"True","reason":"KubeletHasDiskPressure","message":"kubelet has disk pressure"}]`),
			seen: []string{"Event KubeletHasDiskPressure (a phrase after the cut)"}},
		{name: "a node's conditions named .json", file: "conditions.json", explicit: true, outcome: FileRead, objects: 1,
			data: []byte("[\n  {\n    \"message\": \"kubelet has disk pressure\",\n    \"reason\": \"KubeletHasDiskPressure\",\n    \"status\": \"True\",\n    \"type\": \"DiskPressure\"\n  }\n]\n"),
			seen: []string{"Event KubeletHasDiskPressure (a phrase after the cut)"}},
		// Text is never refused: named on purpose, it is read, with nothing kept.
		{name: "text of nothing named", file: "notes.txt", data: []byte("hello\n"), explicit: true, outcome: FileRead,
			reason: "no Kubernetes message found"},
		{name: "truth.json", file: "truth.json", data: []byte(truthFile), outcome: FileSkipped, reason: "object without kind"},
		{name: "binary", file: "screenshot.png", data: randomBytes(4096), outcome: FileSkipped, reason: "binary data"},
		{name: "empty", file: "notes.txt", data: []byte("\n  \n"), outcome: FileSkipped, reason: "empty input"},
		{name: "truncated in a folder", file: "cut.json", data: []byte(cutFile), outcome: FileTruncated, objects: 3, salvaged: 1,
			reason: "the input is truncated; kept 2 objects before the cut and 1 signal phrase after the last of them",
			seen:   []string{"Pod prod/hub-0", "Pod prod/hub-1", evicted}},
		{name: "truncated in a named object", file: "cut.json", data: []byte(cutNamedFile), outcome: FileTruncated, objects: 2,
			reason: "the object at the cut was read as far as it goes; kept 2 objects before the cut and 0 signal phrases",
			seen:   []string{"Pod prod/hub-0", "Pod prod/hub-1"}},
		{name: "truncated named", file: "cut.json", data: []byte(cutFile), explicit: true, outcome: FileTruncated, objects: 3, salvaged: 1,
			reason: "kept 2 objects", seen: []string{"Pod prod/hub-0", "Pod prod/hub-1", evicted}},
		{name: "truncated, held beyond MaxHeld", file: "cut.json", data: []byte(cutFile), maxHeld: 1, outcome: FileTruncated, objects: 3, salvaged: 1,
			reason: "kept 2 objects", seen: []string{"Pod prod/hub-0", "Pod prod/hub-1", evicted}},
		// Cut before its first object: truncated, with nothing kept (the upload handler refuses
		// it for that, with its error; analyze reports an empty analysis and the gap).
		{name: "truncated before anything", file: "cut.json", data: []byte(`{"items": [`), outcome: FileTruncated,
			reason: "unexpected end of JSON: the input is truncated; nothing before the cut could be read"},
		{name: "truncated before anything, named", file: "cut.json", data: []byte(`{"items": [`), explicit: true, outcome: FileTruncated,
			reason: "nothing before the cut could be read"},
		// Not salvaged, though pods were read whole before the cut: a cut archive is damaged.
		{name: "truncated gzip", file: "cut.json.gz", data: cutGzip(t), outcome: FileSkipped,
			reason: "unexpected end of JSON: the input is truncated"},
		{name: "truncated gzip, named", file: "cut.json.gz", data: cutGzip(t), explicit: true,
			reason: "unexpected end of JSON: the input is truncated", errIs: ErrMalformed, seen: hubPods(125)},
		{name: "broken after a pod", file: "broken.json", data: []byte(brokenFile), outcome: FileSkipped, reason: "kind must be a string"},
		{name: "broken after a pod, beyond MaxHeld", file: "broken.json", data: []byte(brokenFile), maxHeld: 1, outcome: FileSkipped,
			reason: "kind must be a string"},
		{name: "broken after a pod, named", file: "broken.json", data: []byte(brokenFile), explicit: true,
			reason: "kind must be a string", errIs: ErrMalformed, seen: []string{"skip Secret prod/token", "Pod prod/hub-0"}},
		{name: "skips of a file kept", file: "secret.json", data: []byte(secretFile), outcome: FileRead, objects: 1,
			seen: []string{"skip Secret prod/token", "Pod prod/hub-0"}},
		{name: "skips of a file kept, beyond MaxHeld", file: "secret.json", data: []byte(secretFile), maxHeld: 1, outcome: FileRead, objects: 1,
			seen: []string{"skip Secret prod/token", "Pod prod/hub-0"}},
		{name: "too large is never skipped", file: "pods.json", data: []byte(podsFile), opts: Options{MaxBytes: 100},
			reason: "larger than the limit", errIs: ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := decodeFile(t, tt.file, tt.data, tt.explicit, tt.maxHeld, tt.opts)
			if diff := cmp.Diff(tt.seen, run.seen); diff != "" {
				t.Errorf("emitted (-want +got):\n%s", diff)
			}
			if tt.errIs != nil {
				if !errors.Is(run.err, tt.errIs) || !strings.Contains(run.err.Error(), tt.reason) {
					t.Fatalf("err = %v, want %v saying %q", run.err, tt.errIs, tt.reason)
				}
				return
			}
			if run.err != nil {
				t.Fatalf("err = %v", run.err)
			}
			r := run.res
			if r.Name != tt.file || r.Outcome != tt.outcome || r.Objects != tt.objects || r.Salvaged != tt.salvaged {
				t.Errorf("result = %s %s, %d objects, %d salvaged; want %s, %d, %d", r.Name, r.Outcome, r.Objects, r.Salvaged, tt.outcome, tt.objects, tt.salvaged)
			}
			if !strings.Contains(r.Reason(), tt.reason) || (tt.reason == "") != (r.Err == nil) {
				t.Errorf("reason = %q (err %v), want %q", r.Reason(), r.Err, tt.reason)
			}
			if r.Outcome != FileRead {
				s := r.Skipped()
				if s.File != tt.file || s.Kind != FileKind || s.Reason != r.Reason() || !strings.HasPrefix(r.String(), tt.file+":") {
					t.Errorf("Skipped() = %+v, String() = %q", s, r.String())
				}
			}
		})
	}
}

// TestDecodeFileBudget checks that a file decoded twice (beyond MaxHeld) counts once against
// the decoder's byte budget, and that salvaging reads nothing more into it.
func TestDecodeFileBudget(t *testing.T) {
	for _, maxHeld := range []int64{0, 1} {
		for _, data := range []string{podsFile, cutFile} {
			d := NewDecoder(Options{MaxBytes: int64(len(data)) + 1})
			for i := range 2 { // a second file of the same size goes over the budget
				_, err := d.DecodeFile(context.Background(), File{Name: "f.json", Content: strings.NewReader(data), MaxHeld: maxHeld},
					func(*cluster.Object) error { return nil })
				if (i == 1) != errors.Is(err, ErrTooLarge) {
					t.Errorf("MaxHeld %d, file %d of %.20q: err = %v", maxHeld, i+1, data, err)
				}
			}
		}
	}
}

// TestDecodeFileEmitError checks that emit's error comes back unchanged, held or streamed.
func TestDecodeFileEmitError(t *testing.T) {
	stop := errors.New("stop")
	for _, explicit := range []bool{false, true} {
		for _, data := range []string{podsFile, cutFile} {
			_, err := NewDecoder(Options{}).DecodeFile(context.Background(), File{Name: "f.json", Content: strings.NewReader(data), Explicit: explicit},
				func(*cluster.Object) error { return stop })
			if err != stop {
				t.Errorf("explicit %v, %.20q: err = %v, want emit's own", explicit, data, err)
			}
		}
	}
}
