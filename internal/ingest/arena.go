package ingest

import "unsafe"

// arena holds the bytes of the strings an interner keeps for rootline analyze, which holds
// every object it decodes to its end: packed into chunks, each string in the chunk its first
// copy was appended to, never written again. The decoder's own copy of each string (sonic's,
// encoding/json's) is then garbage, freed with the rest of an object's decoding garbage, where
// before, the strings the interner kept stood among those it replaced and the collector could
// give no span of them back: holes in the heap, 16 MiB at 20,000 pods (issue 30). A chunk lives
// as long as any of its strings, so an arena is for a decoder whose objects all live as long
// (Options.Unstored), not for the server's, whose objects go once stored.
type arena struct {
	buf []byte
}

const (
	// arenaChunk is the size of an arena's chunks: a large object of its own span.
	arenaChunk = 64 << 10
	// maxArenaString is the longest string an arena takes: a longer one keeps its own
	// allocation, which is no smaller a hole than the chunk's end it would waste.
	maxArenaString = 1 << 10
)

// own returns s with its bytes in the arena, or s itself when it is empty, too long, or the
// arena is nil.
func (a *arena) own(s string) string {
	if a == nil || len(s) == 0 || len(s) > maxArenaString {
		return s
	}
	if cap(a.buf)-len(a.buf) < len(s) {
		a.buf = make([]byte, 0, arenaChunk)
	}
	start := len(a.buf)
	a.buf = append(a.buf, s...)
	// The bytes from start on are never written again: append writes only past len.
	return unsafe.String(&a.buf[start], len(s))
}
