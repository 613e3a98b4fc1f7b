package text

import (
	"strconv"
	"strings"
	"time"
	"unicode"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rootline-dev/rootline/internal/lazyre"
)

// token is one whitespace-separated field of a line, with where it starts and ends.
type token struct {
	text       string
	start, end int
}

// tokens splits s at runs of spaces.
func tokens(s string) []token {
	var out []token
	i := 0
	for i < len(s) {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i >= len(s) {
			break
		}
		j := i
		for j < len(s) && s[j] != ' ' {
			j++
		}
		out = append(out, token{text: s[i:j], start: i, end: j})
		i = j
	}
	return out
}

// ageRe matches a kubectl age: "3m26s", "20h", "2d14h", "3y45d".
var ageRe = lazyre.New(`^(?:(\d{1,6})y)?(?:(\d{1,6})d)?(?:(\d{1,6})h)?(?:(\d{1,6})m)?(?:(\d{1,6})s)?$`)

// parseAge reads a kubectl age into a duration. "<unknown>" and "<invalid>" are valid ages
// with no value; ok is false for anything that is not an age.
func parseAge(s string) (d time.Duration, known, ok bool) {
	if s == "<unknown>" || s == "<invalid>" {
		return 0, false, true
	}
	m := ageRe.FindStringSubmatch(s)
	if m == nil || s == "" {
		return 0, false, false
	}
	units := []time.Duration{365 * 24 * time.Hour, 24 * time.Hour, time.Hour, time.Minute, time.Second}
	for i, u := range units {
		if m[i+1] != "" {
			n, _ := strconv.Atoi(m[i+1]) // at most six digits: cannot fail or overflow
			d += time.Duration(n) * u
		}
	}
	return d, true, true
}

// seenRe splits an events age column: "4m58s (x23 over 115m)".
var seenRe = lazyre.New(`^(\S+)(?:\s+\(x(\d{1,9})\s+over\s+(\S+)\))?$`)

// seen is a parsed "last seen" column.
type seen struct {
	last, first     time.Duration
	lastOK, firstOK bool
	count           int32
}

// parseSeen reads "4m58s", "4m58s (x23 over 115m)" or "<unknown>"; ok is false otherwise.
func parseSeen(s string) (seen, bool) {
	m := seenRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return seen{}, false
	}
	var v seen
	var ok bool
	if v.last, v.lastOK, ok = parseAge(m[1]); !ok {
		return seen{}, false
	}
	if m[2] != "" {
		n, _ := strconv.Atoi(m[2])
		v.count = int32(n)
		var okFirst bool
		if v.first, v.firstOK, okFirst = parseAge(m[3]); !okFirst {
			return seen{}, false
		}
	}
	return v, true
}

// ago returns now minus d, or nil when now is unset or the age unknown.
func (p *parser) ago(d time.Duration, known bool) *metav1.Time {
	if p.now.IsZero() || !known {
		return nil
	}
	t := metav1.NewTime(p.now.Add(-d).Truncate(time.Second))
	return &t
}

// timeLayouts are the ways kubectl describe prints a time.
var timeLayouts = []string{time.RFC1123Z, time.RFC1123, time.RFC3339, "Mon, 2 Jan 2006 15:04:05 -0700"}

// parseTime reads a describe timestamp ("Fri, 26 Apr 2019 03:55:55 -0300").
func parseTime(s string) (metav1.Time, bool) {
	s = strings.TrimSpace(s)
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return metav1.NewTime(t), true
		}
	}
	return metav1.Time{}, false
}

// kinds maps the resource names kubectl prints in "kind/name" to kinds.
var kinds = map[string]string{
	"pod": "Pod", "node": "Node", "replicaset": "ReplicaSet", "deployment": "Deployment",
	"statefulset": "StatefulSet", "daemonset": "DaemonSet", "job": "Job", "cronjob": "CronJob",
	"service": "Service", "endpoints": "Endpoints", "persistentvolumeclaim": "PersistentVolumeClaim",
	"persistentvolume": "PersistentVolume", "horizontalpodautoscaler": "HorizontalPodAutoscaler",
	"configmap": "ConfigMap", "namespace": "Namespace", "ingress": "Ingress",
	"poddisruptionbudget": "PodDisruptionBudget", "lease": "Lease", "replicationcontroller": "ReplicationController",
}

// kindOf turns "pod", "replicaset.apps" or "Pod" into a kind.
func kindOf(resource string) string {
	res, _, _ := strings.Cut(resource, ".")
	if k, ok := kinds[strings.ToLower(res)]; ok {
		return k
	}
	if res == "" {
		return ""
	}
	r := []rune(res)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// isNone reports kubectl's ways of printing nothing.
func isNone(s string) bool {
	switch strings.TrimSpace(s) {
	case "", "<none>", "<unset>", "<nil>", "none":
		return true
	}
	return false
}
