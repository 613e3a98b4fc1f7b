package ingest

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// podJSON is a pod whose metadata is meta (JSON members) and whose spec is spec.
func podJSON(meta, spec string) string {
	return `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns"` + meta + `},"spec":{"containers":[{"name":"c","image":"i"}]` + spec + `}}`
}

// labels is n labels as JSON members.
func labels(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":"v"`, i)
	}
	return b.String()
}

// TestLimits: names and values the API server refuses (too long, a NUL or a control character,
// too many labels, a number no Kubernetes type holds) are refused as malformed, naming the file,
// the line and the field. A NUL and a name longer than an index row were 500s on PostgreSQL;
// the rest was stored, and a quantity of a million digits took seconds to parse.
func TestLimits(t *testing.T) {
	long := func(n int) string { return strings.Repeat("x", n) }
	digits := func(n int) string { return "1" + strings.Repeat("0", n-1) }
	for _, tc := range []struct {
		name, file, data string
		says             string // "" when the input is fine
	}{
		{"name 1 MiB", "pods.json", "{\"apiVersion\":\"v1\",\"kind\":\"PodList\",\"items\":[\n{\"metadata\":{\"name\":\"a\"}},\n{\"metadata\":{\"name\":\"" + long(1<<20) + "\"}}]}",
			"pods.json:3: metadata.name is 1048576 bytes, longer than 253"},
		{"name 4 KiB", "p.json", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"` + long(4096) + `"}}`, "p.json:1: metadata.name is 4096 bytes, longer than 253"},
		{"name 253", "p.json", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"` + long(253) + `"}}`, ""},
		{"name in YAML", "p.yaml", "# a pod\napiVersion: v1\nkind: Pod\nmetadata:\n  namespace: ns\n  name: " + long(300) + "\n", "p.yaml:1: metadata.name is 300 bytes, longer than 253"},
		{"namespace", "p.json", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"` + long(64) + `"}}`, "metadata.namespace is 64 bytes, longer than 63"},
		{"namespace 63", "p.json", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"` + long(63) + `"}}`, ""},
		{"uid", "p.json", podJSON(`,"uid":"`+long(254)+`"`, ""), "metadata.uid is 254 bytes, longer than 253"},
		{"NUL in a name", "p.json", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a\u0000b"}}`, "p.json:1: metadata.name holds a NUL"},
		{"NUL in a YAML name", "p.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: \"a\\0b\"\n", "p.yaml:1: metadata.name holds a NUL"},
		{"NUL in an image", "p.json", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\n\"spec\":{\"containers\":[{\"name\":\"c\",\n\"image\":\"i\\u0000\"}]}}",
			"p.json:3: spec.containers[0].image holds a NUL"},
		{"NUL in a key", "p.json", podJSON(`,"labels":{"a\u0000":"b"}`, ""), "metadata.labels holds a NUL in a key"},
		{"NUL in a message", "e.json", `{"apiVersion":"v1","kind":"Event","metadata":{"name":"e"},"message":"a\u0000"}`, "e.json:1: message holds a NUL"},
		{"NUL in a Deployment", "d.json", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"template":{"metadata":{"annotations":{"a":"\u0000"}}}}}`,
			`spec.template.metadata.annotations.a holds a NUL`},
		{"escaped backslash", "p.json", podJSON(`,"annotations":{"a":"\\u0000"}`, ""), ""},
		{"control character", "p.json", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a\u0007b"}}`, "metadata.name holds a control character"},
		{"label value 10 MiB", "p.json", podJSON(`,"labels":{"app":"`+long(10<<20)+`"}`, ""), `metadata.labels.app is 10485760 bytes, longer than 63`},
		{"label value 63", "p.json", podJSON(`,"labels":{"app":"`+long(63)+`"}`, ""), ""},
		{"label name", "p.json", podJSON(`,"labels":{"example.com/`+long(64)+`":"v"}`, ""), `has a name of 64 bytes, longer than 63`},
		{"label prefix", "p.json", podJSON(`,"labels":{"`+long(254)+`/a":"v"}`, ""), `has a prefix of 254 bytes, longer than 253`},
		{"label key 253/63", "p.json", podJSON(`,"labels":{"`+long(253)+`/`+long(63)+`":"v"}`, ""), ""},
		{"300k labels", "p.json", podJSON(`,"labels":{`+labels(300000)+`}`, ""), "metadata.labels has 300000 labels, more than 2048"},
		{"2048 labels", "p.json", podJSON(`,"labels":{`+labels(2048)+`}`, ""), ""},
		{"annotations", "p.json", podJSON(`,"annotations":{"a":"`+long(256<<10)+`"}`, ""), "metadata.annotations hold 262145 bytes, more than 262144"},
		{"annotations 256 KiB", "p.json", podJSON(`,"annotations":{"a":"`+long(256<<10-1)+`"}`, ""), ""},
		{"node name", "n.json", `{"apiVersion":"v1","kind":"Node","metadata":{"name":"` + long(1<<20) + `"}}`, "metadata.name is 1048576 bytes, longer than 253"},
		{"node of a pod", "p.json", podJSON("", `,"nodeName":"`+long(4096)+`"`), "spec.nodeName is 4096 bytes, longer than 253"},
		{"uid of an event", "e.json", `{"apiVersion":"v1","kind":"Event","metadata":{"name":"e","uid":"` + long(254) + `"}}`, "metadata.uid is 254 bytes, longer than 253"},
		{"involved object", "e.json", `{"apiVersion":"v1","kind":"Event","metadata":{"name":"e"},"involvedObject":{"kind":"Pod","name":"` + long(4096) + `"}}`,
			"involvedObject.name is 4096 bytes, longer than 253"},
		{"regarding", "e.json", `{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e"},"regarding":{"kind":"Pod","namespace":"` + long(64) + `"}}`,
			"regarding.namespace is 64 bytes, longer than 63"},
		{"Deployment name", "d.json", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"` + long(4096) + `"}}`, "metadata.name is 4096 bytes, longer than 253"},
		{"YAML number", "d.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  replicas: " + digits(1000000) + "\n",
			"d.yaml:1: spec.replicas holds 1000000 digits in a row, more than 1024"},
		{"YAML quantity", "p.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    resources:\n      requests:\n        cpu: " + digits(1000000) + "\n",
			"spec.containers[0].resources.requests.cpu holds 1000000 digits in a row, more than 1024"},
		{"JSON number", "d.json", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":` + digits(1000) + `}}`,
			"d.json:1: spec.replicas is a number of 1000 digits in a row, more than 32"},
		{"JSON number of 33 digits", "d.json", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":0.` + digits(33) + `}}`,
			"spec.replicas is a number of 33 digits in a row, more than 32"},
		{"JSON number of 32 digits", "d.json", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":0.` + digits(32) + `}}`, ""},
		{"JSON quantity in a list", "pods.json", "{\"apiVersion\":\"v1\",\"kind\":\"PodList\",\"items\":[\n" + podJSON("", "") + ",\n" +
			`{"metadata":{"name":"q"},"spec":{"containers":[{"name":"c","resources":{"limits":{"memory":"` + digits(1000000) + `"}}}]}}]}`,
			"pods.json:3: more than 1024 digits in a row"},
		{"digits in a string", "d.json", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","annotations":{"a":"` + digits(1024) + `"}}}`, ""},
		{"digits in text", "d.json", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","annotations":{"a":"id ` + digits(500) + ` seen"}}}`, ""},
		{"text", "pods.txt", "NAME    READY   STATUS    RESTARTS   AGE\n" + long(4096) + "   1/1     Running   0          5m\n", "pods.txt:2: metadata.name is 4096 bytes, longer than 253"},
	} {
		// For the store, and for analysis alone (pods and events decoded straight into what
		// Rootline keeps of them, which is checked the same way).
		for _, opts := range []Options{{}, {Unstored: true}} {
			t.Run(fmt.Sprintf("%s/unstored=%v", tc.name, opts.Unstored), func(t *testing.T) {
				objs, _, err := decodeAll(t, tc.file, []byte(tc.data), opts)
				if tc.says == "" {
					if err != nil || len(objs) != 1 {
						t.Fatalf("%d objects, %v; want 1", len(objs), err)
					}
					return
				}
				if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tc.says) {
					t.Fatalf("error %.300v, want a malformed input saying %q", err, tc.says)
				}
				if len(err.Error()) > 512 {
					t.Errorf("the error is %d bytes long: %.100s…", len(err.Error()), err)
				}
				for _, o := range objs {
					if o.Name != "a" && o.Name != "p" {
						t.Errorf("emitted %s %.40s", o.Kind, o.Name)
					}
				}
			})
		}
	}
}
