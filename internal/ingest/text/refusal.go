package text

import (
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/lazyre"
)

// The API server's refusal to make a pod names it as k8s.io/apimachinery's NewForbidden writes
// it, "%s %q is forbidden: %v": `pods "web-0" is forbidden: …` (1.0: `Pod "web-0"`), its quotes
// escaped where a JSON log quoted it. A controller that names its pods by generateName
// ("<controller>-", pkg/controller/controller_utils.go getPodsPrefix) is refused under that
// prefix, or under the name generated from it ("<controller>-" and five characters).
const refusalExpr = `\b(?:pods|Pod) \\?"([a-z0-9][a-z0-9.-]*)\\?" is forbidden: `

var (
	// refusalRe finds a refusal anywhere in a message; refusalEndRe one that ends the text
	// before a message (its reason), as another tool quoted it.
	refusalRe    = lazyre.New(refusalExpr)
	refusalEndRe = lazyre.New(refusalExpr + `$`)
	// generatedRe is a pod's name generated from its controller's: the controller's and five
	// characters.
	generatedRe = lazyre.New(`^([a-z0-9][a-z0-9.-]*[a-z0-9])-[a-z0-9]{5}$`)
)

// refusedPod is the pod a refusal the expression r found names, or "" where it names only a
// controller's generateName ("web-7d9f8-"), which is no pod's name.
func refusedPod(r *lazyre.Regexp, s string) string {
	m := r.FindStringSubmatch(s)
	if m == nil || strings.HasSuffix(m[1], "-") || strings.HasSuffix(m[1], ".") {
		return ""
	}
	return m[1]
}

// refusedController is the controller whose pod a refusal in msg names, for a controller that
// names its pods by generateName: the prefix less its "-", or the generated name less "-" and
// its five characters; "" when the refusal names neither.
func refusedController(msg string) string {
	m := refusalRe.FindStringSubmatch(msg)
	if m == nil {
		return ""
	}
	if p, ok := strings.CutSuffix(m[1], "-"); ok && p != "" {
		return p
	}
	if g := generatedRe.FindStringSubmatch(m[1]); g != nil {
		return g[1]
	}
	return ""
}

// refusedObject is what the refusal the expression r finds in s names: the pod, or, where it
// names only a generateName ("web-", no pod's name), the controller named so (prefixController);
// none without a refusal.
func refusedObject(r *lazyre.Regexp, s string) corev1.ObjectReference {
	m := r.FindStringSubmatch(s)
	if m == nil {
		return corev1.ObjectReference{}
	}
	return refusedName("", m[1])
}

// refusedName is the object a refusal's name stands for in namespace: a controller's prefix
// ("web-") is that controller, a name that ends in "." none, any other a pod.
func refusedName(namespace, name string) corev1.ObjectReference {
	if p, ok := strings.CutSuffix(name, "-"); ok {
		if p == "" {
			return corev1.ObjectReference{}
		}
		return prefixController(namespace, p)
	}
	if strings.HasSuffix(name, ".") {
		return corev1.ObjectReference{}
	}
	return podRef(namespace, name)
}

// prefixController is the controller a refusal names only by its pods' generateName ("web-",
// no pod's name): a ReplicaSet where its name ends in a pod template's hash, else of a kind the
// message does not say.
func prefixController(namespace, name string) corev1.ObjectReference {
	obj := corev1.ObjectReference{Namespace: namespace, Name: name}
	if _, ok := cluster.DeploymentOf(name); ok {
		obj.Kind = "ReplicaSet"
	}
	return obj
}

// statefulSetFailedRe is the StatefulSet controller's event of a pod or claim it could not
// make (pkg/controller/statefulset/stateful_pod_control.go, recordPodEvent and
// recordClaimEvent): "create Pod web-0 in StatefulSet web failed error: …", "create Claim
// data-web-0 for Pod web-0 in StatefulSet web failed error: …". The event is the set's.
var statefulSetFailedRe = lazyre.New(`\b(?:create|update|delete) (?:Pod ([a-z0-9][a-z0-9.-]*)|Claim [a-z0-9][a-z0-9.-]* for Pod ([a-z0-9][a-z0-9.-]*)) in StatefulSet ([a-z0-9][a-z0-9.-]*) failed error:`)
