package cluster

import (
	"math"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Instant is a moment to the microsecond in eight bytes, where a time.Time (and so a
// metav1.Time) takes twenty-four: the times an Event holds, four an event, fifty thousand
// events at 20,000 pods (3.2 MB of the model). Its zero is time.Time's zero, and so "no time".
// Its JSON is metav1.Time's: RFC 3339 to the second, null when zero, parsed as metav1.Time
// parses it. A time finer than a microsecond loses the rest; Kubernetes writes none (its
// timestamps are to the second, an eventTime to the microsecond).
type Instant int64 // microseconds since 0001-01-01T00:00:00Z

// unixFromYearOne is the seconds from 0001-01-01T00:00:00Z to the Unix epoch.
const unixFromYearOne = 62135596800

// maxInstantSeconds bounds the seconds an Instant holds either side of year one: about 292,000
// years, past which a time is held as that bound.
const maxInstantSeconds = math.MaxInt64/1_000_000 - 1

// InstantOf is t as an Instant.
func InstantOf(t time.Time) Instant {
	if t.IsZero() {
		return 0
	}
	sec := t.Unix()
	if sec > maxInstantSeconds-unixFromYearOne {
		sec = maxInstantSeconds - unixFromYearOne
	}
	if sec < -maxInstantSeconds-unixFromYearOne {
		sec = -maxInstantSeconds - unixFromYearOne
	}
	return Instant((sec+unixFromYearOne)*1_000_000 + int64(t.Nanosecond()/1000))
}

// Time is i as a time.Time in UTC; the zero time when i is zero.
func (i Instant) Time() time.Time {
	if i == 0 {
		return time.Time{}
	}
	sec, us := int64(i)/1_000_000, int64(i)%1_000_000
	if us < 0 {
		sec, us = sec-1, us+1_000_000
	}
	return time.Unix(sec-unixFromYearOne, us*1000).UTC()
}

// IsZero reports whether i is no time.
func (i Instant) IsZero() bool { return i == 0 }

// String is i in RFC 3339, to the microsecond where it has one.
func (i Instant) String() string { return i.Time().Format(time.RFC3339Nano) }

// Meta is i as the metav1.Time Kubernetes' types hold.
func (i Instant) Meta() metav1.Time { return metav1.NewTime(i.Time()) }

// UnmarshalJSON reads a metav1.Time's JSON. A plain string (no escapes) is parsed as
// metav1.Time parses one, without decoding the string through encoding/json first (72 ns and
// nothing allocated against 466 ns and 184 bytes, for 200,000 times at 20,000 pods); anything
// else is metav1.Time's own to read.
func (i *Instant) UnmarshalJSON(b []byte) error {
	if s, ok := plainJSONString(b); ok {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return err
		}
		*i = InstantOf(t)
		return nil
	}
	var t metav1.Time
	if err := t.UnmarshalJSON(b); err != nil {
		return err
	}
	*i = InstantOf(t.Time)
	return nil
}

// MarshalJSON writes i as metav1.Time does.
func (i Instant) MarshalJSON() ([]byte, error) {
	t := i.Meta()
	return t.MarshalJSON()
}

// MicroInstant is an Instant whose JSON is metav1.MicroTime's: RFC 3339 to the microsecond,
// the events.k8s.io eventTime. It has Instant's Time, IsZero and String.
type MicroInstant struct{ Instant }

// MicroInstantOf is t as a MicroInstant.
func MicroInstantOf(t time.Time) MicroInstant { return MicroInstant{InstantOf(t)} }

// Meta is i as the metav1.MicroTime Kubernetes' types hold.
func (i MicroInstant) Meta() metav1.MicroTime { return metav1.NewMicroTime(i.Time()) }

// UnmarshalJSON reads a metav1.MicroTime's JSON, as metav1.MicroTime reads it.
func (i *MicroInstant) UnmarshalJSON(b []byte) error {
	var t metav1.MicroTime
	if err := t.UnmarshalJSON(b); err != nil {
		return err
	}
	*i = MicroInstantOf(t.Time)
	return nil
}

// MarshalJSON writes i as metav1.MicroTime does.
func (i MicroInstant) MarshalJSON() ([]byte, error) {
	t := i.Meta()
	return t.MarshalJSON()
}

// plainJSONString is the text of a JSON string of printable ASCII with no escapes in it, and
// whether b is one: what encoding/json would decode it to, byte for byte.
func plainJSONString(b []byte) (string, bool) {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return "", false
	}
	inner := b[1 : len(b)-1]
	for _, c := range inner {
		if c < 0x20 || c >= 0x7f || c == '\\' || c == '"' {
			return "", false
		}
	}
	return string(inner), true
}
