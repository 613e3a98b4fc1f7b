package metrics

import (
	"bytes"
	"fmt"
	"testing"
)

// largeAnswer is an answer at the bounds: 500 series of 4,000 samples (2,000,000 in all).
func largeAnswer(b *testing.B) []byte {
	b.Helper()
	var buf bytes.Buffer
	buf.WriteString(`{"status":"success","data":{"resultType":"matrix","result":[`)
	for s := range 500 {
		if s > 0 {
			buf.WriteByte(',')
		}
		fmt.Fprintf(&buf, `{"metric":{"namespace":"prod","pod":"worker-%d","container":"worker"},"values":[`, s)
		for i := range 4000 {
			if i > 0 {
				buf.WriteByte(',')
			}
			fmt.Fprintf(&buf, `[%d.%03d,"%d.5"]`, 1675270800+i*15, i%1000, i)
		}
		buf.WriteString(`]}`)
	}
	buf.WriteString(`]}}`)
	return buf.Bytes()
}

// BenchmarkDecodeLarge decodes an answer at the sample bound: what one saved answer of an
// upload may cost (B/op, against its size, reported as input-bytes).
func BenchmarkDecodeLarge(b *testing.B) {
	raw := largeAnswer(b)
	b.ReportMetric(float64(len(raw)), "input-bytes")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeBytes(raw, "q", Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

// manySeriesAnswer is an answer within the byte bound made of many one-sample series: n series
// of three labels each (issue 29's probe: 572k series in 31 MiB).
func manySeriesAnswer(b *testing.B, n int) []byte {
	b.Helper()
	var buf bytes.Buffer
	buf.WriteString(`{"status":"success","data":{"resultType":"matrix","result":[`)
	for s := range n {
		if s > 0 {
			buf.WriteByte(',')
		}
		fmt.Fprintf(&buf, `{"metric":{"namespace":"ns-%d","pod":"p-%d","container":"c"},"values":[[1675270800,"1"]]}`, s%97, s)
	}
	buf.WriteString(`]}}`)
	return buf.Bytes()
}

// BenchmarkDecodeManySeries decodes an answer of 572,000 one-sample series: only the first
// lim.Series by name are kept, and what it costs must be that of the answer, not of every
// series made whole and sorted.
func BenchmarkDecodeManySeries(b *testing.B) {
	raw := manySeriesAnswer(b, 572_000)
	b.ReportMetric(float64(len(raw)), "input-bytes")
	b.ReportAllocs()
	for b.Loop() {
		res, err := DecodeBytes(raw, "q", Limits{})
		if err != nil {
			b.Fatal(err)
		}
		if res.Dropped == 0 {
			b.Fatal("no series dropped")
		}
	}
}
