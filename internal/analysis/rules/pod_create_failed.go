package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/phrase"
	"github.com/rootline-dev/rootline/internal/catalog"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// podCreateFailedRule finds controllers that could not create their pods: FailedCreate events
// on a ReplicaSet, a Job, a StatefulSet or a DaemonSet (the API server refused the pod: a
// ResourceQuota, a LimitRange, an admission webhook, a missing ServiceAccount), and the
// ReplicaFailure condition a ReplicaSet keeps for it.
type podCreateFailedRule struct{}

func (podCreateFailedRule) Name() string { return "pod-create-failed" }

func (podCreateFailedRule) Symptoms(in analysis.Input) []analysis.Symptom {
	syms := newObjectSymptoms(analysis.PodCreateFailed)
	syms.fromConditions(in, []string{"ReplicaSet", "ReplicationController"}, func(c workloadCondition) bool {
		// The controller sets it True; a status written by hand may leave it empty.
		return c.Type == "ReplicaFailure" && (c.Status == "True" || c.Status == "" && c.Reason == "FailedCreate")
	})
	syms.fromEvents(in, "", func(o *cluster.Object) bool {
		kind := o.Event.InvolvedObject.Kind
		// The API server's refusal names the pod it would not make; a wrapper may name that pod.
		return o.Event.Reason == "FailedCreate" && cluster.MakesPods(kind) || eventSign(in, o, analysis.PodCreateFailed) != nil && kind != cluster.KindNode
	})
	for _, key := range syms.order {
		// The pod the API server refused, where its controller names it before making it (a
		// StatefulSet's "web-0"; a ReplicaSet's refusals name only its prefix, "web-7d9f8-",
		// which is no pod's name).
		s := syms.byKey[key]
		if len(s.Objects) != 1 || s.Objects[0].Kind == cluster.KindPod {
			continue
		}
		for _, ev := range s.Evidence {
			for _, m := range catalog.Default().Explain(ev.Value) {
				if _, name := m.Pod(); name != "" && !strings.HasSuffix(name, "-") &&
					!slices.ContainsFunc(s.Objects, func(o analysis.ObjectRef) bool { return o.Name == name }) {
					s.Objects = append(s.Objects, analysis.ObjectRef{Kind: cluster.KindPod, Namespace: s.Objects[0].Namespace, Name: name})
				}
			}
		}
	}
	return syms.list(func(s *analysis.Symptom) string {
		if len(s.Objects) == 1 && s.Objects[0].Kind == cluster.KindPod {
			// The API server's refusal names the pod it would not make, and nothing its controller.
			return fmt.Sprintf("pod %s could not be created: %s", s.Objects[0].Name, phrase.Clip(s.Details.Message, 160))
		}
		return fmt.Sprintf("%s could not create its pods: %s", objectPhrase(s, "controller"), phrase.Clip(s.Details.Message, 160))
	})
}
