package ingest

import (
	"errors"
	"strings"
	"testing"
)

// TestDuplicateKeys: an object that says a key twice at its top level or in its metadata is
// refused, naming the key and its line, and nothing of it is emitted: its row said one kind
// while its raw JSON held another ("kind": "Deployment", then "kind": "Secret" with the
// Secret's data in plain text). YAML refuses repeated keys at any depth, as kubectl does.
func TestDuplicateKeys(t *testing.T) {
	const secret = `"stringData":{"password":"hunter2"}`
	for _, tc := range []struct {
		name, file, data string
		says             string // "" when the input is fine
	}{
		{"kind", "d.json", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"x","namespace":"y"},"spec":{},"kind":"Secret",` + secret + `}`,
			`d.json:1: duplicate key "kind"`},
		{"kind on its line", "d.json", "{\n  \"apiVersion\": \"apps/v1\",\n  \"kind\": \"Deployment\",\n  \"metadata\": {\"name\": \"x\"},\n  \"kind\": \"Secret\",\n  " + secret + "\n}",
			`d.json:5: duplicate key "kind"`},
		{"secret first", "d.json", `{"kind":"Secret","apiVersion":"v1","metadata":{"name":"x"},` + secret + `,"kind":"Deployment"}`,
			`d.json:1: duplicate key "kind"`},
		{"escaped", "d.json", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"x"},"k\u0069nd":"Secret",` + secret + `}`,
			`duplicate key "kind"`},
		{"apiVersion", "p.json", `{"apiVersion":"v1","kind":"Pod","apiVersion":"v2","metadata":{"name":"p"}}`, `p.json:1: duplicate key "apiVersion"`},
		{"metadata", "p.json", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"metadata":{"name":"q"}}`, `duplicate key "metadata"`},
		{"name in metadata", "p.json", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"a","name":"q"}}`,
			`p.json:1: duplicate key "name" in metadata`},
		{"namespace in metadata", "p.json", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\n\"namespace\":\"a\",\n\"name\":\"p\",\n\"namespace\":\"b\"}}",
			`p.json:4: duplicate key "namespace" in metadata`},
		{"item of a PodList", "pods.json", "{\"apiVersion\":\"v1\",\"kind\":\"PodList\",\"items\":[\n{\"metadata\":{\"name\":\"a\"}},\n{\"metadata\":{\"name\":\"b\"},\"kind\":\"Pod\",\"kind\":\"Node\"}]}",
			`pods.json:3: duplicate key "kind"`},
		{"item of a List", "list.json", "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[\n{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"x\"},\"kind\":\"Secret\"," + secret + "}]}",
			`list.json:2: duplicate key "kind"`},
		{"kind of a List", "list.json", `{"apiVersion":"v1","kind":"PodList","items":[{"metadata":{"name":"a"}}],"kind":"SecretList"}`,
			`list.json:1: duplicate key "kind"`},
		{"items of a List", "list.json", "{\"apiVersion\":\"v1\",\"kind\":\"PodList\",\"items\":[],\n\"items\":[{\"kind\":\"Secret\"}]}",
			`list.json:2: duplicate key "items"`},
		{"JSON Lines", "ev.jsonl", "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\"}}\n{\"kind\":\"Pod\",\"metadata\":{\"name\":\"b\",\"name\":\"c\"}}\n",
			`ev.jsonl:2: duplicate key "name" in metadata`},
		{"YAML kind", "d.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\n  namespace: yy\nspec: {}\nkind: Secret\nstringData:\n  password: hunter2\n",
			`d.yaml:7: duplicate key "kind"`},
		{"YAML name in metadata", "p.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  name: q\n", `p.yaml:5: duplicate key "name"`},
		{"YAML flow", "p.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: a, name: q}\n", `p.yaml:3: duplicate key "name"`},
		{"YAML second document", "p.yaml", "kind: Pod\nmetadata:\n  name: p\n---\nkind: Pod\nmetadata:\n  name: q\nkind: Secret\n", `p.yaml:8: duplicate key "kind"`},
		{"YAML list item", "p.yaml", "apiVersion: v1\nkind: List\nitems:\n- kind: Pod\n  metadata:\n    name: p\n  kind: Secret\n", `p.yaml:7: duplicate key "kind"`},
		{"YAML deeper", "p.yaml", "kind: Pod\nmetadata:\n  name: p\n  labels:\n    app: a\n    app: b\n", `p.yaml:6: duplicate key "app"`},
		// Not repeats: keys that differ in case or depth, and a deeper repeat in JSON, which
		// decides nothing the row says (encoding/json keeps the last, as the API server would).
		{"case", "p.json", `{"apiVersion":"v1","kind":"Pod","Kind":"Secret","metadata":{"name":"p","Name":"q"}}`, ""},
		{"depth", "p.json", `{"apiVersion":"v1","kind":"Pod","name":"x","metadata":{"name":"p","kind":"k"}}`, ""},
		{"JSON deeper", "p.json", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"a":"1","a":"2"}}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			objs, _, err := decodeAll(t, tc.file, []byte(tc.data), Options{})
			if tc.says == "" {
				if err != nil || len(objs) != 1 {
					t.Fatalf("%d objects, %v; want 1", len(objs), err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("error %v, want a malformed input saying %q", err, tc.says)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("the error shows the Secret's data: %v", err)
			}
			for _, o := range objs {
				if int(o.Source.Line) >= e.Line && o.Name != "a" {
					t.Errorf("emitted %s %s from line %d, at or after the repeat", o.Kind, o.Name, o.Source.Line)
				}
			}
		})
	}
}
