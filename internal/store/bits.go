package store

import (
	"hash/fnv"
	"math/bits"
)

// The bit of each symptom and cause kind in incident_facets' bit sets. Stored rows depend on
// these positions: the lists only ever grow at the end (TestSignatureBits pins them), and a
// change of the hashed range needs a migration that rebuilds the facets.
var (
	symptomBit = bitsOf("pod_evicted", "pod_pending", "oom_killed", "liveness_probe_failed", "readiness_probe_failed",
		"crash_loop_backoff", "container_restarted", "image_pull_failed", "preempted", "node_not_ready", "node_pressure",
		"scale_up", "evicted_pods_lingering")
	causeBit = bitsOf("capacity_exhaustion", "shared_node_pool", "shared_prometheus", "cpu_starvation", "memory_over_request",
		"memory_limit_too_low", "node_overcommitted", "scale_up_not_ready", "scheduling_constraints", "preemption",
		"node_disk_exhaustion", "request_exceeds_node", "volume_binding", "image_unavailable", "container_start_failure")
	// Component keys (incident.ComponentKeys): the component kinds of the report format have
	// their own bits, and so have the keys of node pools of each role (migration 11 added them
	// and rebuilt every stored set; "NodePool" itself is no key any more). Any other key (a
	// kind of another word, a pool of unknown role by its cluster and name) shares one of the
	// bits 13 to 62 by its hash, which can only make the first, indexed ranking of related
	// incidents think two keys alike; the final ranking compares the keys themselves.
	componentBit = bitsOf("NodePool", "Prometheus", "Hub", "Proxy", "Ingress", "DNS", "Autoscaler", "Scheduler", "Database",
		"NodePool:core", "NodePool:user", "NodePool:worker", "NodePool:gpu")
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
