// Package metrics reads what Prometheus answers to a range query (GET /api/v1/query_range,
// saved as JSON) into series of points, bounded: at most Limits.Series series per query and
// Limits.Points points per series, a longer series downsampled to its largest value per step
// of time, so that a spike is kept. It is pure: the server and `rootline snapshot` fetch or
// receive the JSON, and the analysis reads the series.
package metrics

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unsafe"
)

// Point is one sample of a series.
type Point struct {
	At    time.Time
	Value float64
}

// Series is one time series of an answer: its labels and its points, oldest first.
type Series struct {
	Labels map[string]string
	Points []Point
	// Downsampled is how many points the series had when it had more than Limits.Points (0
	// when it is whole).
	Downsampled int
}

// Result is one query's answer.
type Result struct {
	Query  string
	Series []Series
	// Dropped is how many series the answer had beyond Limits.Series (left out: the series
	// are kept in the order of their labels, so the same ones are kept each time).
	Dropped int
	// Histograms is how many series came as native histograms only, which are not read.
	Histograms int
	// Warnings are Prometheus's own warnings about the answer (partial data, say).
	Warnings []string
}

// Limits bound what an answer may hold.
type Limits struct {
	Series int // series kept per query; 500 when 0
	Points int // points kept per series; 1,000 when 0
	// Samples refuses an answer of more samples than this in all (its series before any is
	// dropped or downsampled): what a saved answer may cost to read; 2,000,000 when 0.
	Samples int
	// Labels bounds the labels of one series, and Bytes the length of a label's name or value;
	// 64 and 4,096 when 0.
	Labels, Bytes int
}

func (l Limits) orDefaults() Limits {
	if l.Series <= 0 {
		l.Series = 500
	}
	if l.Points <= 0 {
		l.Points = 1000
	}
	if l.Samples <= 0 {
		l.Samples = 2_000_000
	}
	if l.Labels <= 0 {
		l.Labels = 64
	}
	if l.Bytes <= 0 {
		l.Bytes = 4096
	}
	return l
}

// Error is an answer that cannot be read: where (a byte offset, when known) and why.
type Error struct {
	Offset int64
	Err    error
}

func (e *Error) Error() string {
	if e.Offset > 0 {
		return fmt.Sprintf("query_range answer, at byte %d: %v", e.Offset, e.Err)
	}
	return "query_range answer: " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// ErrFailed is an answer whose status is "error": Prometheus could not run the query.
var ErrFailed = errors.New("prometheus answered with an error")

// answer is the envelope of the Prometheus HTTP API.
type answer struct {
	Status    string   `json:"status"`
	Data      matrix   `json:"data"`
	ErrorType string   `json:"errorType"`
	Error     string   `json:"error"`
	Warnings  []string `json:"warnings"`
	Infos     []string `json:"infos"`
}

type matrix struct {
	ResultType string `json:"resultType"`
	Result     []struct {
		Metric     map[string]string `json:"metric"`
		Values     []sample          `json:"values"`
		Histograms []json.RawMessage `json:"histograms"`
	} `json:"result"`
	Stats json.RawMessage `json:"stats"`
}

// sample is [<unix seconds>, "<value>"], as Prometheus writes a float sample.
type sample struct {
	at float64
	v  float64
	// bad is the value as written when it is not a number (nil when v holds it): a saved
	// answer holds millions of samples, so the usual one carries no string.
	bad *string
}

// UnmarshalJSON reads a sample. Saved answers hold millions of them, so the usual form
// ([number, "string"] with no escapes in the string) is read by hand, without allocating; any
// other form goes through encoding/json, which reads it or says why it does not.
func (s *sample) UnmarshalJSON(b []byte) error {
	if at, value, ok := fastSample(b); ok {
		s.at = at
		// The usual values parse here, without keeping their text; a value that does not is
		// kept as written, for point to name.
		if v, err := strconv.ParseFloat(view(value), 64); err == nil {
			s.v = v
		} else {
			text := string(value)
			s.bad = &text
		}
		return nil
	}
	var pair []json.RawMessage
	if err := json.Unmarshal(b, &pair); err != nil {
		return err
	}
	if len(pair) != 2 {
		return fmt.Errorf("a sample is [time, \"value\"], not %d elements", len(pair))
	}
	if err := json.Unmarshal(pair[0], &s.at); err != nil {
		return fmt.Errorf("a sample's time: %w", err)
	}
	var text string
	if err := json.Unmarshal(pair[1], &text); err != nil {
		return fmt.Errorf("a sample's value is a string: %w", err)
	}
	if v, err := strconv.ParseFloat(text, 64); err == nil {
		s.v = v
	} else {
		s.bad = &text
	}
	return nil
}

// fastSample reads `[<number>, "<text without escapes>"]` (with any JSON whitespace); ok is
// false for anything else. The value is the bytes between the quotes, within b.
func fastSample(b []byte) (at float64, value []byte, ok bool) {
	s := sampleScan{b: b}
	if !s.punct('[') {
		return 0, nil, false
	}
	at, ok = s.number()
	if !ok || !s.punct(',') {
		return 0, nil, false
	}
	s.space()
	value, ok = s.plainString()
	if !ok || !s.punct(']') {
		return 0, nil, false
	}
	s.space()
	return at, value, s.i == len(s.b)
}

// sampleScan walks one sample's bytes for fastSample.
type sampleScan struct {
	b []byte
	i int
}

// space skips JSON whitespace.
func (s *sampleScan) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

// punct skips whitespace and takes c; false when the next byte is anything else.
func (s *sampleScan) punct(c byte) bool {
	s.space()
	if s.i == len(s.b) || s.b[s.i] != c {
		return false
	}
	s.i++
	return true
}

// number takes a number as JSON writes one, after whitespace.
func (s *sampleScan) number() (float64, bool) {
	s.space()
	start := s.i
	for s.i < len(s.b) && numberByte(s.b[s.i]) {
		s.i++
	}
	if s.i == start || !validNumber(s.b[start:s.i]) {
		return 0, false
	}
	v, err := strconv.ParseFloat(view(s.b[start:s.i]), 64)
	return v, err == nil
}

func numberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E'
}

// plainString takes a quoted string of printable ASCII without escapes (escapes and
// non-ASCII are encoding/json's to read) and returns the bytes between the quotes.
func (s *sampleScan) plainString() ([]byte, bool) {
	if s.i == len(s.b) || s.b[s.i] != '"' {
		return nil, false
	}
	s.i++
	start := s.i
	for s.i < len(s.b) && s.b[s.i] != '"' {
		if c := s.b[s.i]; c == '\\' || c < 0x20 || c >= 0x80 {
			return nil, false
		}
		s.i++
	}
	if s.i == len(s.b) {
		return nil, false
	}
	s.i++
	return s.b[start : s.i-1], true
}

// view is b as a string without copying it, for strconv to read (a conversion would allocate
// for each of millions of samples). The string must not outlive the call it is passed to, and
// b must not change meanwhile: the answer's bytes are not written while they are decoded, and
// the errors that might keep the string are dropped.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// validNumber reports whether b is a number as JSON writes one (no leading zeros, no "+",
// digits around the point), so that the fast path takes no more than encoding/json would.
func validNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return false
		}
	}
	return i == len(b)
}

// DecodeBytes reads one saved answer of GET /api/v1/query_range for query (which the answer
// itself does not say), read whole (it does not keep it). The answer must be whole JSON of status
// "success" and result type "matrix"; an answer of status "error" is ErrFailed with
// Prometheus's reason. Every time must be a finite number of seconds; values may be "NaN" and
// "±Inf" (Prometheus writes them so), which are kept. Series beyond lim.Series are dropped,
// points beyond lim.Points downsampled; an answer of more than lim.Samples samples, or with a
// label beyond its bounds, is refused.
func DecodeBytes(body []byte, query string, lim Limits) (Result, error) {
	lim = lim.orDefaults()
	res := Result{Query: query}
	var a answer
	if err := strict(body, &a); err != nil {
		return res, err
	}
	switch a.Status {
	case "success":
	case "error":
		return res, &Error{Err: fmt.Errorf("%w: %s: %s", ErrFailed, a.ErrorType, a.Error)}
	default:
		return res, &Error{Err: fmt.Errorf("status %q: not an answer of the Prometheus HTTP API", a.Status)}
	}
	m := a.Data
	if m.ResultType != "matrix" {
		return res, &Error{Err: fmt.Errorf("result type %q: a range query answers a matrix (was this an instant query, /api/v1/query?)", m.ResultType)}
	}
	total := 0
	for _, s := range m.Result {
		total += len(s.Values)
		if total > lim.Samples {
			return res, &Error{Err: fmt.Errorf("more than %d samples in all", lim.Samples)}
		}
	}
	res.Warnings = a.Warnings
	// The series kept are the first lim.Series by name of those with float samples: chosen
	// before any is made whole, each name made once, so that an answer of many small series
	// (hundreds of thousands within the byte bound) costs its labels, not a series each.
	type named struct {
		idx  int
		name string
	}
	var order []named
	for idx := range m.Result {
		s := &m.Result[idx]
		if len(s.Values) == 0 {
			if len(s.Histograms) > 0 {
				res.Histograms++
			}
			continue
		}
		if len(s.Metric) > lim.Labels {
			return res, &Error{Err: fmt.Errorf("a series of %d labels (at most %d)", len(s.Metric), lim.Labels)}
		}
		for k, v := range s.Metric {
			if len(k) > lim.Bytes || len(v) > lim.Bytes {
				return res, &Error{Err: fmt.Errorf("label %.40q: longer than %d bytes", k, lim.Bytes)}
			}
		}
		order = append(order, named{idx, Name(s.Metric)})
	}
	slices.SortStableFunc(order, func(a, b named) int { return strings.Compare(a.name, b.name) })
	if len(order) > lim.Series {
		res.Dropped = len(order) - lim.Series
		order = order[:lim.Series:lim.Series]
	}
	res.Series = make([]Series, 0, len(order))
	for _, o := range order {
		s := &m.Result[o.idx]
		series := Series{Labels: s.Metric, Points: make([]Point, len(s.Values))}
		if series.Labels == nil {
			series.Labels = map[string]string{}
		}
		for i, v := range s.Values {
			p, err := point(v)
			if err != nil {
				return res, &Error{Err: fmt.Errorf("series %s: %w", Name(series.Labels), err)}
			}
			series.Points[i] = p
		}
		s.Values = nil // read: the collector may have it while the rest are read
		sort.SliceStable(series.Points, func(i, j int) bool { return series.Points[i].At.Before(series.Points[j].At) })
		if len(series.Points) > lim.Points {
			series.Downsampled = len(series.Points)
			series.Points = Downsample(series.Points, lim.Points)
		}
		res.Series = append(res.Series, series)
	}
	return res, nil
}

// strict decodes JSON into v, refusing what is not whole JSON (trailing data, a cut answer),
// with the byte offset where it broke.
func strict(b []byte, v any) error {
	// json.Unmarshal reads b where it lies (a json.Decoder would copy it into its buffer first,
	// which doubled what a large answer costs) and refuses data after the value.
	err := json.Unmarshal(b, v)
	if err == nil {
		return nil
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn) && syn.Offset >= int64(len(b)):
		return &Error{Offset: int64(len(b)), Err: errors.New("the answer is cut short")}
	case errors.As(err, &syn) && strings.Contains(syn.Error(), "after top-level value"):
		return &Error{Offset: syn.Offset, Err: errors.New("data after the answer")}
	case errors.As(err, &syn):
		return &Error{Offset: syn.Offset, Err: err}
	case errors.As(err, &typ):
		return &Error{Offset: typ.Offset, Err: err}
	}
	// A sample's own refusal carries no position: a decoder, run again on this failure only,
	// says how far it read.
	dec := json.NewDecoder(bytes.NewReader(b))
	_ = dec.Decode(v)
	return &Error{Offset: dec.InputOffset(), Err: err}
}

// point reads a sample: its time (seconds since the epoch, to the millisecond) and value.
func point(s sample) (Point, error) {
	if math.IsNaN(s.at) || math.IsInf(s.at, 0) || s.at < 0 || s.at > 1e11 {
		return Point{}, fmt.Errorf("sample time %v: not a time", s.at)
	}
	if s.bad != nil {
		return Point{}, fmt.Errorf("sample value %.40q: not a number", *s.bad)
	}
	v := s.v
	sec, frac := math.Modf(s.at)
	return Point{At: time.Unix(int64(sec), int64(math.Round(frac*1e3))*int64(time.Millisecond)).UTC(), Value: v}, nil
}

// Name is a series as PromQL writes it: `name{a="1", b="2"}`, labels in order.
func Name(labels map[string]string) string {
	keys := make([]string, 0, len(labels))
	for k := range labels {
		if k != "__name__" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(labels["__name__"])
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s=%q", k, labels[k])
	}
	b.WriteByte('}')
	return b.String()
}
