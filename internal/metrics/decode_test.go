package metrics

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// throttled is what Prometheus answers to a range query of CFS throttling over three steps,
// for two containers (written as Prometheus writes it: times in seconds with milliseconds,
// values as strings).
const throttled = `{"status":"success","data":{"resultType":"matrix","result":[
 {"metric":{"container":"hub","namespace":"jhub","pod":"hub-7c9"},"values":[[1675270800,"0.12"],[1675270860.5,"0.80"],[1675270920,"NaN"]]},
 {"metric":{"container":"prometheus","namespace":"monitoring","pod":"prometheus-0"},"values":[[1675270800,"0"],[1675270860.5,"+Inf"]]}
]},"warnings":["some series may be missing"]}`

func TestDecode(t *testing.T) {
	at := func(sec float64) time.Time {
		s, f := math.Modf(sec)
		return time.Unix(int64(s), int64(f*1e9)).UTC()
	}
	res, err := DecodeBytes([]byte(throttled), "rate(container_cpu_cfs_throttled_periods_total[5m])", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Series) != 2 || res.Dropped != 0 || len(res.Warnings) != 1 {
		t.Fatalf("%+v", res)
	}
	hub := res.Series[0]
	if Name(hub.Labels) != `{container="hub", namespace="jhub", pod="hub-7c9"}` {
		t.Errorf("first series %s", Name(hub.Labels))
	}
	want := []Point{{at(1675270800), 0.12}, {at(1675270860.5), 0.80}}
	if d := cmp.Diff(want, hub.Points[:2]); d != "" || !math.IsNaN(hub.Points[2].Value) {
		t.Errorf("points (-want +got):\n%s%v", d, hub.Points[2])
	}
	if !math.IsInf(res.Series[1].Points[1].Value, 1) {
		t.Errorf("+Inf read as %v", res.Series[1].Points[1].Value)
	}
}

// TestDecodeRefuses: what is not a whole range-query answer is refused, saying why and, for
// JSON that breaks, at which byte.
func TestDecodeRefuses(t *testing.T) {
	for _, tt := range []struct {
		name, body string
		want       string
		offset     bool
		failed     bool
	}{
		{"cut short", throttled[:120], "cut short", true, false},
		{"trailing data", throttled + `{"status":"success"}`, "data after the answer", true, false},
		{"not JSON", "<html>502 Bad Gateway</html>", "invalid character", true, false},
		{"an error answer", `{"status":"error","errorType":"bad_data","error":"1:6: parse error: unexpected \"}\""}`, "bad_data: 1:6: parse error", false, true},
		{"an instant query", `{"status":"success","data":{"resultType":"vector","result":[]}}`, "was this an instant query", false, false},
		{"no status", `{"data":{"resultType":"matrix","result":[]}}`, `status ""`, false, false},
		{"a sample of three", `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1,"2",3]]}]}}`, "not 3 elements", true, false},
		{"a value not a string", `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1,2]]}]}}`, "value is a string", true, false},
		{"a value not a number", `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"up"},"values":[[1,"lots"]]}]}}`, `up{}: sample value "lots"`, false, false},
		{"a time not a time", `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[-5,"1"]]}]}}`, "not a time", false, false},
		{"a time too far", `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1e300,"1"]]}]}}`, "not a time", false, false},
	} {
		_, err := DecodeBytes([]byte(tt.body), "q", Limits{})
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an Error saying %q", tt.name, err, tt.want)
			continue
		}
		if tt.offset != (e.Offset > 0) {
			t.Errorf("%s: offset %d", tt.name, e.Offset)
		}
		if tt.failed != errors.Is(err, ErrFailed) {
			t.Errorf("%s: errors.Is(ErrFailed) = %v", tt.name, !tt.failed)
		}
	}
}

// TestDecodeBounds: series beyond the bound are dropped (the same ones each time: by name),
// points beyond it downsampled keeping the peak, an answer of too many samples or too many or
// too long labels refused; a series of native histograms only is counted, not read.
func TestDecodeBounds(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"status":"success","data":{"resultType":"matrix","result":[`)
	for i := range 5 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"metric":{"node":"n-%d"},"values":[`, 4-i)
		for j := range 100 {
			if j > 0 {
				b.WriteByte(',')
			}
			v := 1.0
			if j == 57 {
				v = 99 // the spike
			}
			fmt.Fprintf(&b, `[%d,"%g"]`, 1675270800+15*j, v)
		}
		b.WriteString(`]}`)
	}
	b.WriteString(`,{"metric":{"node":"h"},"histograms":[[1675270800,{"count":"3","sum":"1","buckets":[]}]]}]}}`)
	body := b.String()

	res, err := DecodeBytes([]byte(body), "q", Limits{Series: 3, Points: 10})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range res.Series {
		names = append(names, s.Labels["node"])
		if len(s.Points) > 10 || s.Downsampled != 100 {
			t.Errorf("%s: %d points, downsampled from %d", s.Labels["node"], len(s.Points), s.Downsampled)
		}
		var peak float64
		for _, p := range s.Points {
			peak = max(peak, p.Value)
		}
		if peak != 99 {
			t.Errorf("%s: the spike is lost (peak %v)", s.Labels["node"], peak)
		}
	}
	if d := cmp.Diff([]string{"n-0", "n-1", "n-2"}, names); d != "" || res.Dropped != 2 || res.Histograms != 1 {
		t.Errorf("kept (-want +got):\n%s; dropped %d, histograms %d", d, res.Dropped, res.Histograms)
	}
	if _, err := DecodeBytes([]byte(body), "q", Limits{Samples: 499}); err == nil || !strings.Contains(err.Error(), "more than 499 samples") {
		t.Errorf("500 samples with a bound of 499: %v", err)
	}
	if _, err := DecodeBytes([]byte(body), "q", Limits{Bytes: 3}); err == nil || !strings.Contains(err.Error(), "longer than 3 bytes") {
		t.Errorf("a label value longer than the bound: %v", err)
	}
	if _, err := DecodeBytes([]byte(`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"a":"1","b":"2"},"values":[[1,"1"]]}]}}`), "q", Limits{Labels: 1}); err == nil {
		t.Error("a series of two labels with a bound of one")
	}
}

func TestDownsample(t *testing.T) {
	t0 := time.Date(2023, 2, 1, 17, 0, 0, 0, time.UTC)
	var points []Point
	for i := range 60 {
		points = append(points, Point{At: t0.Add(time.Duration(i) * time.Second), Value: float64(i % 7)})
	}
	points[30].Value = math.NaN()
	got := Downsample(points, 6)
	if len(got) != 6 {
		t.Fatalf("%d points", len(got))
	}
	for i, p := range got {
		if p.Value != 6 {
			t.Errorf("step %d keeps %v at %v, want its largest, 6", i, p.Value, p.At)
		}
		if i > 0 && !p.At.After(got[i-1].At) {
			t.Errorf("step %d is not after the one before", i)
		}
	}
	if same := Downsample(points[:5], 6); len(same) != 5 {
		t.Errorf("a series within the bound changed: %d points", len(same))
	}
}

// FuzzDecode: whatever the bytes, Decode returns an answer within its bounds or an *Error, and
// never panics.
func FuzzDecode(f *testing.F) {
	f.Add(throttled)
	f.Add(`{"status":"error","errorType":"timeout","error":"query timed out"}`)
	f.Add(`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1.5,"1e308"],[0,"-Inf"]]}]}}`)
	f.Fuzz(func(t *testing.T, body string) {
		lim := Limits{Series: 3, Points: 4, Samples: 1000, Labels: 4, Bytes: 32}
		res, err := DecodeBytes([]byte(body), "q", lim)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T: %v", err, err)
			}
			return
		}
		if len(res.Series) > lim.Series {
			t.Fatalf("%d series", len(res.Series))
		}
		for _, s := range res.Series {
			if len(s.Points) > lim.Points {
				t.Fatalf("%d points", len(s.Points))
			}
			for i := 1; i < len(s.Points); i++ {
				if s.Points[i].At.Before(s.Points[i-1].At) {
					t.Fatal("points out of order")
				}
			}
		}
	})
}

// FuzzFastSample: whatever the hand-written reader of a sample takes, encoding/json takes too,
// to the same time and value.
func FuzzFastSample(f *testing.F) {
	for _, s := range []string{`[1675270800,"0.8"]`, ` [ 1675270800.123 , "NaN" ] `, `[0,"+Inf"]`, `[1e3,"-1.5e-7"]`, `[01,"1"]`, `[1,"a\"b"]`, `[1.,"1"]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		at, value, ok := fastSample(b)
		if !ok {
			return
		}
		var pair []json.RawMessage
		if err := json.Unmarshal(b, &pair); err != nil || len(pair) != 2 {
			t.Fatalf("%q taken by the fast reader, not by encoding/json: %v", b, err)
		}
		var wantAt float64
		var wantValue string
		if err := json.Unmarshal(pair[0], &wantAt); err != nil || wantAt != at {
			t.Fatalf("%q: time %v, encoding/json %v (%v)", b, at, wantAt, err)
		}
		if err := json.Unmarshal(pair[1], &wantValue); err != nil || wantValue != string(value) {
			t.Fatalf("%q: value %q, encoding/json %q (%v)", b, value, wantValue, err)
		}
	})
}

// TestFastSampleTakes: the fast reader takes the samples Prometheus writes, with JSON's
// whitespace anywhere, and leaves to encoding/json what it does not read exactly.
func TestFastSampleTakes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in    string
		at    float64
		value string
		ok    bool
	}{
		{`[1675270800,"0.8"]`, 1675270800, "0.8", true},
		{" [ 1675270800.123 ,\n\"NaN\" ]\t", 1675270800.123, "NaN", true},
		{`[1e3,"-1.5e-7"]`, 1000, "-1.5e-7", true},
		{`[01,"1"]`, 0, "", false},          // a leading zero: not JSON
		{`[1,"a\"b"]`, 0, "", false},        // an escape
		{`[1,"1"] x`, 0, "", false},         // trailing text
		{`[1,"1"`, 0, "", false},            // unclosed
		{`[1 "1"]`, 0, "", false},           // no comma
		{`[1,"1",2]`, 0, "", false},         // a third element
		{"[1,\"caf\u00e9\"]", 0, "", false}, // non-ASCII
	} {
		at, value, ok := fastSample([]byte(c.in))
		if ok != c.ok || ok && (at != c.at || string(value) != c.value) {
			t.Errorf("fastSample(%q) = %v, %q, %v; want %v, %q, %v", c.in, at, value, ok, c.at, c.value, c.ok)
		}
	}
}

// TestManySeriesCostTheirLabels: an answer of many one-sample series (within the byte bound)
// keeps lim.Series of them, the first by name, and what its decoding allocates is that of its
// labels, not of every series made whole and sorted by a name made at each comparison: 20,000
// series cost under 40 allocations each (some 265 each before, issue 29's probe: 572,000 series
// took 158 s and 3 GB). Allocations are counted, not timed.
func TestManySeriesCostTheirLabels(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"status":"success","data":{"resultType":"matrix","result":[`)
	const n = 20_000
	for s := range n {
		if s > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"metric":{"namespace":"ns-%d","pod":"p-%05d","container":"c"},"values":[[1675270800,"1"]]}`, s%97, n-s)
	}
	b.WriteString(`]}}`)
	raw := []byte(b.String())
	var res Result
	allocs := testing.AllocsPerRun(1, func() {
		var err error
		if res, err = DecodeBytes(raw, "q", Limits{}); err != nil {
			t.Fatal(err)
		}
	})
	lim := Limits{}.orDefaults()
	if len(res.Series) != lim.Series || res.Dropped != n-lim.Series || Name(res.Series[0].Labels) > Name(res.Series[1].Labels) {
		t.Errorf("kept %d series (dropped %d), want the first %d by name", len(res.Series), res.Dropped, lim.Series)
	}
	if allocs > 40*n {
		t.Errorf("%.0f allocations for %d series, want under %d", allocs, n, 40*n)
	}
}
