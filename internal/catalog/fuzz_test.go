package catalog

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzFind: any text, however hostile, is read without a panic; what Find returns lies within
// the text, in order, without overlaps,
// each match's text is the text at its bounds, and Explain finds every message Find does.
func FuzzFind(f *testing.F) {
	for _, e := range Default().Entries {
		f.Add(e.Example)
	}
	f.Add("I0102 15:04:05.000000 1 event.go:209] Event(v1.ObjectReference{Kind:\"Pod\"}): The node was low on resource: memory. Back-off restarting failed container")
	f.Add(strings.Repeat("resource: ", 2000))
	f.Add("\xff\xfe\x00 OOMKilled \u00a0 CrashLoopBackOff")
	c := Default()
	f.Fuzz(func(t *testing.T, text string) {
		ms := c.Find(text)
		end := 0
		for _, m := range ms {
			if m.Start < end || m.End < m.Start || m.End > len(text) {
				t.Fatalf("match %s at %d..%d after one ending at %d, text of %d bytes", m.Entry.ID, m.Start, m.End, end, len(text))
			}
			if text[m.Start:m.End] != m.Text {
				t.Fatalf("match %s: Text %q is not the text at %d..%d", m.Entry.ID, m.Text, m.Start, m.End)
			}
			if m.Entry.Part {
				t.Fatalf("Find returned the part %s", m.Entry.ID)
			}
			end = m.End
		}
		all := c.Explain(text)
		for _, m := range ms {
			found := false
			for _, x := range all {
				if x.Entry == m.Entry && x.Start == m.Start {
					found = true
				}
			}
			if !found {
				t.Fatalf("Explain misses %s at %d", m.Entry.ID, m.Start)
			}
		}
	})
}

// BenchmarkFind reads text made of anchors at two lengths: the cost per byte stays the same
// (each anchor found is matched within a bounded window), which is what keeps Find linear.
//
//	go test ./internal/catalog -run '^$' -bench Find
func BenchmarkFind(b *testing.B) {
	c := Default()
	unit := "The node was low on resource: memory. 0/3 nodes are available: Back-off restarting failed container Liveness probe failed: "
	for _, n := range []int{100, 400} {
		text := strings.Repeat(unit, n)
		b.Run(fmt.Sprintf("%dB", len(text)), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				c.Find(text)
			}
		})
	}
	line := "5m   Warning   Unhealthy   pod/web-1   Readiness probe failed: Get \"http://10.0.0.1:8080/healthz\": context deadline exceeded"
	b.Run("line", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			c.Find(line)
		}
	})
}
