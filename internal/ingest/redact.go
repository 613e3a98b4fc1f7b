package ingest

import (
	"encoding/json"
	"regexp"
	"strings"

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

// secretNameWords are what every match of secretName holds, in lower case (see credentialWords).
var secretNameWords = [][]byte{[]byte("secret"), []byte("token"), []byte("passw"), []byte("pwd"), []byte("credential"),
	[]byte("key"), []byte("auth"), []byte("bearer"), []byte("cookie"), []byte("session"), []byte("signature"), []byte("cert")}

// isSecretName reports whether secretName matches s, asking the regular expression only when
// s may: annotation names were a tenth of decoding nodes and events.
func isSecretName(s string) bool {
	return mayHold(s, secretNameWords) && secretName.MatchString(s)
}

// mayHold reports whether s, lowered, contains one of the words; non-ASCII text always may.
func mayHold(s string, words [][]byte) bool {
	var buf [256]byte
	lower, ascii := lowerASCII(s, buf[:0])
	return !ascii || hasAny(lower, words)
}

// redactMeta drops managed fields (bulky, and of no use as evidence) and redacts annotations
// whose names look secret, and the last-applied copy of the object.
func redactMeta(m *metav1.ObjectMeta) {
	m.ManagedFields = nil
	for k, v := range m.Annotations {
		if k == lastApplied || isSecretKey(k) {
			m.Annotations[k] = Redacted
			continue
		}
		m.Annotations[k] = scrub(v)
	}
}

func redactPod(p *corev1.Pod) {
	redactMeta(&p.ObjectMeta)
	redactPodSpec(&p.Spec)
	redactPodStatus(&p.Status)
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
	for i := range s.Volumes {
		if v := s.Volumes[i].FlexVolume; v != nil {
			redactKeyed(v.Options)
		}
		if v := s.Volumes[i].CSI; v != nil {
			redactKeyed(v.VolumeAttributes)
		}
	}
}

func redactContainer(c *corev1.Container) {
	for i := range c.Env {
		if c.Env[i].Value != "" {
			c.Env[i].Value = Redacted
		}
	}
	redactArgs(c.Command)
	redactArgs(c.Args)
	for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if p != nil {
			redactExec(p.Exec)
			redactHTTPGet(p.HTTPGet)
		}
	}
	if l := c.Lifecycle; l != nil {
		for _, h := range []*corev1.LifecycleHandler{l.PostStart, l.PreStop} {
			if h != nil {
				redactExec(h.Exec)
				redactHTTPGet(h.HTTPGet)
			}
		}
	}
}

func redactExec(e *corev1.ExecAction) {
	if e != nil {
		redactArgs(e.Command)
	}
}

// redactHTTPGet redacts the values of headers with secret names, credentials in the others,
// and credentials in the path's query ("/health?token=…").
func redactHTTPGet(g *corev1.HTTPGetAction) {
	if g == nil {
		return
	}
	g.Path = scrub(g.Path)
	for i, h := range g.HTTPHeaders {
		if isSecretKey(h.Name) {
			g.HTTPHeaders[i].Value = redactHeader(h.Value)
		} else {
			g.HTTPHeaders[i].Value = scrub(h.Value)
		}
	}
}

// redactKeyed redacts a map of options (a ConfigMap's data, a volume's options): the values
// of credential-named keys whole, credentials in the others.
func redactKeyed(m map[string]string) {
	for k, v := range m {
		if isCredentialName(k) {
			m[k] = Redacted
		} else {
			m[k] = scrub(v)
		}
	}
}

// redactPodStatus redacts the messages of the pod, its conditions and its containers' states:
// a container that failed prints its error, connection strings and all.
func redactPodStatus(s *corev1.PodStatus) {
	s.Message = scrub(s.Message)
	for i := range s.Conditions {
		s.Conditions[i].Message = scrub(s.Conditions[i].Message)
	}
	for _, list := range [][]corev1.ContainerStatus{s.InitContainerStatuses, s.ContainerStatuses, s.EphemeralContainerStatuses} {
		for i := range list {
			redactState(&list[i].State)
			redactState(&list[i].LastTerminationState)
		}
	}
}

func redactState(s *corev1.ContainerState) {
	if s.Waiting != nil {
		s.Waiting.Message = scrub(s.Waiting.Message)
	}
	if s.Terminated != nil {
		s.Terminated.Message = scrub(s.Terminated.Message)
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

// keyedMaps are the maps, by the key that holds them, whose keys are chosen by people and
// whose values are redacted whole when a key names a credential: a ConfigMap's data ("dbpw",
// "db_password", "apiKey"), a volume's options and attributes.
var keyedMaps = map[string]bool{"data": true, "binaryData": true, "stringData": true, "options": true, "volumeAttributes": true}

// redactTree applies the rules to a generic JSON tree, in place: every string is scrubbed as
// text, every list of strings as a command line, and the maps whose keys say what is secret
// (annotations, env, httpHeaders, keyedMaps) by their keys.
func redactTree(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, child := range t {
			switch {
			case k == "managedFields":
				delete(t, k)
				continue
			case k == "annotations":
				if redactKeyedTree(child, func(name string) bool { return name == lastApplied || isSecretKey(name) }) {
					continue
				}
			case keyedMaps[k]:
				if redactKeyedTree(child, isCredentialName) {
					continue
				}
			case k == "env":
				if list, ok := child.([]any); ok {
					for _, e := range list {
						if m, ok := e.(map[string]any); ok {
							if s, ok := m["value"].(string); ok && s != "" {
								m["value"] = Redacted
							}
						}
					}
				}
			case k == "httpHeaders":
				if list, ok := child.([]any); ok {
					for _, e := range list {
						if m, ok := e.(map[string]any); ok {
							n, _ := m["name"].(string)
							if v, ok := m["value"].(string); ok && isSecretKey(n) {
								m["value"] = redactHeader(v)
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
				if prev, ok := at(t, i-1).(string); ok && isCredentialFlag(prev) && !strings.HasPrefix(s, "-") {
					t[i] = Redacted // "--password", "hunter2"
				} else {
					t[i] = scrub(s)
				}
				continue
			}
			redactTree(child)
		}
	}
}

// at is list[i], or nil out of range.
func at(list []any, i int) any {
	if i < 0 || i >= len(list) {
		return nil
	}
	return list[i]
}

// redactKeyedTree redacts a map of strings: whole values whose keys secret reports, and the
// others as text. It reports whether child was such a map.
func redactKeyedTree(child any, secret func(string) bool) bool {
	m, ok := child.(map[string]any)
	if !ok {
		return false
	}
	for name, val := range m {
		if s, ok := val.(string); ok {
			if secret(name) {
				m[name] = Redacted
			} else {
				m[name] = scrub(s)
			}
		} else {
			redactTree(val)
		}
	}
	return true
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
