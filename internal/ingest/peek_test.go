package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// typeMetaSeeds are objects whose type information is easy to misread.
var typeMetaSeeds = []string{
	`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","namespace":"b"}}`,
	`{"metadata":{"NAME":"a","Namespace":"b","name":"c"},"kind":"Pod","apiVersion":"v1","kind":"Secret"}`,
	`{"kind":"Secret","kind":"Pod","apiVersion":"v1","metadata":{}}`,
	`{"kind":"Pod","apiVersion":"v1","metadata":{},"kind":"Secret"}`,
	`{"kind":null,"apiVersion":null,"metadata":null}`,
	`{"kind":1,"metadata":{}}`,
	`{"kind":"Pod","metadata":{"name":7}}`,
	`{"kind":"Pod","metadata":[]}`,
	`{"kin\u0064":"Secret","kind":"Pod"}`,
	`{"kind":"P\u006fd","metadata":{"na\u006de":"x"}}`,
	`{"kind":"Pod","metadata":{"ſ":"x","nameſ":"y","name":"\u00e9t\u00e9"}}`,
	"{\"kind\":\"Pod\",\"metadata\":{\"name\":\"caf\xc3\xa9\",\"namespace\":\"\xff\"}}",
	`{"items":[{"kind":"Pod"}],"kind":"List"}`,
	`{"spec":{"a":[1,2,{"b":"}]\""}]},"kind":"Pod","metadata":{"x":{"name":"no"},"name":"yes"}}`,
	`{}`,
	`{ "kind" : "Pod" , "metadata" : { "name" : "a" } , "apiVersion" : "v1" }`,
	`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a\\"}}`,
	`{"a":true,"b":false,"c":null,"d":-1.5e3,"kind":"Node","metadata":{"name":"n"},"apiVersion":"v1"}`,
}

// FuzzTypeMeta checks that the byte scan answers as the json.Decoder's tokens do.
func FuzzTypeMeta(f *testing.F) {
	for _, s := range typeMetaSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		raw = bytes.TrimSpace(raw)
		if !json.Valid(raw) || len(raw) == 0 || raw[0] != '{' {
			return // every caller hands over one valid JSON object
		}
		got, ok := scanTypeMeta(raw, typeMeta{Kind: "Pod", Name: "a"})
		want, err := peekTypeMeta(raw)
		if ok && (err != nil || got != want) {
			t.Fatalf("scanTypeMeta(%s) = %+v, peekTypeMeta = %+v, %v", raw, got, want, err)
		}
		if got, gerr := typeMetaOf(raw, typeMeta{}); got != want || (gerr == nil) != (err == nil) {
			t.Fatalf("typeMetaOf(%s) = %+v, %v; peekTypeMeta = %+v, %v", raw, got, gerr, want, err)
		}
	})
}

// listSeeds are lists whose items defeat the guess of typedItem one way or another.
var listSeeds = []string{
	`{"apiVersion":"v1","items":[` + typeMetaSeeds[0] + `,` + typeMetaSeeds[1] + `,` + typeMetaSeeds[2] + `,` + typeMetaSeeds[3] + `],"kind":"List"}`,
	`{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"a"}},{"kind":"Node","metadata":{"name":"n"}},{"metadata":{"name":"b"}},null,{"metadata":{"name":"c"}}]}`,
	`{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"},"spec":{"containers":3}}]}`,
	`{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"a"}},"x",{"metadata":{"name":"b"}}]}`,
	`{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"a"}},[{"kind":"Pod"}],{"metadata":{"name":"b"}}]}`,
	`{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"a"}}, ,{"metadata":{"name":"b"}}]}`,
	`{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"}`,
	`{"kind":"EventList","apiVersion":"events.k8s.io/v1","items":[{"metadata":{"name":"e1"},"note":"n","regarding":{"kind":"Pod","name":"p"}},{"apiVersion":"v1","metadata":{"name":"e2"},"message":"m","involvedObject":{"kind":"Pod","name":"p"}},{"kind":"Event","apiVersion":"v1","metadata":{"name":"e3"}}]}`,
	`{"kind":"List","apiVersion":"v1","items":[{"kind":"Event","apiVersion":"v1","metadata":{"name":"e1"},"count":"many"},{"kind":"Event","apiVersion":"v1","metadata":{"name":"e2"}},{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"d"}},{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p"}},{"kind":"Secret","apiVersion":"v1","metadata":{"name":"s"},"data":{"a":"b"}},{"kind":"Pod","apiVersion":"v1","metadata":{"name":"q"}},{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"r"}}]}]}`,
	`[{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a"}},{"kind":"Pod","apiVersion":"v1","metadata":{"name":"b"},"status":{"startTime":"yesterday"}},{"kind":"Node","apiVersion":"v1","metadata":{"name":"n"}}]`,
	"{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"items\":[\n  {\"metadata\":{\"name\":\"a\"}},\n\n  {\"metadata\":{\"name\":\"b\"},\n   \"spec\":{\"nodeName\":[]}}\n]}",
}

// FuzzTypedItems checks that decoding list items straight into their types gives what
// decoding each through object gives: the same objects, skips and errors.
func FuzzTypedItems(f *testing.F) {
	for _, s := range listSeeds {
		f.Add([]byte(s))
	}
	for _, name := range []string{"pods-list.json", "podlist-api.json"} {
		f.Add(readTestdata(f, name))
	}
	// sonic compiles its decoders once, before the first input: in a build instrumented
	// for fuzzing that takes minutes, and the collector waits for it (every input stalled).
	warm(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		type result struct {
			objs    []*cluster.Object
			skipped []Skipped
			err     error
		}
		run := func(raw bool) result {
			var r result
			d := NewDecoder(Options{MaxBytes: 1 << 20, OnSkip: func(s Skipped) { r.skipped = append(r.skipped, s) }})
			d.rawItems = raw
			r.err = d.Decode(context.Background(), "fuzz", bytes.NewReader(data), func(o *cluster.Object) error {
				r.objs = append(r.objs, o)
				return nil
			})
			return r
		}
		typed, raw := run(false), run(true)
		if !reflect.DeepEqual(typed.objs, raw.objs) || !reflect.DeepEqual(typed.skipped, raw.skipped) {
			t.Fatalf("typed items differ from raw items:\n%s\n%s", dump(typed.objs, typed.skipped), dump(raw.objs, raw.skipped))
		}
		if (typed.err == nil) != (raw.err == nil) || (typed.err != nil && typed.err.Error() != raw.err.Error()) {
			t.Fatalf("typed items fail with %v, raw items with %v", typed.err, raw.err)
		}
		var te, re *Error
		if errors.As(typed.err, &te) && errors.As(raw.err, &re) && *te != *re {
			t.Fatalf("typed items fail with %+v, raw items with %+v", *te, *re)
		}
	})
}

func dump(objs []*cluster.Object, skipped []Skipped) string {
	var b bytes.Buffer
	for _, o := range objs {
		j, _ := o.JSON()
		b.WriteString(o.Ref() + " " + o.APIVersion + " " + o.UID + " " + o.Source.String() + " " + string(j) + "\n")
	}
	for _, s := range skipped {
		j, _ := json.Marshal(s)
		b.Write(append(j, '\n'))
	}
	return b.String()
}
