package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/corpustest"
	"github.com/rootline-dev/rootline/internal/synth"
)

// The differential tests of issue 16: the fast decode (the stream of json.go, sonic in
// decodeTyped) against encoding/json (the stream as it was, refStream, and json.Unmarshal),
// on the corpus, the test data, generated lists, hand-made edge cases and fuzzed input.

// typedEdges are JSON values on which sonic and encoding/json could part: case and Unicode
// folding of keys, escapes, numbers at the limits of their types, nulls, empty and repeated
// values, bad syntax inside fields that are skipped.
var typedEdges = []string{
	`{"kind":"Pod","metadata":{"name":"a","namespace":"b"},"spec":{"nodeName":"n"}}`,
	`{"Kind":"Pod","METADATA":{"Name":"a","NameSpace":"b"},"Spec":{"NODENAME":"n"}}`,
	`{"kind":"Pod","metadata":{"name":"a"},"ſpec":{"nodeName":"n"}}`,
	`{"kind":"Pod","metadata":{"name":"a"},"\u017fpec":{"nodeName":"n"}}`,
	`{"kind":"Node","metadata":{"name":"a","labels":{"\u212aey":"v","Key":"w"}},"spec":{"unschedulable":true}}`,
	`{"kind":"Node","metadata":{"name":"a"},"\u212aind":"Node"}`,
	`{"kind":"Pod","metadata":{"name":"a","name":"b","Name":"c"}}`,
	`{"kind":"Pod","spec":{"containers":[{"name":"a"}],"containers":[{"name":"b"},{"name":"c"}]}}`,
	`{"kind":"Pod","metadata":{"labels":{"a":"1"},"labels":{"b":"2"}}}`,
	`{"kind":"Pod","spec":{"containers":[]},"status":{"conditions":null}}`,
	`{"kind":"Pod","spec":{"priority":2147483648}}`,
	`{"kind":"Pod","spec":{"priority":-2147483649}}`,
	`{"kind":"Pod","spec":{"priority":1.0}}`,
	`{"kind":"Pod","spec":{"priority":1e2}}`,
	`{"kind":"Pod","spec":{"priority":-0}}`,
	`{"kind":"Pod","spec":{"terminationGracePeriodSeconds":9223372036854775808}}`,
	`{"kind":"Pod","spec":{"priority":"1"}}`,
	`{"kind":"Pod","spec":{"containers":[{"resources":{"requests":{"cpu":"10m","memory":"1e400"}}}]}}`,
	`{"kind":"Pod","spec":{"containers":[{"resources":{"requests":{"cpu":1.5,"memory":100}}}]}}`,
	`{"kind":"Pod","spec":{"containers":[{"resources":{"requests":{"cpu":"bogus"}}}]}}`,
	`{"kind":"Pod","metadata":{"creationTimestamp":"2024-01-02T03:04:05Z"}}`,
	`{"kind":"Pod","metadata":{"creationTimestamp":"yesterday"}}`,
	`{"kind":"Pod","metadata":{"creationTimestamp":null}}`,
	`{"kind":"Pod","metadata":{"name":"\ud800"}}`,
	`{"kind":"Pod","metadata":{"name":"\ud83d\ude00 \u00e9 \/ \b\f\n\r\t"}}`,
	`{"kind":"Pod","metadata":{"name":"\x"}}`,
	"{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\tb\"}}",
	"{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\x00b\"}}",
	`{"kind":"Pod","unknown":[1 2]}`,
	`{"kind":"Pod","unknown":{"a":tru}}`,
	`{"kind":"Pod","unknown":{"a":01}}`,
	`{"kind":"Pod","unknown":{"a":-}}`,
	`{"kind":"Pod","unknown":{"a":1.}}`,
	`{"kind":"Pod","unknown":{"a":.5}}`,
	`{"kind":"Pod","unknown":{"a":1e}}`,
	`{"kind":"Pod","unknown":{"a":[1,]}}`,
	`{"kind":"Pod","unknown":{"a":1,}}`,
	`{"kind":"Pod","unknown":"\u12"}`,
	`{"kind":"Pod"} x`,
	`{"kind":"Pod"`,
	`[]`,
	`null`,
	`"pod"`,
	`{"kind":"Pod","spec":{"volumes":[{"name":"v","configMap":{"defaultMode":420}}]}}`,
	`{"kind":"Pod","spec":{"containers":[{"ports":[{"containerPort":"80"}]}]}}`,
	`{"kind":"Pod","spec":{"containers":[{"livenessProbe":{"httpGet":{"port":"http"}}}]}}`,
	`{"kind":"Pod","spec":{"containers":[{"livenessProbe":{"httpGet":{"port":8080}}}]}}`,
	`{"kind":"Pod","spec":{"containers":[{"livenessProbe":{"httpGet":{"port":true}}}]}}`,
	`{"kind":"Pod","spec":{"overhead":{"cpu":"1"},"nodeSelector":{"a":null}}}`,
	`{"kind":"Pod","spec":{"nodeSelector":{"a":1}}}`,
	`{"kind":"Pod","spec":{"containers":{"name":"a"}}}`,
	`{"kind":"Pod","spec":"x"}`,
	`{"kind":"Event","involvedObject":{"kind":"Pod","name":"a"},"count":3,"firstTimestamp":"2024-01-02T03:04:05Z","eventTime":"2024-01-02T03:04:05.123456Z"}`,
	`{"kind":"Event","eventTime":"2024-01-02T03:04:05Z"}`,
	`{"kind":"Event","eventTime":"2024-01-02"}`,
	`{"kind":"Event","series":{"count":2,"lastObservedTime":"2024-01-02T03:04:05.000001Z"}}`,
	`{"apiVersion":"events.k8s.io/v1","kind":"Event","regarding":{"kind":"Pod"},"note":"n","deprecatedCount":2}`,
	`{"kind":"Node","status":{"capacity":{"cpu":"4","memory":"16Gi","pods":"110"},"allocatable":{"cpu":"3920m"}}}`,
	`{"kind":"Node","spec":{"taints":[{"key":"k","effect":"NoSchedule","timeAdded":null}]}}`,
	`{"kind":"Node","status":{"images":[{"names":["a","b"],"sizeBytes":123}]}}`,
}

// typedTargets are what decodeTyped decodes into.
var typedTargets = []func() any{
	func() any { return new(corev1.Pod) },
	func() any { return new(corev1.Node) },
	func() any { return new(corev1.Event) },
	func() any { return new(eventsv1.Event) },
}

// checkTypedDecode decodes raw into each target both ways and fails on any difference. The fast
// decode's input is then overwritten: what it returned must not point into it.
func checkTypedDecode(t *testing.T, raw []byte) {
	t.Helper()
	warm(t)
	d := &Decoder{}
	for _, newT := range typedTargets {
		fast, std := newT(), newT()
		in := bytes.Clone(raw)
		ferr := d.decodeTyped(in, fast)
		for i := range in {
			in[i] = 'x'
		}
		serr := json.Unmarshal(raw, std)
		if (ferr == nil) != (serr == nil) || ferr != nil && ferr.Error() != serr.Error() {
			t.Fatalf("%T of %q: fast decode error %v, encoding/json %v", fast, raw, ferr, serr)
		}
		if serr == nil && !reflect.DeepEqual(fast, std) {
			fj, _ := json.Marshal(fast)
			sj, _ := json.Marshal(std)
			t.Fatalf("%T of %q:\nfast decode    %s\nencoding/json  %s", fast, raw, fj, sj)
		}
	}
}

// warm waits for the fast decoders: before they are ready, decodeTyped is encoding/json.
func warm(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := WarmUp(ctx); err != nil || !fastReady().Load() {
		t.Fatalf("the fast decoders were not ready: %v", err)
	}
}

func TestDecodeTypedMatchesStd(t *testing.T) {
	for _, raw := range typedEdges {
		checkTypedDecode(t, []byte(raw))
	}
	for _, item := range syntheticItems(t) {
		checkTypedDecode(t, item)
	}
}

// syntheticItems are the items of small generated pod, node and event lists.
func syntheticItems(t testing.TB) [][]byte {
	o := synth.Options{Nodes: 6, Pods: 40, Events: 60, Seed: 7}
	var items [][]byte
	for _, write := range []func(*bytes.Buffer, synth.Options) error{
		func(b *bytes.Buffer, o synth.Options) error { return synth.WritePodList(b, o) },
		func(b *bytes.Buffer, o synth.Options) error { return synth.WriteNodeList(b, o) },
		func(b *bytes.Buffer, o synth.Options) error { return synth.WriteEventList(b, o) },
	} {
		var b bytes.Buffer
		if err := write(&b, o); err != nil {
			t.Fatal(err)
		}
		var list struct{ Items []json.RawMessage }
		if err := json.Unmarshal(b.Bytes(), &list); err != nil {
			t.Fatal(err)
		}
		for _, it := range list.Items {
			items = append(items, it)
		}
	}
	return items
}

func FuzzDecodeTyped(f *testing.F) {
	for _, raw := range typedEdges {
		f.Add([]byte(raw))
	}
	for _, item := range syntheticItems(f)[:20] {
		f.Add(item)
	}
	f.Fuzz(func(t *testing.T, raw []byte) { checkTypedDecode(t, raw) })
}

// streamResult is what a decode of one input gave.
type streamResult struct {
	objs    []*cluster.Object
	skipped []Skipped
	err     error
}

// decodeBoth decodes data, named name, through the whole Decoder: with the stream of json.go
// and sonic, and with the reference stream and encoding/json alone.
func decodeBoth(t testing.TB, name string, data []byte) (fast, std streamResult) {
	warm(t)
	run := func(ref bool) streamResult {
		var r streamResult
		d := NewDecoder(Options{MaxBytes: 64 << 20, OnSkip: func(s Skipped) { r.skipped = append(r.skipped, s) }})
		if ref {
			d.stdJSON = true
			d.jsonRef = d.refDecodeJSON
		}
		r.err = d.Decode(context.Background(), name, bytes.NewReader(data), func(o *cluster.Object) error {
			r.objs = append(r.objs, o)
			return nil
		})
		return r
	}
	return run(false), run(true)
}

// sameStream fails when the two decodes differ in what they emitted or skipped, or in whether
// and where they failed: the same file, line, sentinel and truncation. The messages of faults
// in the structure between items may differ: the reference reported some at the wrong byte
// (a missing comma after an item at the end of the next item), the stream at the byte at fault.
func sameStream(t *testing.T, name string, data []byte) {
	t.Helper()
	fast, std := decodeBoth(t, name, data)
	if !reflect.DeepEqual(fast.objs, std.objs) || !reflect.DeepEqual(fast.skipped, std.skipped) {
		t.Fatalf("%s: the fast decode emitted\n%s\nthe reference\n%s", name, dump(fast.objs, fast.skipped), dump(std.objs, std.skipped))
	}
	if (fast.err == nil) != (std.err == nil) {
		t.Fatalf("%s: the fast decode fails with %v, the reference with %v", name, fast.err, std.err)
	}
	var fe, se *Error
	if errors.As(fast.err, &fe) != errors.As(std.err, &se) {
		t.Fatalf("%s: the fast decode fails with %v, the reference with %v", name, fast.err, std.err)
	}
	if fe == nil {
		if fast.err != nil && fast.err.Error() != std.err.Error() {
			t.Fatalf("%s: the fast decode fails with %v, the reference with %v", name, fast.err, std.err)
		}
		return
	}
	if fe.File != se.File || fe.Truncated != se.Truncated || !errors.Is(fe, se.Err) || fe.ReadTo != se.ReadTo {
		t.Fatalf("%s: the fast decode fails with %+v, the reference with %+v", name, *fe, *se)
	}
	if fe.Line != se.Line && !betweenValues(se) {
		t.Fatalf("%s: the fast decode fails at line %d (%v), the reference at line %d (%v)", name, fe.Line, fe, se.Line, se)
	}
}

// betweenValues reports a reference error about the structure between values, which the
// reference placed by a guess.
func betweenValues(e *Error) bool {
	for _, s := range []string{"after top-level value", "after array element", "after object key", "looking for beginning of"} {
		if strings.Contains(e.Msg, s) {
			return true
		}
	}
	return false
}

// TestStreamMatchesReference runs both decodes over the corpus, the test data, generated
// lists in each layout kubectl writes, and cut and broken variants of them.
func TestStreamMatchesReference(t *testing.T) {
	inputs := map[string][]byte{}
	for _, path := range corpustest.Files(t, "*.json") {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(path)] = b
	}
	paths, _ := filepath.Glob("testdata/*.json*")
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(path)] = b
	}
	o := synth.Options{Nodes: 5, Pods: 30, Events: 50, Seed: 11}
	for name, write := range map[string]func(*bytes.Buffer, synth.Options) error{
		"pods.json":   func(b *bytes.Buffer, o synth.Options) error { return synth.WritePodList(b, o) },
		"nodes.json":  func(b *bytes.Buffer, o synth.Options) error { return synth.WriteNodeList(b, o) },
		"events.json": func(b *bytes.Buffer, o synth.Options) error { return synth.WriteEventList(b, o) },
	} {
		var b bytes.Buffer
		if err := write(&b, o); err != nil {
			t.Fatal(err)
		}
		inputs[name] = b.Bytes()
		var compact bytes.Buffer
		if err := json.Compact(&compact, b.Bytes()); err != nil {
			t.Fatal(err)
		}
		inputs["compact-"+name] = compact.Bytes()
		var list struct{ Items []json.RawMessage }
		if err := json.Unmarshal(b.Bytes(), &list); err != nil {
			t.Fatal(err)
		}
		var lines, array bytes.Buffer
		array.WriteString("[\n")
		for i, it := range list.Items {
			var c bytes.Buffer
			_ = json.Compact(&c, it)
			lines.Write(append(c.Bytes(), '\n'))
			if i > 0 {
				array.WriteString(",\n")
			}
			array.Write(it)
		}
		array.WriteString("\n]\n")
		inputs["lines-"+name+"l"] = lines.Bytes()
		inputs["array-"+name] = array.Bytes()
	}
	for name, data := range inputs {
		t.Run(name, func(t *testing.T) {
			sameStream(t, name, data)
			// Cut at a few places, and with a byte changed at a few places.
			for _, frac := range []int{3, 5, 7, 11} {
				at := len(data) * (frac - 1) / frac
				sameStream(t, name, data[:at])
				bad := bytes.Clone(data)
				bad[at] = '}'
				sameStream(t, name, bad)
				bad[at] = 'x'
				sameStream(t, name, bad)
			}
		})
	}
}

func FuzzStream(f *testing.F) {
	for _, raw := range typedEdges {
		f.Add([]byte(raw))
		f.Add([]byte(`{"apiVersion":"v1","kind":"List","items":[` + raw + `,` + raw + `]}`))
		f.Add([]byte(`{"kind":"PodList","items":[` + raw + `]}`))
		f.Add([]byte(raw + "\n" + raw + "\n"))
	}
	for _, s := range []string{
		`{"kind":"List","items":null}`, `{"kind":"List","items":[]}`, `{"kind":"List","items":{}}`,
		`{"kind":"List","items":[{"kind":"Pod"} {"kind":"Pod"}]}`, `{"kind":"List","items":[{"kind":"Pod"},]}`,
		`{"kind":"List","items":[1]}`, `{"kind":"List" "items":[]}`, `{"kind":"List","items":[],"items":[]}`,
		`[{"kind":"Pod","metadata":{"name":"a"}},{"kind":"Deployment","metadata":{"name":"d"}}]`,
		`{"kind":"List","items":[{"kind":"Pod","metadata":{"name":"a"}},{"kind":"Node","metadata":{"name":"n"}},{"kind":"Event","reason":"r"}]}`,
		`{"kind":"List","items":[{"kind":"Pod","metadata":{"name":"a"}},{"kind":"Pod","metadata":{"name":"b"`,
		"{\"kind\":\"List\",\"items\":[\n{\"kind\":\"Pod\",\n\"metadata\":{\"name\":\"a\"}}\n,\n{\"kind\":x}]}",
		`{"kind":"Pod","metadata":{"name":"a"}}{"kind":"Pod","metadata":{"name":"b"}}`, `{"a":1} 2`, `{"kind":"Pod"}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { sameStream(t, "fuzz.json", data) })
}

// TestFastPathTaken: the differential tests would pass as well if every item fell back to
// encoding/json; here generated pods, nodes and events, and the corpus's JSON lists, are
// decoded by sonic, none left to encoding/json, while an item whose key folds to ASCII only
// under Unicode's rules is.
func TestFastPathTaken(t *testing.T) {
	warm(t)
	d := NewDecoder(Options{})
	items := syntheticItems(t)
	for i, item := range items {
		v := typedTargets[[]int{0, 1, 2}[min(i*3/len(items), 2)]]()
		if err := d.decodeTyped(item, v); err != nil {
			t.Fatal(err)
		}
	}
	for _, path := range corpustest.Files(t, "1*-kubescout-get-*.json") {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		if err := d.Decode(context.Background(), filepath.Base(path), bytes.NewReader(b), func(*cluster.Object) error { n++; return nil }); err != nil || n == 0 {
			t.Fatalf("%s: %d objects, %v", path, n, err)
		}
	}
	if n := d.slowTyped.Load(); n != 0 {
		t.Errorf("%d typed decodes fell back to encoding/json, want none", n)
	}
	if err := d.decodeTyped([]byte(`{"metadata":{"name":"a"},"ſpec":{}}`), new(corev1.Pod)); err != nil {
		t.Fatal(err)
	}
	if n := d.slowTyped.Load(); n != 1 {
		t.Errorf("%d fallbacks after a key with the long s, want 1", n)
	}
}
