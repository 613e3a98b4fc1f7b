package jsonscan

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzSkipValue: over a valid object, array or string, SkipValue, SkipFast (where sonic compiles) and a Value fed
// the bytes in pieces all find the end encoding/json's Decoder finds for the first value.
func FuzzSkipValue(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":"}]\""}]} 1`, `"a\\" x`, `[[],{}]`, `12 3`, `true`, `{"k":"\u00e9"}`, `{ "a" : [ ] }`} {
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, raw []byte, piece uint8) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		var v json.RawMessage
		if len(raw) == 0 || !bytes.ContainsRune([]byte(`{["`), rune(raw[0])) || dec.Decode(&v) != nil {
			return // the callers hand over a valid object, array or string that starts at once
		}
		want := int(dec.InputOffset())
		if end, ok := SkipValue(raw, 0); !ok || end != want {
			t.Fatalf("SkipValue(%q) = %d, %v; the decoder ends at %d", raw, end, ok, want)
		}
		if end, ok := SkipFast(raw); ok && end != want {
			t.Fatalf("SkipFast(%q) = %d, the decoder ends at %d", raw, end, want)
		}
		var s Value
		step := int(piece%7) + 1
		for n := step; ; n += step {
			n = min(n, len(raw))
			end, done, bad := s.Scan(raw[:n])
			if bad {
				t.Fatalf("Value.Scan(%q) found a bad byte at %d", raw[:n], end)
			}
			if done {
				if end != want {
					t.Fatalf("Value.Scan(%q) = %d, the decoder ends at %d", raw, end, want)
				}
				break
			}
			if n == len(raw) {
				t.Fatalf("Value.Scan(%q) did not find the end at %d", raw, want)
			}
		}
	})
}
