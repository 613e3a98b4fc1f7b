package change

import (
	"encoding/json"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// revisionAnnotation is where the Deployment controller numbers a Deployment's ReplicaSets, one
// per pod template it has run (k8s.io/kubernetes/pkg/controller/deployment/util).
const revisionAnnotation = "deployment.kubernetes.io/revision"

// History finds the changes a single reading already holds: the ReplicaSets of a Deployment
// (kubectl get rs -o json) keep the pod templates it ran before, one per revision, each created
// when its template was rolled out; the ControllerRevisions of a StatefulSet or DaemonSet
// (kubectl get controllerrevisions -o json) do the same for theirs (history_revisions.go).
// Consecutive revisions are compared as Between compares two readings, and each difference is
// a change of the workload at the time the later revision was created. Replicas are not
// compared: ReplicaSets are scaled as a rollout goes.
func History(objs []*cluster.Object) []Change {
	byOwner := map[key][]revision{}
	for _, o := range objs {
		r, ok := RevisionOf(o)
		if !ok || r.Kind != "ReplicaSet" || r.OwnerKind != "Deployment" || r.Number <= 0 {
			continue
		}
		var rs struct {
			Spec struct {
				Template corev1.PodTemplateSpec `json:"template"`
			} `json:"spec"`
		}
		if json.Unmarshal(o.Raw, &rs) != nil {
			continue
		}
		fields := fieldSet{}
		template(fields, "spec.template.spec", rs.Spec.Template.Spec)
		k := key{"Deployment", r.Namespace, r.Owner}
		byOwner[k] = append(byOwner[k], revision{n: r.Number, at: r.Created.UTC(), fields: fields, source: o.Source,
			mark: func(c *Change) { c.Evidence, c.ReplicaSet = "ReplicaSet "+r.Namespace+"/"+r.Name, r.Name }})
	}
	return append(compareRevisions(byOwner), revisionHistory(objs)...)
}

// revision is one pod template a workload ran: its number, when it was rolled out, its
// compared fields, where it was read, and mark, which says on a change it made what shows it
// and which pods run it.
type revision struct {
	n      int
	at     time.Time
	fields fieldSet
	source cluster.Source
	mark   func(*Change)
}

// compareRevisions compares each workload's revisions, in the order of their numbers, each with
// the one before, workloads in the order of namespace and name.
func compareRevisions(byOwner map[key][]revision) []Change {
	owners := make([]key, 0, len(byOwner))
	for k := range byOwner {
		owners = append(owners, k)
	}
	sort.Slice(owners, func(i, j int) bool {
		if owners[i].namespace != owners[j].namespace {
			return owners[i].namespace < owners[j].namespace
		}
		if owners[i].name != owners[j].name {
			return owners[i].name < owners[j].name
		}
		return owners[i].kind < owners[j].kind
	})
	var out []Change
	for _, k := range owners {
		revs := byOwner[k]
		sort.Slice(revs, func(i, j int) bool { return revs[i].n < revs[j].n })
		for i := 1; i < len(revs); i++ {
			was, is := revs[i-1], revs[i]
			for _, c := range differences(k, was.fields, is.fields) {
				c.Since, c.Until, c.Revision, c.Source = is.at, is.at, is.n, is.source
				is.mark(&c)
				out = append(out, c)
			}
		}
	}
	return out
}
