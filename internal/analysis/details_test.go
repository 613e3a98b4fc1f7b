package analysis

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// fill sets every field of v, a struct reached through embedding or not, to a value that is not
// zero, and returns the JSON names of the fields it set (embedded structs give their fields).
func fill(t *testing.T, v reflect.Value) []string {
	t.Helper()
	var names []string
	for i := range v.NumField() {
		f, sf := v.Field(i), v.Type().Field(i)
		if !sf.IsExported() {
			continue
		}
		if sf.Anonymous {
			names = append(names, fill(t, f)...)
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			t.Fatalf("field %s has no JSON name", sf.Name)
		}
		names = append(names, name)
		switch f.Kind() {
		case reflect.String:
			f.SetString(name)
		case reflect.Int:
			f.SetInt(int64(len(names)))
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
			f.Elem().SetInt(int64(len(names)))
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 1, 1))
			if e := f.Index(0); e.Kind() == reflect.String {
				e.SetString(name)
			} else {
				fill(t, e)
			}
		case reflect.Map:
			m := reflect.MakeMap(f.Type())
			m.SetMapIndex(reflect.ValueOf(name), reflect.ValueOf(1))
			f.Set(m)
		default:
			t.Fatalf("field %s: no value for a %s", sf.Name, f.Kind())
		}
	}
	return names
}

// TestDetailsKeysDistinct: every field of every kind's part reaches the JSON under its own name.
// encoding/json silently drops a name two embedded parts share, so a new part's field named
// like another's would vanish from the report without this test.
func TestDetailsKeysDistinct(t *testing.T) {
	var d Details
	names := fill(t, reflect.ValueOf(&d).Elem())
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(b, &keys); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			t.Errorf("JSON name %q is used by two fields of Details", n)
		}
		seen[n] = true
		if _, ok := keys[n]; !ok {
			t.Errorf("field %q is missing from the JSON: %s", n, b)
		}
	}
	if len(keys) != len(names) {
		got := make([]string, 0, len(keys))
		for k := range keys {
			got = append(got, k)
		}
		sort.Strings(got)
		t.Errorf("JSON keys %v, want the %d fields %v", got, len(names), names)
	}
	var back Details
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, d) {
		t.Errorf("details read back = %+v, want %+v", back, d)
	}
}

// TestDetailsOmitted: a symptom without details has no "details" in its JSON, and a part of
// another kind adds nothing to a symptom's.
func TestDetailsOmitted(t *testing.T) {
	b, err := json.Marshal(Symptom{ID: "S1", Kind: PodEvicted})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "details") {
		t.Errorf("a symptom without details: %s", b)
	}
	b, err = json.Marshal(Details{EvictionDetails: EvictionDetails{Resource: "memory"}})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"resource":"memory"}` {
		t.Errorf("an eviction's details = %s", b)
	}
}
