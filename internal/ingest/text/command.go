package text

import (
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/lazyre"
)

// command is a kubectl (or oc) command line pasted above its output. It says what the output
// is when the output does not: the namespace of a table without a NAMESPACE column, the pod a
// describe fragment is about, the fields of -o jsonpath output, that grep took the header away.
type command struct {
	text          string
	verb          string // get, describe, logs, …
	resource      string // the resource as written: pods, po, pod, nodes, events.events.k8s.io, …
	name          string // the object named, if one
	namespace     string // -n, --namespace
	allNamespaces bool   // -A, --all-namespaces
	output        string // -o: wide, json, yaml, jsonpath=…, custom-columns=…
	grep          bool   // the output went through grep (or another filter): no header
	bare          bool   // the line is only the command (no prompt): "kubectl get pods -A"
	host, at      string // from a watch header: the host and the time of the screen
}

// kubectlVerbs are the verbs whose output Rootline reads, and some that only set context.
var kubectlVerbs = map[string]bool{"get": true, "describe": true, "logs": true, "top": true, "events": true,
	"delete": true, "apply": true, "exec": true, "rollout": true, "scale": true, "drain": true, "cordon": true, "uncordon": true}

// aliasRe recognises the aliases people give kubectl in their shells ("kgetpods", "kgp", "kdp").
var aliasRe = lazyre.New(`^k(get|describe|g|d)(po|pods?|no|nodes?|ev|events?)?$`)

// parseCommand reads a command line; nil when it is not a kubectl or oc command.
func parseCommand(line string) *command {
	words := shellWords(line)
	if len(words) == 0 {
		return nil
	}
	i := 0
	for i < len(words) && (words[i] == "sudo" || strings.Contains(words[i], "=") && !strings.HasPrefix(words[i], "-")) {
		i++ // sudo, KUBECONFIG=… before the command
	}
	if i >= len(words) {
		return nil
	}
	c := &command{text: line}
	bin := words[i]
	if j := strings.LastIndexAny(bin, `/\`); j >= 0 {
		bin = bin[j+1:]
	}
	bin = strings.ToLower(strings.TrimSuffix(bin, ".exe"))
	rest := words[i+1:]
	switch {
	case strings.HasPrefix(bin, "kubectl") || bin == "oc" || bin == "k" || bin == "microk8s.kubectl" || oneTypo(bin, "kubectl"):
		c.bare = strings.HasPrefix(bin, "kubectl") || bin == "oc" || bin == "microk8s.kubectl"
	case bin == "microk8s" || bin == "k3s" || bin == "minikube":
		if len(rest) == 0 || rest[0] != "kubectl" {
			return nil
		}
		// kubectl as the distribution ships it: as plainly a command as kubectl itself, with
		// or without a prompt before it.
		c.bare = true
		rest = rest[1:]
		for len(rest) > 0 && rest[0] == "--" {
			rest = rest[1:]
		}
	case aliasRe.MatchString(bin):
		m := aliasRe.FindStringSubmatch(bin)
		c.verb = map[string]string{"get": "get", "g": "get", "describe": "describe", "d": "describe"}[m[1]]
		c.resource = m[2]
	case len(rest) > 0 && kubectlVerbs[rest[0]] && len(bin) <= 3:
		// A short alias of kubectl ("ks get pod x"): its verb says what it is.
	default:
		return nil
	}
	c.parseArgs(rest)
	if c.verb == "" {
		return nil
	}
	return c
}

// parseArgs reads the verb, resource, name and flags of a kubectl command.
func (c *command) parseArgs(args []string) {
	var plain []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "|" || strings.HasPrefix(a, "|") {
			c.grep = true
			break
		}
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch {
		case a == "-n" || a == "--namespace":
			c.namespace = next()
		case strings.HasPrefix(a, "--namespace="):
			c.namespace = strings.TrimPrefix(a, "--namespace=")
		case strings.HasPrefix(a, "-n") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			c.namespace = strings.TrimPrefix(strings.TrimPrefix(a, "-n"), "=")
		case a == "-A" || a == "--all-namespaces" || a == "--all-namespaces=true":
			c.allNamespaces = true
		case a == "-o" || a == "--output":
			c.output = next()
		case strings.HasPrefix(a, "--output="):
			c.output = strings.TrimPrefix(a, "--output=")
		case strings.HasPrefix(a, "-o") && !strings.HasPrefix(a, "--"):
			c.output = strings.TrimPrefix(strings.TrimPrefix(a, "-o"), "=")
		case valueFlags[a]:
			next()
		case strings.HasPrefix(a, "-"):
		default:
			plain = append(plain, a)
		}
	}
	c.positional(plain)
}

// valueFlags are kubectl's flags, other than namespace and output, whose value is the next
// argument.
var valueFlags = map[string]bool{"--context": true, "--kubeconfig": true, "-l": true, "--selector": true, "--field-selector": true,
	"-c": true, "--container": true, "--sort-by": true, "--request-timeout": true, "--cluster": true, "--user": true}

// positional reads the command's arguments that are not flags: its verb (unless known
// already), the resource and the object's name.
func (c *command) positional(plain []string) {
	if c.verb == "" && len(plain) > 0 {
		c.verb, plain = plain[0], plain[1:]
	}
	if c.verb == "logs" && len(plain) > 0 && !strings.Contains(plain[0], "/") {
		c.resource = "pod" // kubectl logs takes a pod's name alone
	}
	if c.resource == "" && len(plain) > 0 {
		c.resource, plain = plain[0], plain[1:]
	}
	if kind, name, ok := strings.Cut(c.resource, "/"); ok { // "pod/web-1"
		c.resource, c.name = kind, name
	} else if len(plain) > 0 {
		c.name = plain[0]
	}
	c.name = objectName(c.name)
	if i := slices.Index(plain, c.name); i >= 0 && i+1 < len(plain) && strings.HasSuffix(plain[i+1], ":") && !strings.ContainsAny(c.name, "-.0123456789") {
		// "kubectl describe pod gives me:": a sentence about a command, whose words after it
		// are a person's: a plain word before a colon is a verb, not a name.
		c.name = ""
	}
	if !kubectlVerbs[c.verb] {
		c.verb = ""
	}
}

// kind is the Kubernetes kind of the command's resource, or "".
func (c *command) kind() string {
	if c == nil {
		return ""
	}
	res, _, _ := strings.Cut(strings.ToLower(c.resource), ".")
	return resourceKinds[res]
}

// resourceKinds are the kinds of the resources kubectl takes, by each name it takes for them
// (singular, plural, short).
var resourceKinds = func() map[string]string {
	m := map[string]string{}
	for kind, names := range map[string][]string{
		"Pod": {"po", "pod", "pods"}, "Node": {"no", "node", "nodes"}, "Event": {"ev", "event", "events"},
		"ConfigMap": {"cm", "configmap", "configmaps"}, "Deployment": {"deploy", "deployment", "deployments"},
		"ReplicaSet": {"rs", "replicaset", "replicasets"}, "StatefulSet": {"sts", "statefulset", "statefulsets"},
		"DaemonSet": {"ds", "daemonset", "daemonsets"}, "Job": {"job", "jobs"}, "CronJob": {"cj", "cronjob", "cronjobs"},
		"PersistentVolumeClaim": {"pvc", "persistentvolumeclaim", "persistentvolumeclaims"},
	} {
		for _, n := range names {
			m[n] = kind
		}
	}
	return m
}()

// shellWords splits a command line as a shell would, keeping quoted words whole; "|" after a
// word ends up as a word of its own.
func shellWords(s string) []string {
	var words []string
	var b strings.Builder
	in := false
	var quote rune
	flush := func() {
		if in {
			words = append(words, b.String())
			b.Reset()
			in = false
		}
	}
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				b.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			flush()
		case r == '|':
			flush()
			words = append(words, "|")
		default:
			b.WriteRune(r)
			in = true
		}
	}
	flush()
	return words
}

// oneTypo reports whether s is want with one letter added, dropped, changed, or two letters
// swapped ("kubecetl", "kubctl", "kubeclt"): people paste the command they mistyped.
func oneTypo(s, want string) bool {
	if s == want || len(s) < len(want)-1 || len(s) > len(want)+1 {
		return false
	}
	i := 0
	for i < len(s) && i < len(want) && s[i] == want[i] {
		i++
	}
	switch {
	case len(s) == len(want):
		return s[i+1:] == want[i+1:] || // changed
			(i+1 < len(s) && s[i] == want[i+1] && s[i+1] == want[i] && s[i+2:] == want[i+2:]) // swapped
	case len(s) > len(want):
		return s[i+1:] == want[i:] // added
	}
	return s[i:] == want[i+1:] // dropped
}

// cmdObject is the object the last command described or got by name ("kubectl describe pod
// x -n y"; a workload's or a claim's only when described), for output that does not name it:
// an events section pasted alone. It is empty when the command named none.
func (p *parser) cmdObject() corev1.ObjectReference { return cmdRef(p.cmd) }

// cmdObjectOf is cmdObject for events of these reasons: none where the command named a node
// and a reason is one the kubelet and the scheduler record only about pods (a FailedScheduling
// row under `oc describe node x | egrep gpu` is a pod's, not the node's).
//
// None either where the command named a pod or a node and the reasons are the volume
// controllers' (volumeReasons): the events are a claim's or a volume's, whatever the command
// above them said (a `describe pod` whose section shows its claim's ProvisioningFailed).
func (p *parser) cmdObjectOf(reasons ...string) corev1.ObjectReference {
	ref := p.cmdObject()
	if ref.Kind == cluster.KindNode && slices.ContainsFunc(reasons, func(r string) bool { return podEventReasons[r] }) {
		return corev1.ObjectReference{}
	}
	if (ref.Kind == cluster.KindNode || ref.Kind == cluster.KindPod) && volumeSection(reasons) {
		return corev1.ObjectReference{}
	}
	return ref
}

// volumeReasons are the reasons of the events the PV controller, the external provisioner
// and the external resizer record about a PersistentVolumeClaim or a PersistentVolume
// (pkg/controller/volume/events, sig-storage-lib-external-provisioner's "Provisioning"):
// never about a pod or a node.
var volumeReasons = map[string]bool{
	"FailedBinding": true, "VolumeMismatch": true, "VolumeFailedRecycle": true, "VolumeRecycled": true,
	"RecyclerPod": true, "VolumeDelete": true, "VolumeFailedDelete": true, "ExternalProvisioning": true,
	"ProvisioningFailed": true, "ProvisioningCleanupFailed": true, "ProvisioningSucceeded": true,
	"WaitForFirstConsumer": true, "WaitForPodScheduled": true, "ExternalExpanding": true, "Provisioning": true,
}

// volumeSection reports whether events of these reasons are a claim's or a volume's: one of
// them is the volume controllers' and none the kubelet's or the scheduler's about a pod.
func volumeSection(reasons []string) bool {
	return slices.ContainsFunc(reasons, func(r string) bool { return volumeReasons[r] }) &&
		!slices.ContainsFunc(reasons, func(r string) bool { return podEventReasons[r] })
}

// cmdRef is the object a command describes or gets by name (see cmdObject).
func cmdRef(c *command) corev1.ObjectReference {
	if c == nil || c.name == "" || (c.verb != "describe" && c.verb != "get" && !(c.verb == "logs" && c.kind() == cluster.KindPod)) {
		return corev1.ObjectReference{}
	}
	ref := corev1.ObjectReference{Kind: c.kind(), Name: c.name}
	switch ref.Kind {
	case cluster.KindPod:
		ref.APIVersion, ref.Namespace = "v1", c.namespace
	case cluster.KindNode:
		ref.APIVersion = "v1"
	case "", cluster.KindEvent:
		return corev1.ObjectReference{}
	default:
		// A workload or a claim described by name: the events section under it is its own
		// ("kubectl describe jobs.batch hello", then its Events cut from the rest).
		if c.verb != "describe" {
			return corev1.ObjectReference{}
		}
		ref.Namespace = c.namespace
	}
	return ref
}

// mayBeCommand is a quick look at whether a line without a prompt may be a kubectl command,
// before parsing it as one: every line of a paste is asked.
func mayBeCommand(s string) bool {
	first, _, _ := strings.Cut(s, " ")
	return strings.Contains(first, "kubectl") || first == "oc" || first == "sudo" || first == "microk8s" || first == "k3s" || first == "minikube"
}

// gluedRe is a word a page's text glued to the end of a command's name, where its lines were
// joined without a space: "kubectl describe pod web-1Conditions:" is web-1, then Conditions.
var gluedRe = lazyre.New(`[A-Z][A-Za-z]*:?$`)

// objectName is the name a command's word gives: the word, less a word glued to its end; ""
// where what is left is no object's name (a DNS subdomain, as pods' and nodes' names are).
func objectName(w string) string {
	if w == "" {
		return ""
	}
	if loc := gluedRe.FindStringIndex(w); loc != nil && loc[0] > 0 && len(validation.IsDNS1123Subdomain(w[:loc[0]])) == 0 {
		return w[:loc[0]]
	}
	if len(validation.IsDNS1123Subdomain(w)) > 0 {
		return ""
	}
	return w
}
