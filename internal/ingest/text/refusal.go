package text

import (
	"regexp"
	"strings"
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
	refusalRe    = regexp.MustCompile(refusalExpr)
	refusalEndRe = regexp.MustCompile(refusalExpr + `$`)
	// generatedRe is a pod's name generated from its controller's: the controller's and five
	// characters.
	generatedRe = regexp.MustCompile(`^([a-z0-9][a-z0-9.-]*[a-z0-9])-[a-z0-9]{5}$`)
)

// refusedPod is the pod a refusal the expression r found names, or "" where it names only a
// controller's generateName ("web-7d9f8-"), which is no pod's name.
func refusedPod(r *regexp.Regexp, s string) string {
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
