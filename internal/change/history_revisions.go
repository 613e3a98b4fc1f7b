package change

import (
	"encoding/json"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// revisionHashLabel is the label a StatefulSet's or DaemonSet's pods carry of the revision they
// run, and that its ControllerRevisions carry of themselves (k8s.io/api/apps/v1
// ControllerRevisionHashLabelKey).
const revisionHashLabel = appsv1.ControllerRevisionHashLabelKey

// revisionData is what a StatefulSet's or DaemonSet's ControllerRevision holds in .data: a
// strategic-merge patch of the workload that replaces its pod template
// ({"spec":{"template":{"$patch":"replace",…}}}).
type revisionData struct {
	Spec struct {
		Template *corev1.PodTemplateSpec `json:"template"`
	} `json:"spec"`
}

// revisionHistory reads the ControllerRevisions of StatefulSets and DaemonSets: each is one pod
// template its owner ran, numbered by .revision and made when it was rolled out. A revision
// without a controlling StatefulSet or DaemonSet, a number or a template tells nothing.
func revisionHistory(objs []*cluster.Object) []Change {
	byOwner := map[key][]revision{}
	for _, o := range objs {
		if o.Kind != "ControllerRevision" || o.Raw == nil {
			continue
		}
		var cr appsv1.ControllerRevision
		if json.Unmarshal(o.Raw, &cr) != nil || cr.Revision <= 0 {
			continue
		}
		var owner controller
		for _, ref := range cr.OwnerReferences {
			if (ref.Kind == "StatefulSet" || ref.Kind == "DaemonSet") && ref.Controller != nil && *ref.Controller {
				owner = controller{kind: ref.Kind, name: ref.Name}
			}
		}
		var data revisionData
		if owner.kind == "" || json.Unmarshal(cr.Data.Raw, &data) != nil || data.Spec.Template == nil {
			continue
		}
		fields := fieldSet{}
		template(fields, "spec.template.spec", data.Spec.Template.Spec)
		hash := podRevisionHash(owner.kind, owner.name, cr)
		k := key{owner.kind, cr.Namespace, owner.name}
		byOwner[k] = append(byOwner[k], revision{n: int(cr.Revision), at: cr.CreationTimestamp.Time.UTC(), fields: fields, source: o.Source,
			mark: func(c *Change) { c.Evidence, c.RevisionHash = "ControllerRevision "+cr.Namespace+"/"+cr.Name, hash }})
	}
	return compareRevisions(byOwner)
}

// controller is the controlling owner of a ControllerRevision: its kind and name.
type controller struct{ kind, name string }

// podRevisionHash is the controller-revision-hash label the pods of a revision carry: the
// StatefulSet controller labels its pods with the revision's name ("web-6c4c8d8d5b"), the
// DaemonSet controller with the hash alone ("6c4c8d8d5b"), which the revision carries as its own
// label and as its name's suffix.
func podRevisionHash(kind, owner string, cr appsv1.ControllerRevision) string {
	if kind == "StatefulSet" {
		return cr.Name
	}
	if h := cr.Labels[revisionHashLabel]; h != "" {
		return h
	}
	return strings.TrimPrefix(cr.Name, owner+"-")
}
