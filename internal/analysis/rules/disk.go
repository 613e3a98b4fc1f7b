package rules

import (
	"fmt"
	"slices"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/signal"
)

// nodeDiskRule finds nodes that ran out of disk: evictions for ephemeral-storage, inodes or
// the nodefs and imagefs of older kubelets, or for the DiskPressure condition; nodes under disk
// pressure; and pods the scheduler kept off a node because of its disk-pressure taint.
type nodeDiskRule struct{}

func (nodeDiskRule) Name() string { return "node-disk-exhaustion" }

// Confidence of each kind of evidence: an eviction message names the resource outright; the
// pressure condition says the kubelet saw it; a taint only that the node had it when the
// scheduler looked.
const (
	diskEvictionConfidence = 0.75
	diskPressureConfidence = 0.7
	diskTaintConfidence    = 0.6
)

func (nodeDiskRule) Causes(_ analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	c := analysis.Cause{Kind: analysis.NodeDiskExhaustion, Role: analysis.Root, Components: []analysis.Component{}}
	var evicted, pending, pressured []string
	for _, s := range symptoms {
		res, cond := s.Details.Resource, s.Details.Condition
		switch {
		case s.Kind == analysis.PodEvicted && signal.DiskEviction(res, cond):
			c.Confidence = max(c.Confidence, diskEvictionConfidence)
			evicted = append(evicted, s.Label())
		case s.Kind == analysis.NodePressure && slices.Contains(s.Details.Resources, "disk") && onlyScheduler(s):
			// Only the scheduler's count of nodes with the pressure taint: a taint's weight, and
			// said by the pending pods' part of the summary.
			c.Confidence = max(c.Confidence, diskTaintConfidence)
		case s.Kind == analysis.NodePressure && slices.Contains(s.Details.Resources, "disk"):
			c.Confidence = max(c.Confidence, diskPressureConfidence)
			pressured = append(pressured, s.Label())
		case s.Kind == analysis.PodPending && diskTainted(s) > 0:
			c.Confidence = max(c.Confidence, diskTaintConfidence)
			pending = append(pending, fmt.Sprintf("%s (%d node(s) with the disk-pressure taint)", s.Label(), diskTainted(s)))
		default:
			continue
		}
		c.Explains = append(c.Explains, s.ID)
		c.Evidence = append(c.Evidence, s.Evidence[0])
	}
	if len(c.Explains) == 0 {
		return nil
	}
	var parts []string
	if len(evicted) > 0 {
		parts = append(parts, fmt.Sprintf("%d pod(s) were evicted for disk: %s", len(evicted), phrase.First(evicted, 5)))
	}
	if len(pressured) > 0 {
		parts = append(parts, "under disk pressure: "+phrase.First(pressured, 5))
	}
	if len(pending) > 0 {
		parts = append(parts, "kept off nodes under disk pressure: "+phrase.First(pending, 5))
	}
	c.Summary = "nodes ran out of disk: " + phrase.Parts(parts, "; ")
	if len(evicted) == 0 && len(pressured) == 0 {
		c.Missing = []string{"the node's DiskPressure condition and what filled its disk (kubectl describe node; the kubelet's eviction log)"}
	}
	return []analysis.Cause{c}
}

// onlyScheduler reports whether a symptom's every piece of evidence is the scheduler's
// diagnosis (a node_pressure the scheduler's reasons counted, which names no node).
func onlyScheduler(s analysis.Symptom) bool {
	for _, ev := range s.Evidence {
		if _, ok := signal.ParseFailedScheduling(ev.Value); !ok {
			return false
		}
	}
	return len(s.Evidence) > 0
}

// diskTainted is how many nodes the scheduler left out for their disk-pressure taint.
func diskTainted(s analysis.Symptom) int {
	sch, _, ok := s.Scheduling()
	if !ok {
		return 0
	}
	n := 0
	for _, r := range sch.Reasons {
		if t, ok := r.Taint(); ok && t.Key == "node.kubernetes.io/disk-pressure" {
			n += r.Count
		}
	}
	return n
}
