package store

import (
	"hash/fnv"
	"math/bits"
	"slices"

	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/kinds"
)

// The bit of each symptom and cause kind in incident_facets' bit sets: its position in the
// vocabulary's lists (internal/kinds). Stored rows depend on these positions: the lists only
// ever grow at the end (TestSignatureBits pins them), and a change of the hashed range needs a
// migration that rebuilds the facets.
var (
	symptomBit = bitsOf(kinds.Symptoms...)
	causeBit   = bitsOf(kinds.Causes...)
	// Component keys (incident.ComponentKeys): the component kinds of the report format have
	// their own bits, and so have the keys of node pools of each role (migration 11 added them
	// and rebuilt every stored set; "NodePool" itself is no key any more). Any other key (a
	// kind of another word, a pool of unknown role by its cluster and name) shares one of the
	// bits 13 to 62 by its hash, which can only make the first, indexed ranking of related
	// incidents think two keys alike; the final ranking compares the keys themselves. New
	// component kinds cannot simply be added: the pool keys follow the kinds.
	componentBit = bitsOf(append(slices.Clone(kinds.Components),
		"NodePool:"+incident.RoleCore, "NodePool:"+incident.RoleUser, "NodePool:"+incident.RoleWorker, "NodePool:"+incident.RoleGPU)...)
)

const otherBit = 63 // a symptom or cause kind outside the lists (the vocabulary grew, this did not)

func bitsOf(kinds ...string) map[string]uint {
	m := make(map[string]uint, len(kinds))
	for i, k := range kinds {
		m[k] = uint(i)
	}
	return m
}

// bitSet is one facet of a signature as a set of bits.
func bitSet(values []string, bit map[string]uint, hashOthers bool) int64 {
	var set uint64
	for _, v := range values {
		b, ok := bit[v]
		switch {
		case ok:
		case hashOthers:
			h := fnv.New64a()
			h.Write([]byte(v))
			b = uint(len(bit)) + uint(h.Sum64()%uint64(otherBit-len(bit)))
		default:
			b = otherBit
		}
		set |= 1 << b
	}
	return int64(set)
}

// sigBits is an incident's effective signature as bit sets, for scoring overlaps quickly.
type sigBits struct {
	SymptomBits, CauseBits, ComponentBits int64
}

// overlap is incident.Related's overlap of two signatures over their bit sets: the mean of the
// shared fractions (Jaccard) of causes, symptoms and component kinds.
func (a sigBits) overlap(b sigBits) float64 {
	j := func(x, y int64) float64 {
		u := bits.OnesCount64(uint64(x | y))
		if u == 0 {
			return 0
		}
		return float64(bits.OnesCount64(uint64(x&y))) / float64(u)
	}
	return (j(a.CauseBits, b.CauseBits) + j(a.SymptomBits, b.SymptomBits) + j(a.ComponentBits, b.ComponentBits)) / 3
}
