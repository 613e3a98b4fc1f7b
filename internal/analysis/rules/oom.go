package rules

import (
	"fmt"
	"regexp"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// oomRule finds containers killed for memory: a terminated state (current or last) with
// reason OOMKilled, as the container runtime records it (there is no pod event for it by
// default, kubernetes#69676). The kernel's OOM killer on a node (SystemOOM) is node_oom.
type oomRule struct{}

func (oomRule) Name() string { return "oom-killed" }

func (oomRule) Symptoms(in analysis.Input) []analysis.Symptom {
	var out []analysis.Symptom
	for _, o := range in.Model.Pods {
		p := o.Pod
		s := analysis.Symptom{Kind: analysis.OOMKilled, Objects: []analysis.ObjectRef{ref(o)}, Node: p.Spec.NodeName, Pod: o}
		var names []string
		for _, cs := range append(append([]cluster.ContainerStatus{}, p.Status.InitContainerStatuses...), p.Status.ContainerStatuses...) {
			for _, t := range []struct {
				field string
				st    *corev1.ContainerStateTerminated
			}{{"state", cs.State.Terminated}, {"lastState", cs.LastTerminationState.Terminated}} {
				field, st := t.field, t.st
				if st == nil || st.Reason != "OOMKilled" {
					continue
				}
				s.Evidence = append(s.Evidence, cite(o, fmt.Sprintf("status.containerStatuses[%s].%s.terminated", cs.Name, field),
					fmt.Sprintf("OOMKilled, exit code %d", st.ExitCode)))
				s.At = earliest(s.At, timePtr(st.FinishedAt.Time))
				names = append(names, cs.Name)
			}
		}
		if len(s.Evidence) == 0 {
			continue
		}
		s.Details.Containers = names
		s.Summary = fmt.Sprintf("container %s of %s was OOM-killed", strings.Join(names, ", "), podPhrase(p.Namespace+"/"+p.Name))
		if len(names) == 1 && names[0] == "" {
			s.Summary = fmt.Sprintf("a container of %s was OOM-killed", podPhrase(p.Namespace+"/"+p.Name))
		}
		if p.Name == "" {
			s.Objects = []analysis.ObjectRef{}
		}
		out = append(out, s)
	}
	kills := map[string]int{} // a kernel kill's node and pid: its symptom's index in out
	for _, o := range in.Model.Events {
		e := o.Event
		if e.Reason != "OOMKilled" && eventSign(in, o, analysis.OOMKilled) != nil {
			s := cgroupOOM(o)
			key := ""
			if m := killedPIDRe.FindStringSubmatch(e.Message); m != nil {
				key = s.Node + "\x00" + m[1] + m[2]
			}
			if i, ok := kills[key]; ok && key != "" {
				out[i].Evidence = append(out[i].Evidence, s.Evidence...) // the kernel's lines of one kill
				continue
			}
			kills[key] = len(out)
			out = append(out, s)
			continue
		}
		if e.Reason == "OOMKilled" && aboutPod(o) { // a phrase in pasted output
			ns, name := podKey(o)
			objs, pod := []analysis.ObjectRef{}, ""
			if name != "" {
				objs, pod = []analysis.ObjectRef{{Kind: cluster.KindPod, Namespace: ns, Name: name}}, ns+"/"+name
			}
			out = append(out, analysis.Symptom{Kind: analysis.OOMKilled, Objects: objs,
				At: timePtr(cluster.EventTime(o)), Summary: fmt.Sprintf("a container of %s was OOM-killed", podPhrase(pod)),
				Evidence: []analysis.Evidence{citeEvent(o)}})
		}
	}
	return out
}

// killedPIDRe finds the process a kernel OOM line names: "pid=31542" of the summary line,
// "Killed process 31542" (or "Kill process") of the kill.
var killedPIDRe = regexp.MustCompile(`\bpid=(\d+)|\bKill(?:ed)? process (\d+)`)

// cgroupOOM is the kernel's kill of a process at a memory cgroup's limit, as the kernel log
// or node-problem-detector's OOMKilling event says it ("Memory cgroup out of memory: Killed
// process 31542 (java)"): a container's limit most often, the kubelet's OOMKilled of the same
// kill. The message names the process, not its pod: the symptom names the pod only where the
// event is about one, else the node the kill was on.
func cgroupOOM(o *cluster.Object) analysis.Symptom {
	e := o.Event
	s := analysis.Symptom{Kind: analysis.OOMKilled, Objects: []analysis.ObjectRef{}, At: timePtr(cluster.EventTime(o)), Evidence: []analysis.Evidence{citeEvent(o)}}
	where := analysis.UnnamedNode
	switch ns, name := podKey(o); {
	case aboutPod(o) && name != "":
		s.Objects, where = []analysis.ObjectRef{{Kind: cluster.KindPod, Namespace: ns, Name: name}}, podPhrase(ns+"/"+name)
	case e.InvolvedObject.Kind == cluster.KindNode && name != "":
		s.Node, where = name, "node "+name
	case e.Source.Host != "":
		s.Node, where = e.Source.Host, "node "+e.Source.Host
	}
	s.Summary = fmt.Sprintf("a process was killed at a memory cgroup's limit (%s): %s", where, phrase.Clip(firstLine(e.Message), 160))
	return s
}
