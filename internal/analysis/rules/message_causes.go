package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
)

// tagRule is a cause that a symptom's own messages state: the catalogue files the parts of a
// message under evidence tags (ip_exhausted inside a sandbox failure, quota_exceeded inside a
// FailedCreate), and a symptom whose evidence holds one of the rule's tags has that cause.
// The message is the component's own account, so the confidence is high; it names no more
// than the message does. Each instance is one rule of the registry.
type tagRule struct {
	name     string
	cause    string
	symptoms []string // the symptom kinds it may explain
	tags     []string // the catalogue's evidence tags that show it
	// unless are tags that say more: a symptom that holds one is the other rule's.
	unless     []string
	confidence float64
	summary    func(n int, objects, said string) string
}

func (r tagRule) Name() string { return r.name }

func (r tagRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	c := analysis.Cause{Kind: r.cause, Role: analysis.Root, Confidence: r.confidence, Components: []analysis.Component{}}
	var objects, said []string
	for _, s := range symptoms {
		if !slices.Contains(r.symptoms, s.Kind) || s.Kind == analysis.PodPending && !stuckIn(s) {
			continue // a pod waiting for the scheduler: its messages are the scheduler's
		}
		ev, msg, ok := tagShown(in, s, r.tags)
		if !ok {
			continue
		}
		if _, _, more := tagShown(in, s, r.unless); more {
			continue
		}
		c.Explains = append(c.Explains, s.ID)
		c.Evidence = append(c.Evidence, ev)
		objects = append(objects, s.Label())
		said = append(said, msg)
	}
	if len(c.Explains) == 0 {
		return nil
	}
	shown := analysis.Unique(objects)
	if len(shown) > 5 {
		shown = append(shown[:5:5], fmt.Sprintf("and %d more", len(analysis.Unique(objects))-5))
	}
	c.Summary = r.summary(len(analysis.Unique(objects)), strings.Join(shown, ", "), phrase.Clip(analysis.Unique(said)[0], 200))
	return []analysis.Cause{c}
}

// tagShown returns the first evidence item of a symptom (a member's, for a group) whose
// message holds one of the catalogue's evidence tags, and the part of the message that does.
func tagShown(in analysis.Input, s analysis.Symptom, tags []string) (analysis.Evidence, string, bool) {
	if len(tags) == 0 {
		return analysis.Evidence{}, "", false
	}
	for _, ev := range s.Evidence {
		// A word (a reason, a taint's key) named inside a message is not what it says.
		if said, ok := tagSaid(in, ev.Value, tags); ok {
			return ev, said, true
		}
	}
	for _, mb := range s.Members {
		if ev, msg, ok := tagShown(in, mb, tags); ok {
			return ev, msg, true
		}
	}
	return analysis.Evidence{}, "", false
}

// tagSaid returns the part of a message that holds one of the catalogue's evidence tags.
func tagSaid(in analysis.Input, msg string, tags []string) (string, bool) {
	for _, m := range messages(in).explain(msg) {
		if !m.Entry.Word && slices.Contains(tags, m.Entry.Evidence) {
			return strings.TrimSpace(m.Text), true
		}
	}
	return "", false
}

// tagRules are the causes the catalogue's tags show.
func tagRules() []analysis.CauseRule {
	return []analysis.CauseRule{
		tagRule{name: "quota-exceeded", cause: analysis.QuotaExceeded, symptoms: []string{analysis.PodCreateFailed},
			tags: []string{"quota_exceeded", "quota_requires_limits", "limitrange_violation"}, confidence: 0.85,
			summary: func(n int, o, said string) string {
				return fmt.Sprintf("a ResourceQuota or LimitRange refused the pods of %d controller(s): %s: %s", n, o, said)
			}},
		tagRule{name: "ip-exhaustion", cause: analysis.IPExhaustion, symptoms: []string{analysis.PodStuckCreating, analysis.PodPending},
			tags: []string{"ip_exhausted"}, confidence: 0.85,
			summary: func(n int, o, said string) string {
				return fmt.Sprintf("no IP address was left for %d pod(s): %s: %s", n, o, said)
			}},
		tagRule{name: "network-setup-failed", cause: analysis.NetworkSetupFailed, symptoms: []string{analysis.PodStuckCreating, analysis.PodPending},
			tags: []string{"cni_not_ready", "cni_error", "cni_setup_failed", "pod_cidr_missing"}, unless: []string{"ip_exhausted"}, confidence: 0.8,
			summary: func(n int, o, said string) string {
				return fmt.Sprintf("the network of %d pod(s) could not be set up: %s: %s", n, o, said)
			}},
		tagRule{name: "missing-object", cause: analysis.MissingObject, symptoms: []string{analysis.PodStuckCreating, analysis.PodPending, analysis.PodCreateFailed, analysis.VolumeProvisioningFailed},
			// A claim not found is volume_binding's, which says more of claims.
			tags: []string{"missing_secret", "missing_configmap", "missing_secret_key", "missing_configmap_key",
				"storageclass_not_found", "missing_service_account"}, confidence: 0.85,
			summary: func(n int, o, said string) string {
				return fmt.Sprintf("an object %d of them need does not exist: %s: %s", n, o, said)
			}},
		tagRule{name: "volume-attach-failure", cause: analysis.VolumeAttachFailure, symptoms: []string{analysis.PodStuckCreating, analysis.PodPending},
			tags: []string{"volume_multi_attach", "volume_mount_timeout", "volume_attach_failed", "volume_mount_failed",
				"volume_not_attached", "volume_attach_limit", "volume_in_use"},
			// A mount that failed for an object that does not exist is missing-object's.
			unless:     []string{"missing_secret", "missing_configmap", "missing_secret_key", "missing_configmap_key"},
			confidence: 0.75,
			summary: func(n int, o, said string) string {
				return fmt.Sprintf("the volumes of %d pod(s) could not be attached or mounted: %s: %s", n, o, said)
			}},
	}
}

// stuckIn reports whether a pending symptom, or a member of it, is of a pod stuck on its node.
func stuckIn(s analysis.Symptom) bool {
	if s.Details.Stuck != "" {
		return true
	}
	return slices.ContainsFunc(s.Members, stuckIn)
}
