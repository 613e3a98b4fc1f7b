// Package redact holds what Rootline refuses to keep: the rules that find credentials in free
// text (text.go), in the maps whose keys say what is secret (annotations, a ConfigMap's data, a
// volume's options), in command lines and headers, and in a generic JSON tree. It knows nothing
// of Kubernetes' types: ingest applies it to the typed objects it admits, alert to an alert's
// annotations, so that every input is redacted by the same rules.
package redact

import (
	"regexp"
	"strings"
)

// Redacted replaces every value Rootline refuses to keep.
const Redacted = "[redacted]"

// lastApplied holds a copy of the whole object as last applied, env values and all.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// IsSecretAnnotation reports whether an annotation's value is redacted whole: its name looks
// secret (IsSecretKey), or it is the last-applied copy of the object.
func IsSecretAnnotation(name string) bool { return name == lastApplied || IsSecretKey(name) }

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

// Keyed redacts a map of text values in place, as a ConfigMap's data, a volume's options or an
// alert's annotations: the value of a credential-named key (api_key, password) whole,
// credentials within the others.
func Keyed(m map[string]string) {
	for k, v := range m {
		if isCredentialName(k) {
			m[k] = Redacted
		} else {
			m[k] = Text(v)
		}
	}
}

// keyedMaps are the maps, by the key that holds them, whose keys are chosen by people and
// whose values are redacted whole when a key names a credential: a ConfigMap's data ("dbpw",
// "db_password", "apiKey"), a volume's options and attributes.
var keyedMaps = map[string]bool{"data": true, "binaryData": true, "stringData": true, "options": true, "volumeAttributes": true}

// Tree applies the rules to a generic JSON tree, in place: every string is scrubbed as
// text, every list of strings as a command line, and the maps whose keys say what is secret
// (annotations, env, httpHeaders, keyedMaps) by their keys.
func Tree(v any) {
	switch t := v.(type) {
	case map[string]any:
		cmd, args := stringList(t["command"]), stringList(t["args"])
		if cmd != nil || args != nil {
			// A container's command and args (or an exec action's command) are one line
			// (Command): the program in the one, its options in the other.
			Command(cmd, args)
			setStrings(t["command"], cmd)
			setStrings(t["args"], args)
		}
		for k, child := range t {
			switch {
			case k == "command" && cmd != nil, k == "args" && args != nil:
				continue // redacted above
			case k == "managedFields":
				delete(t, k)
				continue
			case k == "annotations":
				if redactKeyedTree(child, IsSecretAnnotation) {
					continue
				}
			case keyedMaps[k]:
				if redactKeyedTree(child, isCredentialName) {
					continue
				}
			case k == "env":
				eachItem(child, func(m map[string]any) {
					if s, ok := m["value"].(string); ok && s != "" {
						m["value"] = Redacted
					}
				})
			case k == "httpHeaders":
				eachItem(child, func(m map[string]any) {
					n, _ := m["name"].(string)
					if v, ok := m["value"].(string); ok && IsSecretKey(n) {
						m["value"] = Header(v)
					}
				})
			}
			if s, ok := child.(string); ok {
				t[k] = Text(s)
				continue
			}
			Tree(child)
		}
	case []any:
		for i, child := range t {
			if s, ok := child.(string); ok {
				if prev, ok := at(t, i-1).(string); ok && isCredentialFlag(prev) && !strings.HasPrefix(s, "-") {
					t[i] = Redacted // "--password", "hunter2"
				} else {
					t[i] = Text(s)
				}
				continue
			}
			Tree(child)
		}
	}
}

// eachItem calls f with each map of the list child (env's variables, a probe's headers).
func eachItem(child any, f func(map[string]any)) {
	list, _ := child.([]any)
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			f(m)
		}
	}
}

// stringList is a list of strings of a generic tree as a []string; nil when v is not a list or
// holds anything but strings.
func stringList(v any) []string {
	list, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]string, len(list))
	for i, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil
		}
		out[i] = s
	}
	return out
}

// setStrings writes words back into the list v (of as many strings) that stringList read; v
// nil (no such list) takes none.
func setStrings(v any, words []string) {
	list, _ := v.([]any)
	for i, w := range words {
		list[i] = w
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
				m[name] = Text(s)
			}
		} else {
			Tree(val)
		}
	}
	return true
}
