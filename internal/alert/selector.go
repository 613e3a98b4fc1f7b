package alert

import (
	"fmt"
	"regexp"
	"strings"
)

// Selector picks alerts by their labels: every pair must be among an alert's labels
// ("severity=critical,team=data"). The empty selector picks nothing.
type Selector []Pair

// Pair is a label and the value a Selector asks of it.
type Pair struct{ Name, Value string }

// labelName is a Prometheus label name.
var labelName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

// ParseSelector reads "name=value[,name=value…]" (spaces around each part ignored; a value may
// not hold a comma). "" is the empty selector.
func ParseSelector(s string) (Selector, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out Selector
	for _, part := range strings.Split(s, ",") {
		name, value, ok := strings.Cut(part, "=")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if !ok || !labelName.MatchString(name) || value == "" {
			return nil, fmt.Errorf("alert selector %q: %q is not name=value (a label name, a value)", s, strings.TrimSpace(part))
		}
		out = append(out, Pair{Name: name, Value: value})
	}
	return out, nil
}

// Matches reports whether an alert's labels hold every pair of the selector.
func (sel Selector) Matches(labels map[string]string) bool {
	if len(sel) == 0 {
		return false
	}
	for _, p := range sel {
		if v, ok := labels[p.Name]; !ok || v != p.Value {
			return false
		}
	}
	return true
}

// String writes the selector as ParseSelector reads it.
func (sel Selector) String() string {
	parts := make([]string, len(sel))
	for i, p := range sel {
		parts[i] = p.Name + "=" + p.Value
	}
	return strings.Join(parts, ",")
}
