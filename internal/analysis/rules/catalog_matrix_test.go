package rules

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/catalog"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/ingest"
)

// wrapper puts a message where people find it: a row, a describe section, a log line, a JSON
// event, a ticket. obj is the object the wrapper names; "" when it names none.
type wrapper struct {
	name string
	// names reports whether the wrapper names the message's object.
	names bool
	wrap  func(e *catalog.Entry, msg string, o matrixObject) string
}

// matrixObject is the object a wrapper names, by the kind of the entry's object.
type matrixObject struct {
	kind, namespace, name string
}

func (o matrixObject) ref() string {
	return strings.ToLower(o.kind) + "/" + o.name
}

func objectFor(e *catalog.Entry) matrixObject {
	switch e.Object {
	case "node":
		return matrixObject{"Node", "", "node-7"}
	case "deployment":
		return matrixObject{"Deployment", "shop", "web"}
	case "replicaset", "workload":
		return matrixObject{"ReplicaSet", "shop", "web-7d9f8c6b5"}
	case "job":
		return matrixObject{"Job", "shop", "backup-28391"}
	case "cronjob":
		return matrixObject{"CronJob", "shop", "backup"}
	case "statefulset":
		return matrixObject{"StatefulSet", "shop", "db"}
	case "daemonset":
		return matrixObject{"DaemonSet", "shop", "agent"}
	case "pvc":
		return matrixObject{"PersistentVolumeClaim", "shop", "data-db-0"}
	case "cluster", "nodegroup", "nodeclaim":
		// The autoscaler's status and logs are about the cluster: the wrapper names its
		// ConfigMap, which no symptom names.
		return matrixObject{"ConfigMap", "kube-system", "cluster-autoscaler-status"}
	}
	return matrixObject{"Pod", "shop", "web-7d9f8c6b5-x2x4q"}
}

// wrappers are the places of issue 26's point 2, generated here rather than copied.
var wrappers = []wrapper{
	{"events table row", true, func(e *catalog.Entry, msg string, o matrixObject) string {
		return "NAMESPACE   LAST SEEN   TYPE      REASON   OBJECT   MESSAGE\n" +
			fmt.Sprintf("%s   2m   Warning   %s   %s   %s\n", orDefault(o.namespace, "default"), e.Reason, o.ref(), msg)
	}},
	{"describe Events row", true, func(e *catalog.Entry, msg string, o matrixObject) string {
		head := fmt.Sprintf("Name:         %s\nNamespace:    %s\n", o.name, o.namespace)
		if o.kind == "Node" {
			head = fmt.Sprintf("Name:               %s\nRoles:              <none>\n", o.name)
		}
		return head + "Events:\n  Type     Reason     Age   From     Message\n  ----     ------     ----  ----     -------\n" +
			fmt.Sprintf("  Warning  %s  2m    %s  %s\n", e.Reason, e.Component, msg)
	}},
	{"klog line with keys", true, func(e *catalog.Entry, msg string, o matrixObject) string {
		key := fmt.Sprintf(`pod="%s/%s"`, o.namespace, o.name)
		if o.kind == "Node" {
			key = fmt.Sprintf(`node="%s"`, o.name)
		} else if o.kind != "Pod" {
			key = fmt.Sprintf(`object="%s/%s" kind=%q`, o.namespace, o.name, o.kind)
		}
		return fmt.Sprintf("E1202 10:04:05.123456    2511 manager.go:123] %s %s\n", msg, key)
	}},
	{"journald line", false, func(e *catalog.Entry, msg string, o matrixObject) string {
		return fmt.Sprintf("Dec 02 10:04:05 node-7 %s[2511]: E1202 10:04:05.123456    2511 manager.go:123] %s\n", e.Component, msg)
	}},
	{"controller Event line", true, func(e *catalog.Entry, msg string, o matrixObject) string {
		return fmt.Sprintf(`I1202 10:04:05.123456       1 event.go:209] Event(v1.ObjectReference{Kind:"%s", Namespace:"%s", Name:"%s", UID:"5c87", APIVersion:"v1", ResourceVersion:"99786677", FieldPath:""}): type: 'Warning' reason: '%s' %s`+"\n",
			o.kind, o.namespace, o.name, e.Reason, msg)
	}},
	{"JSON event", true, func(e *catalog.Entry, msg string, o matrixObject) string {
		m, _ := json.Marshal(msg)
		return fmt.Sprintf(`{"kind":"Event","apiVersion":"v1","metadata":{"name":"x.17a","namespace":"%s"},"involvedObject":{"kind":"%s","namespace":"%s","name":"%s"},"reason":"%s","message":%s,"type":"Warning","lastTimestamp":"2026-12-02T10:04:05Z"}`+"\n",
			orDefault(o.namespace, "default"), o.kind, o.namespace, o.name, e.Reason, m)
	}},
	{"a quote in a ticket", false, func(e *catalog.Entry, msg string, o matrixObject) string {
		return "Since this morning our service is down and we do not know why. The events say:\n\n> " + msg + "\n\nAny idea what to look at?\n"
	}},
	{"inline backticks", false, func(e *catalog.Entry, msg string, o matrixObject) string {
		return "After the upgrade we keep getting `" + msg + "` on the cluster.\n"
	}},
	{"blockquote", false, func(e *catalog.Entry, msg string, o matrixObject) string {
		return "> " + msg + "\n"
	}},
	{"bullet", false, func(e *catalog.Entry, msg string, o matrixObject) string {
		return "- " + msg + "\n"
	}},
	{"Reason: message", false, func(e *catalog.Entry, msg string, o matrixObject) string {
		return e.Reason + ": " + msg + "\n"
	}},
	{"hard-wrapped", false, func(e *catalog.Entry, msg string, o matrixObject) string {
		return wrapAt(msg, 64)
	}},
}

// eventWrappers are the wrappers that put the message in an event, under the entry's reason.
var eventWrappers = map[string]bool{"events table row": true, "describe Events row": true, "controller Event line": true,
	"JSON event": true, "Reason: message": true}

// lenientModel is model for text that may hold nothing Rootline reads: such a text is an
// empty model here, as `rootline analyze` reads it (a gap, not an error).
func lenientModel(t *testing.T, text string) *cluster.Model {
	t.Helper()
	var objs []*cluster.Object
	err := ingest.NewDecoder(ingest.Options{}).Decode(context.Background(), "f0.txt", strings.NewReader(text), func(o *cluster.Object) error {
		objs = append(objs, o)
		return nil
	})
	if ie := (*ingest.Error)(nil); err != nil && !(errors.As(err, &ie) && ie.Prose) {
		t.Fatal(err)
	}
	return cluster.NewModel([]string{"f0.txt"}, objs)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// wrapAt breaks msg at a space near width, as a mail or a ticket wraps text: the last space
// before it, or the first after it when that would leave the first line short; a short
// message stays on its line.
func wrapAt(msg string, width int) string {
	if len(msg) <= width+8 {
		return msg + "\n"
	}
	i := strings.LastIndexByte(msg[:width], ' ')
	if i < width*3/4 {
		if j := strings.IndexByte(msg[width:], ' '); j >= 0 {
			i = width + j
		}
	}
	if i <= 0 || i >= len(msg)-1 {
		return msg + "\n"
	}
	return msg[:i] + "\n" + msg[i+1:] + "\n"
}

// TestCatalogueMatrix: every message of the catalogue that is a sign of a symptom, wrapped in
// every wrapper, gives its symptom; where the message or its wrapper names the object, the
// symptom names it. Messages are the entries' examples, which their templates are held to.
func TestCatalogueMatrix(t *testing.T) {
	c := catalog.Default()
	failures := 0
	for _, e := range c.Entries {
		if e.Symptom == "" || e.Part || e.Word {
			continue
		}
		msg := strings.TrimSpace(e.Example)
		own := exampleObject(e)
		for _, w := range wrappers {
			if e.Reason == "" && eventWrappers[w.name] {
				continue // a message with no reason is no event's: a log's only
			}
			o := objectFor(e)
			if own != "" {
				o.name = own // the wrapper names the object the message names, as real output does
			}
			text := w.wrap(e, msg, o)
			want := own
			if want == "" && w.names && o.kind != "ConfigMap" {
				want = o.name
			}
			if !checkSign(t, e, w.name, text, want) {
				failures++
			}
			if failures > 2000 {
				t.Fatal("too many failures")
			}
		}
	}
}

// checkSign analyses text and reports whether it gives the entry's symptom, naming want when
// want is not "", saying what it got otherwise.
func checkSign(t *testing.T, e *catalog.Entry, place, text, want string) bool {
	t.Helper()
	rep := Run(lenientModel(t, text), analysis.Options{})
	var got []analysis.Symptom
	for _, s := range rep.Symptoms {
		if s.Kind == e.Symptom {
			got = append(got, s)
		}
	}
	switch {
	case len(got) == 0:
		t.Errorf("%s (%s) in a %s: no %s; got %s\n%s", e.ID, e.Template, place, e.Symptom, symptomKinds(rep), text)
		return false
	case want != "" && !matrixNames(got, want):
		t.Errorf("%s (%s) in a %s: %s names %v, want %s\n%s", e.ID, e.Template, place, e.Symptom, got[0].Objects, want, text)
		return false
	}
	return true
}

// exampleObject is the object an entry's own example names, for entries whose captures name
// it; "" when it names none.
func exampleObject(e *catalog.Entry) string {
	m, ok := e.Match(e.Example)
	if !ok {
		return ""
	}
	switch e.Object {
	case "pod", "container":
		if _, name := m.Pod(); name != "" {
			return name
		}
	case "node":
		return m.Node()
	default:
		return m.Capture("name")
	}
	return ""
}

func matrixNames(ss []analysis.Symptom, name string) bool {
	for _, s := range ss {
		if s.Node == name {
			return true
		}
		for _, o := range s.Objects {
			if o.Name == name {
				return true
			}
		}
		if matrixNames(s.Members, name) {
			return true
		}
	}
	return false
}

func symptomKinds(rep analysis.Report) []string {
	var out []string
	for _, s := range rep.Symptoms {
		out = append(out, s.Kind)
	}
	return out
}
