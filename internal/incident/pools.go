package incident

import (
	"sort"
	"strings"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// NodePool is the component kind of node pools.
const NodePool = cluster.ComponentNodePool

// Pool roles: what a node pool is for, as its name says it.
const (
	RoleCore   = "core"   // the platform's own pods: hub, proxy, Prometheus, ingress, DNS
	RoleUser   = "user"   // people's sessions: notebooks, user servers
	RoleWorker = "worker" // batch and compute: dask workers, jobs
	RoleGPU    = "gpu"
)

// roleWords are the words of a pool's name that give its role. A name with words of several
// roles takes the first of GPU, user, worker, core ("gpu-workers" is a GPU pool).
var roleWords = map[string][]string{
	RoleGPU:    {"gpu", "gpus"},
	RoleUser:   {"user", "users", "notebook", "notebooks", "jupyter", "singleuser", "student", "students"},
	RoleWorker: {"worker", "workers", "dask", "compute", "batch", "spark", "job", "jobs"},
	RoleCore:   {"core", "system", "infra", "infrastructure", "support", "control", "platform", "ops", "mgmt", "management"},
}

// PoolRole is the role a node pool's name gives it ("core-pool" → core, "user-nodes" → user,
// "dask-workers" → worker), or "" when the name says none ("default-pool", "pool-1").
func PoolRole(name string) string {
	words := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !(r >= 'a' && r <= 'z') })
	for _, role := range []string{RoleGPU, RoleUser, RoleWorker, RoleCore} {
		for _, w := range words {
			for _, rw := range roleWords[role] {
				if w == rw {
					return role
				}
			}
		}
	}
	return ""
}

// PoolMatch is how two incidents share a node pool.
type PoolMatch struct {
	How     string `json:"how"`               // SamePool or SameRole
	Pool    string `json:"pool"`              // the first incident's pool
	Other   string `json:"other"`             // the other incident's pool (the same name for SamePool)
	Cluster string `json:"cluster,omitempty"` // for SamePool: the cluster both pools belong to
	Role    string `json:"role,omitempty"`    // the role both pools have, when their names give one
}

// How two node pools are shared.
const (
	SamePool = "same pool"
	SameRole = "same role"
)

// Words says how the pool is shared: "same pool core of cluster leap", "same role: core".
func (m PoolMatch) Words() string {
	if m.How == SamePool {
		return "same pool " + m.Pool + " of cluster " + m.Cluster
	}
	return "same role: " + m.Role
}

// MatchPools lists how the node pools of two incidents are shared: a pool is the same pool as
// another when both incidents happened on the same (known) cluster and the pools have the same
// name; else pools whose names give the same role are pools of the same role. Pools of
// unknown role on unknown or different clusters are never shared.
func MatchPools(a []Component, clusterA string, b []Component, clusterB string) []PoolMatch {
	var out []PoolMatch
	seen := map[string]bool{}
	for _, x := range a {
		if x.Kind != NodePool {
			continue
		}
		for _, y := range b {
			if y.Kind != NodePool {
				continue
			}
			var m PoolMatch
			switch {
			case clusterA != "" && clusterA == clusterB && x.Name == y.Name:
				m = PoolMatch{How: SamePool, Pool: x.Name, Other: y.Name, Cluster: clusterA, Role: PoolRole(x.Name)}
			case PoolRole(x.Name) != "" && PoolRole(x.Name) == PoolRole(y.Name):
				m = PoolMatch{How: SameRole, Pool: x.Name, Other: y.Name, Role: PoolRole(x.Name)}
			default:
				continue
			}
			if k := m.How + "\x00" + m.Pool + "\x00" + m.Other; !seen[k] {
				seen[k] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// ComponentKeys are what the components fraction of a relation's score compares: the kind of
// each component, except that a node pool is compared by its role ("NodePool:core") when its
// name gives one, else by its cluster and name ("NodePool@leap/pool-1"); a pool of unknown
// role on an unknown cluster can be compared with nothing and is left out. Each key once,
// sorted.
func ComponentKeys(cs []Component, clusterName string) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range cs {
		k := c.Kind
		if c.Kind == NodePool {
			k = PoolKey(c.Name, clusterName)
			if k == "" {
				continue
			}
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// PoolKey is a node pool's component key (see ComponentKeys), "" when it has none.
func PoolKey(name, clusterName string) string {
	if role := PoolRole(name); role != "" {
		return NodePool + ":" + role
	}
	if clusterName != "" {
		return NodePool + "@" + clusterName + "/" + name
	}
	return ""
}

// WorkloadNames names components by the workload that runs them, never by a pod: the random
// suffix, the pod-template hash and the ordinal of a pod's name are dropped
// ("hub-7d9f8b6c4-x2k9p" → "hub", "prometheus-server-0" → "prometheus-server"). Node pools
// keep their names, which are not pods'.
func WorkloadNames(cs []Component) []Component {
	if len(cs) == 0 {
		return cs
	}
	out := make([]Component, 0, len(cs))
	seen := map[Component]bool{}
	for _, c := range cs {
		if c.Kind != NodePool && c.Name != "" {
			c.Name = cluster.NameStem(c.Name)
		}
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}
