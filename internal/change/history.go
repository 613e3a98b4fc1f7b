package change

import (
	"encoding/json"
	"sort"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// revisionAnnotation is where the Deployment controller numbers a Deployment's ReplicaSets, one
// per pod template it has run (k8s.io/kubernetes/pkg/controller/deployment/util).
const revisionAnnotation = "deployment.kubernetes.io/revision"

// History finds the changes a single reading already holds: the ReplicaSets of a Deployment
// (kubectl get rs -o json) keep the pod templates it ran before, one per revision, each created
// when its template was rolled out. Consecutive revisions are compared as Between compares two
// readings, and each difference is a change of the Deployment at the time the later
// ReplicaSet was created. Replicas are not compared: ReplicaSets are scaled as a rollout goes.
func History(objs []*cluster.Object) []Change {
	type revision struct {
		n      int
		rs     appsv1.ReplicaSet
		fields map[string]string
		source cluster.Source
	}
	byOwner := map[key][]revision{}
	for _, o := range objs {
		if o.Kind != "ReplicaSet" || o.Raw == nil {
			continue
		}
		var rs appsv1.ReplicaSet
		if json.Unmarshal(o.Raw, &rs) != nil {
			continue
		}
		n, err := strconv.Atoi(rs.Annotations[revisionAnnotation])
		if err != nil {
			continue
		}
		var owner string
		for _, ref := range rs.OwnerReferences {
			if ref.Kind == "Deployment" && ref.Controller != nil && *ref.Controller {
				owner = ref.Name
			}
		}
		if owner == "" {
			continue
		}
		fields := map[string]string{}
		template(fields, "spec.template.spec", rs.Spec.Template.Spec)
		k := key{"Deployment", rs.Namespace, owner}
		byOwner[k] = append(byOwner[k], revision{n: n, rs: rs, fields: fields, source: o.Source})
	}
	owners := make([]key, 0, len(byOwner))
	for k := range byOwner {
		owners = append(owners, k)
	}
	sort.Slice(owners, func(i, j int) bool {
		if owners[i].namespace != owners[j].namespace {
			return owners[i].namespace < owners[j].namespace
		}
		return owners[i].name < owners[j].name
	})
	var out []Change
	for _, k := range owners {
		revs := byOwner[k]
		sort.Slice(revs, func(i, j int) bool { return revs[i].n < revs[j].n })
		for i := 1; i < len(revs); i++ {
			was, is := revs[i-1], revs[i]
			at := is.rs.CreationTimestamp.Time.UTC()
			for _, f := range fieldNames(was.fields, is.fields) {
				if was.fields[f] == is.fields[f] {
					continue
				}
				out = append(out, Change{Kind: k.kind, Namespace: k.namespace, Name: k.name, Field: f,
					Before: orAbsent(was.fields, f), After: orAbsent(is.fields, f), Since: at, Until: at,
					Revision: is.n, Evidence: "ReplicaSet " + is.rs.Namespace + "/" + is.rs.Name, ReplicaSet: is.rs.Name, Source: is.source})
			}
		}
	}
	return out
}
