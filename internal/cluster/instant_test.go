package cluster

import (
	"encoding/json"
	"testing"
	"time"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestInstantHoldsATime: an Instant gives back the time it was made of, to the microsecond,
// across the range RFC 3339 writes, and its zero is time.Time's.
func TestInstantHoldsATime(t *testing.T) {
	t.Parallel()
	for _, in := range []time.Time{
		time.Date(2023, 2, 1, 16, 59, 1, 0, time.UTC),
		time.Date(2023, 2, 1, 16, 59, 1, 123456000, time.FixedZone("CET", 3600)),
		time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC), // the Unix epoch is a time like any other
		time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC),
		time.Date(0, 6, 1, 0, 0, 0, 0, time.UTC), // before year one
	} {
		i := InstantOf(in)
		if got := i.Time(); !got.Equal(in) || got.Location() != time.UTC {
			t.Errorf("InstantOf(%s).Time() = %s", in, got)
		}
		if i.IsZero() {
			t.Errorf("InstantOf(%s) is zero", in)
		}
	}
	if i := InstantOf(time.Time{}); !i.IsZero() || !i.Time().IsZero() || !i.Meta().Time.IsZero() {
		t.Errorf("the zero time: %d", i)
	}
	if got, want := InstantOf(time.Date(2023, 2, 1, 16, 59, 1, 123456789, time.UTC)).Time(), time.Date(2023, 2, 1, 16, 59, 1, 123456000, time.UTC); !got.Equal(want) {
		t.Errorf("nanoseconds: %s, want %s (to the microsecond)", got, want)
	}
}

// TestInstantJSONIsMetav1s: an Instant reads and writes JSON as metav1.Time does, and a
// MicroInstant as metav1.MicroTime does, null and errors included.
func TestInstantJSONIsMetav1s(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`"2023-02-01T16:59:01Z"`, `"2023-02-01T17:59:01+01:00"`, `null`, `""`,
		`"2023-02-01T16:59:01.123456Z"`, `"2023-02-01T16:59:01\u005a"`, `"yesterday"`, `1675270741`, `"0001-01-01T00:00:00Z"`} {
		var want metav1.Time
		wantErr := want.UnmarshalJSON([]byte(in))
		var got Instant
		gotErr := got.UnmarshalJSON([]byte(in))
		if (gotErr != nil) != (wantErr != nil) || !got.Time().Equal(want.Time) {
			t.Errorf("Instant %s: %s, %v; metav1.Time: %s, %v", in, got, gotErr, want.Time, wantErr)
		}
		if wantErr != nil {
			continue
		}
		wb, _ := json.Marshal(want)
		gb, _ := json.Marshal(got)
		if string(gb) != string(wb) {
			t.Errorf("Instant %s writes %s, metav1.Time %s", in, gb, wb)
		}
		var wantMicro metav1.MicroTime
		wantMicroErr := wantMicro.UnmarshalJSON([]byte(in))
		var gotMicro MicroInstant
		if err := gotMicro.UnmarshalJSON([]byte(in)); (err != nil) != (wantMicroErr != nil) || !gotMicro.Time().Equal(wantMicro.Time) {
			t.Errorf("MicroInstant %s: %s, %v; metav1.MicroTime: %s, %v", in, gotMicro, err, wantMicro.Time, wantMicroErr)
		}
		wb, _ = json.Marshal(wantMicro)
		gb, _ = json.Marshal(gotMicro)
		if string(gb) != string(wb) {
			t.Errorf("MicroInstant %s writes %s, metav1.MicroTime %s", in, gb, wb)
		}
	}
}

// FuzzInstantJSON: whatever the bytes, an Instant reads them as metav1.Time does: an error
// where it errs, and otherwise the same time to the microsecond.
func FuzzInstantJSON(f *testing.F) {
	for _, s := range []string{`"2023-02-01T16:59:01Z"`, `null`, `""`, `"2023-02-01T16:59:01.123456789-07:00"`, `"\u0032023-02-01T16:59:01Z"`, `"2023-02-01T16:59:01Z`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var want metav1.Time
		wantErr := want.UnmarshalJSON(b)
		var got Instant
		gotErr := got.UnmarshalJSON(b)
		if (gotErr != nil) != (wantErr != nil) {
			t.Fatalf("%q: Instant's error %v, metav1.Time's %v", b, gotErr, wantErr)
		}
		if wantErr == nil && !got.Time().Equal(want.Time.Truncate(time.Microsecond)) && !(got.IsZero() && want.IsZero()) {
			if y := want.Year(); y > -290000 && y < 290000 {
				t.Fatalf("%q: Instant %s, metav1.Time %s", b, got, want.Time)
			}
		}
	})
}

// TestTimesKeepTheirSizeClasses: an Event is held in the allocator's 320-byte class (its series
// and action behind one pointer, EventsAPI), not the 352-byte one, and not the 416-byte one it
// took with metav1.Time's twenty-four bytes a time (3.2 MB of the model at 50,000 events), and a pod's four conditions in its 288-byte class, not 352 (1 MB at 20,000
// pods). A field added past a class costs every event or pod the difference: make room first.
func TestTimesKeepTheirSizeClasses(t *testing.T) {
	t.Parallel()
	if size := unsafe.Sizeof(Event{}); size > 320 {
		t.Errorf("an Event is %d bytes, past the 320-byte size class", size)
	}
	if size := 4 * unsafe.Sizeof(PodCondition{}); size > 288 {
		t.Errorf("four pod conditions are %d bytes, past the 288-byte size class", size)
	}
	// An Object's collector time is a pointer (Source.ObservedAt) and its JSON one field
	// (Raw, whether kept whole for a typed object or all there is of another): 70,000 objects
	// at 192 bytes, not 224; and with its line an int32 beside the Source's two flags, at 176.
	if size := unsafe.Sizeof(Object{}); size > 176 {
		t.Errorf("an Object is %d bytes, past the 176-byte size class", size)
	}
}
