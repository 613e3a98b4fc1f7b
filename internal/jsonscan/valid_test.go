package jsonscan

import (
	"encoding/json"
	"testing"
)

// FuzzValidJSON: Valid (sonic's check of the structure, and the strings checked here) answers
// as json.Valid does.
func FuzzValidJSON(f *testing.F) {
	for _, raw := range []string{`{"kind":"Pod","metadata":{"name":"a"},"ſpec":{"nodeName":"n"}}`, `{"a":"\u017f\u212a\ud800"}`,
		`{"a":[1,2,{"b":"}]\""}]}`, "{\"a\":\"\x01\"}", `{"a":"\x"}`, `{"a":1e400}`} {
		f.Add([]byte(raw))
	}
	for _, s := range []string{``, ` `, `1`, `-`, `"a`, `[1,2`, `{"a":1}{}`, "\"\xff\"", `1 2`, `tru`, `nul`, `[1e+]`, `{"a" 1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if got, want := Valid(raw), json.Valid(raw); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid %v", raw, got, want)
		}
	})
}
