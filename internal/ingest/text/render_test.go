package text

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// testNow is the reference time of every test parse.
var testNow = time.Date(2024, 1, 4, 18, 0, 0, 0, time.UTC)

// parseAll parses data and returns what it emitted.
func parseAll(t testing.TB, name string, data []byte) ([]*cluster.Object, Result) {
	t.Helper()
	var objs []*cluster.Object
	res, err := Parse(context.Background(), name, bytes.NewReader(data), testNow, func(o *cluster.Object) error {
		objs = append(objs, o)
		return nil
	})
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	if res.Objects != len(objs) {
		t.Errorf("Result.Objects = %d, emitted %d", res.Objects, len(objs))
	}
	return objs, res
}

// render writes emitted objects in a stable, readable form for golden files.
func render(t testing.TB, objs []*cluster.Object, res Result) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "objects=%d truncated=%v\n", res.Objects, res.Truncated)
	for _, o := range objs {
		raw, err := o.JSON()
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		pretty, err := json.MarshalIndent(prune(v), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		loose := ""
		if o.Source.Loose {
			loose = " loose"
		}
		fmt.Fprintf(&b, "== %s at %s (byte %d)%s\n%s\n", o.Ref(), o.Source, o.Source.Offset, loose, pretty)
		for _, a := range o.Allocated() {
			fmt.Fprintf(&b, "allocated %s: requests %q, limits %q\n", a.Resource, a.Requests, a.Limits)
		}
	}
	return b.String()
}

// prune drops the empty values that typed marshalling leaves ("metadata.creationTimestamp":
// null, "resources": {}), so that golden files show only what the parse found.
func prune(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			e = prune(e)
			if isEmpty(e) {
				delete(x, k)
				continue
			}
			x[k] = e
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = prune(e)
		}
		return x
	}
	return v
}

func isEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// summary is a one-line digest of an object for table tests: where it starts, what it is,
// and the facts each parser is responsible for.
func summary(o *cluster.Object) string {
	s := fmt.Sprintf("%d %s", o.Source.Line, o.Ref())
	switch {
	case o.Event != nil:
		e := o.Event
		io := e.InvolvedObject
		s += fmt.Sprintf(" %s %s on %s %s/%s", e.Type, e.Reason, io.Kind, io.Namespace, io.Name)
		if e.Count > 0 {
			s += fmt.Sprintf(" x%d", e.Count)
		}
		if o.Source.Loose {
			s += " loose"
		}
		s += fmt.Sprintf(" %q", e.Message)
	case o.Pod != nil:
		p := o.Pod
		s += fmt.Sprintf(" phase=%s", p.Status.Phase)
		if p.Status.Reason != "" {
			s += " reason=" + p.Status.Reason
		}
		if p.Status.Message != "" && p.Status.Phase == "Failed" && len(p.Status.ContainerStatuses) == 0 {
			s += fmt.Sprintf(" message=%q", p.Status.Message)
		}
		if p.Spec.NodeName != "" {
			s += " node=" + p.Spec.NodeName
		}
		for _, c := range p.Status.Conditions {
			s += fmt.Sprintf(" %s=%s", c.Type, c.Status)
		}
		for _, c := range p.Status.InitContainerStatuses {
			s += " init" + containerSummary(c)
		}
		for _, c := range p.Status.ContainerStatuses {
			s += " " + containerSummary(c)
		}
		for _, c := range p.Spec.Containers {
			if r := c.Resources; len(r.Requests)+len(r.Limits) > 0 {
				s += fmt.Sprintf(" req=%s/%s lim=%s/%s", r.Requests.Cpu(), r.Requests.Memory(), r.Limits.Cpu(), r.Limits.Memory())
			}
		}
	case o.Kind == cluster.KindClaim:
		var c cluster.Claim
		if err := json.Unmarshal(o.Raw, &c); err != nil {
			return s + " bad claim: " + err.Error()
		}
		s += fmt.Sprintf(" %q", c.Text)
		if c.Reason != "" {
			s += fmt.Sprintf(" quotes %s %q", c.Reason, c.Quote)
		}
		if c.Incidents > 0 {
			s += fmt.Sprintf(" incidents=%d", c.Incidents)
		}
	case o.Node != nil:
		n := o.Node
		for _, c := range n.Status.Conditions {
			s += fmt.Sprintf(" %s=%s", c.Type, c.Status)
		}
		for _, t := range n.Spec.Taints {
			s += " taint=" + t.ToString()
		}
		if q, ok := n.Status.Allocatable["memory"]; ok {
			s += " alloc-mem=" + q.String()
		}
		for _, a := range o.Allocated() {
			if a.Resource == "cpu" && a.Requests != "" {
				s += fmt.Sprintf(" cpu-requests=%q", a.Requests)
			}
		}
	}
	return s
}

// containerSummary digests a container status: ready, state and reason, restarts.
func containerSummary(c cluster.ContainerStatus) string {
	s := "["
	if c.Name != "" {
		s += c.Name + " "
	}
	s += fmt.Sprintf("ready=%v", c.Ready)
	switch st := c.State; {
	case st.Waiting != nil:
		s += " waiting:" + st.Waiting.Reason
	case st.Terminated != nil:
		s += fmt.Sprintf(" terminated:%s:%d", st.Terminated.Reason, st.Terminated.ExitCode)
	case st.Running != nil:
		s += " running"
	}
	if t := c.LastTerminationState.Terminated; t != nil && t.Reason != "" {
		s += fmt.Sprintf(" last:%s:%d", t.Reason, t.ExitCode)
	}
	return s + fmt.Sprintf(" restarts=%d]", c.RestartCount)
}

// byLine orders object digests by the line they start on (their first field): pods and
// nodes are emitted at the end of a parse, events as they are read.
func byLine(digests []string) []string {
	out := slices.Clone(digests)
	sort.SliceStable(out, func(i, j int) bool {
		a, _, _ := strings.Cut(out[i], " ")
		b, _, _ := strings.Cut(out[j], " ")
		x, _ := strconv.Atoi(a)
		y, _ := strconv.Atoi(b)
		return x < y
	})
	return out
}
