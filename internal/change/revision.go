package change

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// Revision is one pod template a workload ran, as the object that keeps it says: a Deployment's
// ReplicaSet (numbered by its deployment.kubernetes.io/revision annotation) or a StatefulSet's or
// DaemonSet's ControllerRevision (numbered by .revision). It is read here once for the packages
// that ask which workload a ReplicaSet is of (analysis, history) and for History.
type Revision struct {
	// Kind, Namespace and Name are the ReplicaSet's or ControllerRevision's.
	Kind, Namespace, Name string
	// OwnerKind and Owner are its controller's ("" when it has none).
	OwnerKind, Owner string
	// Number is its revision, 0 when it does not say.
	Number int
	// Created is when it was made: when its template was rolled out.
	Created time.Time
}

// RevisionOf reads a ReplicaSet or ControllerRevision of the input; ok is false for another
// kind, or one whose JSON the input does not hold or that does not decode.
func RevisionOf(o *cluster.Object) (r Revision, ok bool) {
	if o.Kind != "ReplicaSet" && o.Kind != "ControllerRevision" || o.Raw == nil {
		return Revision{}, false
	}
	var obj struct {
		Metadata struct {
			CreationTimestamp time.Time
			Annotations       map[string]string
			OwnerReferences   []struct {
				Kind       string
				Name       string
				Controller *bool
			}
		}
		Revision int64 // a ControllerRevision's
	}
	if json.Unmarshal(o.Raw, &obj) != nil {
		return Revision{}, false
	}
	r = Revision{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name, Created: obj.Metadata.CreationTimestamp, Number: int(obj.Revision)}
	if o.Kind == "ReplicaSet" {
		r.Number, _ = strconv.Atoi(obj.Metadata.Annotations[revisionAnnotation])
	}
	for _, ref := range obj.Metadata.OwnerReferences {
		if ref.Controller != nil && *ref.Controller {
			r.OwnerKind, r.Owner = ref.Kind, ref.Name
		}
	}
	return r, true
}

// DeploymentOf is the Deployment that controls a ReplicaSet, "" when the object is no
// ReplicaSet or no Deployment controls it.
func DeploymentOf(o *cluster.Object) string {
	if r, ok := RevisionOf(o); ok && r.Kind == "ReplicaSet" && r.OwnerKind == "Deployment" {
		return r.Owner
	}
	return ""
}
