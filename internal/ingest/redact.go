package ingest

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"unicode/utf8"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// Redacted replaces every value Rootline refuses to keep.
const Redacted = "[redacted]"

// lastApplied holds a copy of the whole object as last applied, env values and all.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// secretName matches names (of annotations, variables, headers, flags) that usually hold secrets.
var secretName = regexp.MustCompile(`(?i)(secret|token|passw(or)?d|pwd|credential|api[-_.]?key|access[-_.]?key|private[-_.]?key|auth|bearer|cookie|session|signature|cert)`)

// secretAssignment matches NAME=value and NAME: value in free text (commands, messages) when
// NAME looks secret, and bearer tokens; the value is replaced, the name kept.
var secretAssignment = regexp.MustCompile(`(?i)(\b[\w.-]*(?:secret|token|passw(?:or)?d|pwd|credential|api[-_.]?key|access[-_.]?key|private[-_.]?key)[\w.-]*\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s,;&"']+)|(\bbearer\s+)([\w.~+/=-]+)`)

// secretWords are what every match of secretAssignment holds, in lower case: text without
// any of them (and all ASCII, so that no Unicode case folding can make one) cannot match, and
// is not handed to the regular expression, which costs a tenth of an analysis otherwise.
var secretWords = [][]byte{[]byte("secret"), []byte("token"), []byte("passw"), []byte("pwd"), []byte("credential"), []byte("key"), []byte("bearer")}

// secretNameWords are, likewise, what every match of secretName holds.
var secretNameWords = [][]byte{[]byte("secret"), []byte("token"), []byte("passw"), []byte("pwd"), []byte("credential"),
	[]byte("key"), []byte("auth"), []byte("bearer"), []byte("cookie"), []byte("session"), []byte("signature"), []byte("cert")}

func mayHoldSecret(s string) bool { return mayHold(s, secretWords) }

// isSecretName reports whether secretName matches s, asking the regular expression only when
// s may: annotation names were a tenth of decoding nodes and events.
func isSecretName(s string) bool {
	return mayHold(s, secretNameWords) && secretName.MatchString(s)
}

// mayHold reports whether s, lowered, contains one of the words; non-ASCII text always may.
func mayHold(s string, words [][]byte) bool {
	var buf [256]byte
	lower := buf[:0]
	if len(s) > len(buf) {
		lower = make([]byte, 0, len(s))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return true
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower = append(lower, c)
	}
	for _, w := range words {
		if bytes.Contains(lower, w) {
			return true
		}
	}
	return false
}

// scrub redacts secret assignments in free text.
func scrub(s string) string {
	if !mayHoldSecret(s) || !secretAssignment.MatchString(s) {
		return s
	}
	return secretAssignment.ReplaceAllStringFunc(s, func(m string) string {
		sub := secretAssignment.FindStringSubmatch(m)
		if sub[1] != "" {
			return sub[1] + Redacted
		}
		return sub[3] + Redacted
	})
}

// redactMeta drops managed fields (bulky, and of no use as evidence) and redacts annotations
// whose names look secret, and the last-applied copy of the object.
func redactMeta(m *metav1.ObjectMeta) {
	m.ManagedFields = nil
	for k, v := range m.Annotations {
		if k == lastApplied || isSecretName(k) {
			m.Annotations[k] = Redacted
			continue
		}
		m.Annotations[k] = scrub(v)
	}
}

func redactPod(p *corev1.Pod) {
	redactMeta(&p.ObjectMeta)
	redactPodSpec(&p.Spec)
	p.Status.Message = scrub(p.Status.Message)
}

func redactPodSpec(s *corev1.PodSpec) {
	for i := range s.InitContainers {
		redactContainer(&s.InitContainers[i])
	}
	for i := range s.Containers {
		redactContainer(&s.Containers[i])
	}
	for i := range s.EphemeralContainers {
		redactContainer((*corev1.Container)(&s.EphemeralContainers[i].EphemeralContainerCommon))
	}
}

func redactContainer(c *corev1.Container) {
	for i := range c.Env {
		if c.Env[i].Value != "" {
			c.Env[i].Value = Redacted
		}
	}
	for i := range c.Command {
		c.Command[i] = scrub(c.Command[i])
	}
	for i := range c.Args {
		c.Args[i] = scrub(c.Args[i])
	}
	for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		redactProbe(p)
	}
}

func redactProbe(p *corev1.Probe) {
	if p == nil {
		return
	}
	if p.HTTPGet != nil {
		for i, h := range p.HTTPGet.HTTPHeaders {
			if isSecretName(h.Name) {
				p.HTTPGet.HTTPHeaders[i].Value = Redacted
			}
		}
	}
	if p.Exec != nil {
		for i := range p.Exec.Command {
			p.Exec.Command[i] = scrub(p.Exec.Command[i])
		}
	}
}

func redactEvent(e *corev1.Event) {
	redactMeta(&e.ObjectMeta)
	e.Message = scrub(e.Message)
}

// redactRaw applies the same rules to an object kept as raw JSON (workloads carry pod templates
// with env values), walking the generic tree. It returns the redacted JSON and the uid.
func redactRaw(raw []byte) (json.RawMessage, string, error) {
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, "", err
	}
	redactTree(v)
	uid := ""
	if md, ok := v["metadata"].(map[string]any); ok {
		uid, _ = md["uid"].(string)
	}
	out, err := json.Marshal(v)
	return out, uid, err
}

func redactTree(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, child := range t {
			switch k {
			case "managedFields":
				delete(t, k)
				continue
			case "annotations":
				if ann, ok := child.(map[string]any); ok {
					for name, val := range ann {
						if s, ok := val.(string); ok {
							if name == lastApplied || isSecretName(name) {
								ann[name] = Redacted
							} else {
								ann[name] = scrub(s)
							}
						}
					}
					continue
				}
			case "env":
				if list, ok := child.([]any); ok {
					for _, e := range list {
						if m, ok := e.(map[string]any); ok {
							if s, ok := m["value"].(string); ok && s != "" {
								m["value"] = Redacted
							}
						}
					}
				}
			case "httpHeaders":
				if list, ok := child.([]any); ok {
					for _, e := range list {
						if m, ok := e.(map[string]any); ok {
							if n, _ := m["name"].(string); isSecretName(n) {
								m["value"] = Redacted
							}
						}
					}
				}
			}
			if s, ok := child.(string); ok {
				t[k] = scrub(s)
				continue
			}
			redactTree(child)
		}
	case []any:
		for i, child := range t {
			if s, ok := child.(string); ok {
				t[i] = scrub(s)
				continue
			}
			redactTree(child)
		}
	}
}

// redactObject applies the rules to whichever typed object o holds.
func redactObject(o *cluster.Object) {
	switch {
	case o.Pod != nil:
		redactPod(o.Pod)
	case o.Node != nil:
		redactMeta(&o.Node.ObjectMeta)
	case o.Event != nil:
		redactEvent(o.Event)
	case o.Raw != nil:
		// A claim (a person's sentence may quote a token as readily as a kubectl message), the
		// autoscaler's status pasted as text: redacted like any object kept as JSON.
		if red, _, err := redactRaw(o.Raw); err == nil {
			o.Raw = red
		}
	}
}

// isSecretKind reports whether a kind must never be stored.
func isSecretKind(kind string) bool { return strings.EqualFold(kind, "Secret") }
