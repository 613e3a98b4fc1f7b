package rules

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// postmortems is a document listing three incidents, one of them with the output it quotes:
// what it says is listed as claims, never used.
const postmortems = "# Postmortems, Q1\n\n## 2025-01-14 Hub down\n\nRoot cause: the disk of the hub node filled up.\n\n" +
	"## 2025-02-05 Reports not running\n\nRoot cause: the image tag had a typo, so the image could not be pulled.\n\n" +
	"```\n$ kubectl get pods -n prod\nNAME       READY   STATUS             RESTARTS   AGE\nreport-1   0/1     InvalidImageName   0          4m\nhub-1      0/1     Evicted            0          10h\n```\n\n" +
	"## 2025-03-02 Pending pods\n\nRoot cause: the cluster was full.\n"

// TestClaims: what authors write about the cause. A claim gives a symptom nothing else
// explains the cause it names, at ClaimConfidence, when the symptom's own evidence allows it;
// it supports a cause the evidence found; it never overrides the scheduler's reasons or an
// eviction's resource. A document listing several incidents gives no cause, and causes drawn
// from its output are given ClaimConfidence at most.
func TestClaims(t *testing.T) {
	const diskClaim = "Hub outage of 5 February, what went wrong.\n\nThe EBS volume of the hub node was only 10Gb: it filled up and caused the evictions.\n"
	evictedHub := "$ kubectl get pods -n prod\nNAME    READY   STATUS    RESTARTS   AGE\nhub-1   0/1     Evicted   0          10h\n"
	tests := []struct {
		causeCase
		kind       string
		notMissing string   // a missing item the cause must not have
		claimed    []string // the cause kinds the input's claims name, sorted
	}{
		{causeCase: causeCase{name: "a claim gives the cause nothing else found", docs: []string{diskClaim, evictedHub},
			symptoms: []string{"evicted_pods_lingering prod/hub-1", "pod_evicted prod/hub-1"}, kinds: []string{analysis.NodeDiskExhaustion},
			want: causeWant{role: analysis.Root, confidence: analysis.ClaimConfidence, explains: []string{"pod_evicted prod/hub-1"},
				summary:  []string{"the author says so, and the 1 symptom(s) it would explain show nothing against it: “The EBS volume of the hub node was only 10Gb"},
				evidence: []string{"Evicted", "The EBS volume of the hub node was only 10Gb: it filled up and caused the evictions."},
				missing:  []string{"the eviction messages or the node's DiskPressure condition"}}},
			kind: analysis.NodeDiskExhaustion, claimed: []string{analysis.NodeDiskExhaustion}},
		{causeCase: causeCase{name: "a claim the eviction's resource contradicts", docs: []string{diskClaim, evictedWeb},
			symptoms: []string{"evicted_pods_lingering prod/web-7d9c6b5f4-q8r2t", "pod_evicted prod/web-7d9c6b5f4-q8r2t"}, kinds: []string{}},
			kind: analysis.NodeDiskExhaustion, claimed: []string{analysis.NodeDiskExhaustion}},
		{causeCase: causeCase{name: "a claim supports the cause the evidence found",
			docs: []string{"Reports stopped running after the 10:00 deploy.\nRoot cause: the image tag had a typo, so the image could not be pulled.\n",
				"$ kubectl get pods -n prod\nNAME       READY   STATUS             RESTARTS   AGE\nreport-1   0/1     InvalidImageName   0          4m\n"},
			symptoms: []string{"image_pull_failed prod/report-1"}, kinds: []string{analysis.ImageUnavailable},
			want: causeWant{role: analysis.Root, confidence: 0.85, explains: []string{"image_pull_failed prod/report-1"},
				summary: []string{"pod prod/report-1"}, evidence: []string{"InvalidImageName", "the image tag had a typo"}}},
			kind: analysis.ImageUnavailable, claimed: []string{analysis.ImageUnavailable}},
		{causeCase: causeCase{name: "the scheduler's reasons decide over a claim",
			docs: []string{"Reports did not run all morning.\nRoot cause: the cluster was full, not enough nodes.\n",
				pendingPod("report-0", "0/5 nodes are available: 5 node(s) didn't match Pod's node affinity/selector.")},
			symptoms: []string{"pod_pending prod/report-0"}, kinds: []string{analysis.SchedulingConstraints}},
			kind: analysis.CapacityExhaustion, claimed: []string{analysis.CapacityExhaustion}},
		{causeCase: causeCase{name: "a claim for pending pods the scheduler's words are missing for",
			docs: []string{"Reports did not run all morning.\nRoot cause: we ran out of capacity, there were not enough nodes.\n",
				"$ kubectl get pods -n prod\nNAME       READY   STATUS    RESTARTS   AGE\nreport-1   0/1     Pending   0          40m\n"},
			symptoms: []string{"pod_pending prod/report-1"}, kinds: []string{analysis.CapacityExhaustion},
			want: causeWant{role: analysis.Root, confidence: analysis.ClaimConfidence, explains: []string{"pod_pending prod/report-1"},
				evidence: []string{"we ran out of capacity"}, missing: []string{"the scheduler's FailedScheduling events"}}},
			kind: analysis.CapacityExhaustion, claimed: []string{analysis.CapacityExhaustion}},
		{causeCase: causeCase{name: "a document of several incidents: a cause of its output above ClaimConfidence is lowered to it",
			docs:     []string{postmortems},
			symptoms: []string{"evicted_pods_lingering prod/hub-1", "image_pull_failed prod/report-1", "pod_evicted prod/hub-1"}, kinds: []string{analysis.ImageUnavailable},
			want: causeWant{role: analysis.Root, confidence: analysis.ClaimConfidence, explains: []string{"image_pull_failed prod/report-1"},
				missing: []string{"evidence from one incident: f0.txt mixes several"}}},
			kind: analysis.ImageUnavailable, claimed: []string{analysis.CapacityExhaustion, analysis.ImageUnavailable, analysis.NodeDiskExhaustion}},
		{causeCase: causeCase{name: "a document of several incidents: a claimed cause at ClaimConfidence keeps it",
			docs:     []string{postmortems, diskClaim},
			symptoms: []string{"evicted_pods_lingering prod/hub-1", "image_pull_failed prod/report-1", "pod_evicted prod/hub-1"}, kinds: []string{analysis.ImageUnavailable, analysis.NodeDiskExhaustion},
			want: causeWant{role: analysis.Root, confidence: analysis.ClaimConfidence, explains: []string{"pod_evicted prod/hub-1"},
				evidence: []string{"The EBS volume of the hub node"}, missing: []string{"the eviction messages or the node's DiskPressure condition"}}},
			kind: analysis.NodeDiskExhaustion, notMissing: "mixes several", claimed: []string{analysis.CapacityExhaustion, analysis.ImageUnavailable, analysis.NodeDiskExhaustion}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := Run(model(t, tt.docs...), analysis.Options{})
			if diff := cmp.Diff(tt.symptoms, sortedLabels(rep.Symptoms)); diff != "" {
				t.Errorf("symptoms (-want +got):\n%s", diff)
			}
			checkCause(t, rep, tt.kind, tt.kinds, tt.want)
			if c, ok := causeOf(rep, tt.kind); ok && tt.notMissing != "" && containsSome(c.Missing, tt.notMissing) {
				t.Errorf("missing %q says %q", c.Missing, tt.notMissing)
			}
			claimed := []string{}
			for _, c := range rep.Claims {
				for _, k := range c.Causes {
					if !slices.Contains(claimed, k) {
						claimed = append(claimed, k)
					}
				}
			}
			slices.Sort(claimed)
			if diff := cmp.Diff(tt.claimed, claimed); diff != "" {
				t.Errorf("claimed cause kinds (-want +got):\n%s", diff)
			}
			mixed := slices.ContainsFunc(rep.Gaps, func(g analysis.Gap) bool { return g.Kind == "mixed_incidents" })
			if want := strings.Contains(strings.Join(tt.docs, ""), "# Postmortems"); mixed != want {
				t.Errorf("mixed_incidents gap: %v, want %v", mixed, want)
			}
		})
	}
}

// fixedCause is a cause rule that explains the first symptom at a set confidence, citing its
// evidence: a cause of any confidence for the claims' arithmetic.
type fixedCause struct{ confidence float64 }

func (fixedCause) Name() string { return "fixed" }

func (r fixedCause) Causes(_ analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	if len(symptoms) == 0 {
		return nil
	}
	s := symptoms[0]
	return []analysis.Cause{{Kind: analysis.Preemption, Role: analysis.Root, Confidence: r.confidence, Explains: []string{s.ID}, Evidence: s.Evidence[:1], Components: []analysis.Component{}}}
}

// TestClaimConfidenceCap pins ClaimConfidence as the cap of causes drawn from a document that
// lists several incidents: a cause above it is lowered to it and says why; one at it or below
// keeps its confidence and says nothing of it.
func TestClaimConfidenceCap(t *testing.T) {
	tests := []struct {
		confidence, want float64
		capped           bool
	}{
		{0.34, 0.34, false},
		{analysis.ClaimConfidence, analysis.ClaimConfidence, false},
		{0.36, analysis.ClaimConfidence, true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("confidence %.2f", tt.confidence), func(t *testing.T) {
			r := &analysis.Registry{Symptoms: Default().Symptoms, Causes: []analysis.CauseRule{fixedCause{tt.confidence}}}
			rep := r.Run(model(t, postmortems), analysis.Options{})
			if len(rep.Causes) != 1 {
				t.Fatalf("causes = %+v, want the fixed one", rep.Causes)
			}
			c := rep.Causes[0]
			if math.Abs(c.Confidence-tt.want) > 1e-9 {
				t.Errorf("confidence = %v, want %v", c.Confidence, tt.want)
			}
			if got := containsSome(c.Missing, "mixes several"); got != tt.capped {
				t.Errorf("missing = %q, want capped %v", c.Missing, tt.capped)
			}
		})
	}
}

// TestReportedSymptomsAreTestimony: a postmortem whose sentences report symptoms gives claims
// naming them, no symptom, and a gap saying no output shows them.
func TestReportedSymptomsAreTestimony(t *testing.T) {
	doc := "# Outage 2024-03-13\n\nIn the morning the hub pods were OOMKilled and started crashlooping.\nWe restored service by raising the limit.\n"
	rep := Run(model(t, doc), analysis.Options{})
	if len(rep.Symptoms) != 0 {
		t.Fatalf("symptoms %q: a person's sentence is never one", symptomLabels(rep.Symptoms))
	}
	var reported []string
	for _, c := range rep.Claims {
		reported = append(reported, c.Symptoms...)
	}
	slices.Sort(reported)
	if want := []string{analysis.CrashLoopBackOff, analysis.OOMKilled}; !slices.Equal(reported, want) {
		t.Errorf("claims report %q, want %q", reported, want)
	}
	if len(rep.Gaps) != 1 || rep.Gaps[0].Kind != analysis.GapNoSymptoms || !strings.Contains(rep.Gaps[0].Summary, "what the input's authors report") {
		t.Errorf("gaps %+v, want one no_symptoms gap saying no output shows what the authors report", rep.Gaps)
	}
}
