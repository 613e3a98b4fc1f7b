package cluster

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// term is a node selector term of match expressions, each "key op value,value".
func term(reqs ...corev1.NodeSelectorRequirement) corev1.NodeSelectorTerm {
	return corev1.NodeSelectorTerm{MatchExpressions: reqs}
}

func req(key string, op corev1.NodeSelectorOperator, values ...string) corev1.NodeSelectorRequirement {
	return corev1.NodeSelectorRequirement{Key: key, Operator: op, Values: values}
}

// required is a pod affinity with the required node selector terms, ORed.
func required(terms ...corev1.NodeSelectorTerm) *corev1.Affinity {
	return &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: terms}}}
}

func taint(key, value string, effect corev1.TaintEffect) corev1.Taint {
	return corev1.Taint{Key: key, Value: value, Effect: effect}
}

func toleration(key string, op corev1.TolerationOperator, value string, effect corev1.TaintEffect) corev1.Toleration {
	return corev1.Toleration{Key: key, Operator: op, Value: value, Effect: effect}
}

func TestPodPlacement(t *testing.T) {
	user := map[string]string{"hub.jupyter.org/node-purpose": "user", "kubernetes.io/os": "linux"}
	dedicated := taint("hub.jupyter.org/dedicated", "user", corev1.TaintEffectNoSchedule)
	tests := []struct {
		name        string
		selector    map[string]string
		affinity    *corev1.Affinity
		tolerations []corev1.Toleration
		labels      map[string]string
		taints      []corev1.Taint
		want        Placement
	}{
		{name: "no rules", labels: user},
		{name: "nodeSelector matches", selector: map[string]string{"hub.jupyter.org/node-purpose": "user"}, labels: user},
		{name: "nodeSelector of another value", selector: map[string]string{"hub.jupyter.org/node-purpose": "core"}, labels: user,
			want: Placement{Rule: RuleNodeAffinity}},
		{name: "nodeSelector of a label the node lacks", selector: map[string]string{"cloud.google.com/gke-nodepool": "user"}, labels: user,
			want: Placement{Rule: RuleNodeAffinity}},
		{name: "In matches", affinity: required(term(req("hub.jupyter.org/node-purpose", corev1.NodeSelectorOpIn, "core", "user"))), labels: user},
		{name: "In without the value", affinity: required(term(req("hub.jupyter.org/node-purpose", corev1.NodeSelectorOpIn, "core"))), labels: user,
			want: Placement{Rule: RuleNodeAffinity}},
		{name: "NotIn with the value", affinity: required(term(req("hub.jupyter.org/node-purpose", corev1.NodeSelectorOpNotIn, "user"))), labels: user,
			want: Placement{Rule: RuleNodeAffinity}},
		{name: "NotIn of a label the node lacks", affinity: required(term(req("gpu", corev1.NodeSelectorOpNotIn, "a100"))), labels: user},
		{name: "Exists", affinity: required(term(req("hub.jupyter.org/node-purpose", corev1.NodeSelectorOpExists))), labels: user},
		{name: "Exists of a label the node lacks", affinity: required(term(req("gpu", corev1.NodeSelectorOpExists))), labels: user,
			want: Placement{Rule: RuleNodeAffinity}},
		{name: "DoesNotExist of a label the node lacks", affinity: required(term(req("gpu", corev1.NodeSelectorOpDoesNotExist))), labels: user},
		{name: "DoesNotExist of a label the node has", affinity: required(term(req("kubernetes.io/os", corev1.NodeSelectorOpDoesNotExist))), labels: user,
			want: Placement{Rule: RuleNodeAffinity}},
		{name: "terms are ORed: the second matches", labels: user, affinity: required(
			term(req("gpu", corev1.NodeSelectorOpExists)),
			term(req("hub.jupyter.org/node-purpose", corev1.NodeSelectorOpIn, "user")))},
		{name: "terms are ORed: none matches", labels: user, affinity: required(
			term(req("gpu", corev1.NodeSelectorOpExists)),
			term(req("hub.jupyter.org/node-purpose", corev1.NodeSelectorOpIn, "core"))),
			want: Placement{Rule: RuleNodeAffinity}},
		{name: "expressions of a term are ANDed", labels: user, affinity: required(term(
			req("kubernetes.io/os", corev1.NodeSelectorOpIn, "linux"),
			req("hub.jupyter.org/node-purpose", corev1.NodeSelectorOpIn, "core"))),
			want: Placement{Rule: RuleNodeAffinity}},
		{name: "nodeSelector and affinity must both match", labels: user, selector: map[string]string{"kubernetes.io/os": "linux"},
			affinity: required(term(req("gpu", corev1.NodeSelectorOpExists))), want: Placement{Rule: RuleNodeAffinity}},
		{name: "matchFields on the node's name", labels: user, affinity: required(corev1.NodeSelectorTerm{
			MatchFields: []corev1.NodeSelectorRequirement{req("metadata.name", corev1.NodeSelectorOpIn, "user-1")}})},
		{name: "required affinity without terms matches no node", labels: user, affinity: required(),
			want: Placement{Rule: RuleNodeAffinity}},
		{name: "untolerated NoSchedule taint", labels: user, taints: []corev1.Taint{dedicated},
			want: Placement{Rule: RuleTaintToleration, Taint: dedicated}},
		{name: "Equal toleration of the taint", labels: user, taints: []corev1.Taint{dedicated},
			tolerations: []corev1.Toleration{toleration("hub.jupyter.org/dedicated", corev1.TolerationOpEqual, "user", corev1.TaintEffectNoSchedule)}},
		{name: "empty operator means Equal", labels: user, taints: []corev1.Taint{dedicated},
			tolerations: []corev1.Toleration{toleration("hub.jupyter.org/dedicated", "", "user", "")}},
		{name: "Equal toleration of another value", labels: user, taints: []corev1.Taint{dedicated},
			tolerations: []corev1.Toleration{toleration("hub.jupyter.org/dedicated", corev1.TolerationOpEqual, "core", corev1.TaintEffectNoSchedule)},
			want:        Placement{Rule: RuleTaintToleration, Taint: dedicated}},
		{name: "Exists toleration of the key, whatever the value", labels: user, taints: []corev1.Taint{dedicated},
			tolerations: []corev1.Toleration{toleration("hub.jupyter.org/dedicated", corev1.TolerationOpExists, "", "")}},
		{name: "Exists with an empty key tolerates every taint", labels: user,
			taints:      []corev1.Taint{dedicated, taint("gpu", "", corev1.TaintEffectNoExecute)},
			tolerations: []corev1.Toleration{toleration("", corev1.TolerationOpExists, "", "")}},
		{name: "a toleration of another effect does not tolerate", labels: user, taints: []corev1.Taint{taint("gpu", "a100", corev1.TaintEffectNoExecute)},
			tolerations: []corev1.Toleration{toleration("gpu", corev1.TolerationOpEqual, "a100", corev1.TaintEffectNoSchedule)},
			want:        Placement{Rule: RuleTaintToleration, Taint: taint("gpu", "a100", corev1.TaintEffectNoExecute)}},
		{name: "a toleration without an effect tolerates every effect", labels: user, taints: []corev1.Taint{taint("gpu", "a100", corev1.TaintEffectNoExecute)},
			tolerations: []corev1.Toleration{toleration("gpu", corev1.TolerationOpEqual, "a100", "")}},
		{name: "PreferNoSchedule only weighs in scoring", labels: user, taints: []corev1.Taint{taint("spot", "", corev1.TaintEffectPreferNoSchedule)}},
		{name: "the untolerated one of two taints", labels: user,
			taints:      []corev1.Taint{dedicated, taint("node.kubernetes.io/not-ready", "", corev1.TaintEffectNoExecute)},
			tolerations: []corev1.Toleration{toleration("hub.jupyter.org/dedicated", corev1.TolerationOpEqual, "user", corev1.TaintEffectNoSchedule)},
			want:        Placement{Rule: RuleTaintToleration, Taint: taint("node.kubernetes.io/not-ready", "", corev1.TaintEffectNoExecute)}},
		{name: "Gt compares numbers", labels: user, taints: []corev1.Taint{taint("generation", "5", corev1.TaintEffectNoSchedule)},
			tolerations: []corev1.Toleration{toleration("generation", corev1.TolerationOpGt, "3", corev1.TaintEffectNoSchedule)}},
		{name: "the selector is looked at before the taints", labels: user, taints: []corev1.Taint{dedicated},
			selector: map[string]string{"gpu": "a100"}, want: Placement{Rule: RuleNodeAffinity}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &corev1.Pod{Spec: corev1.PodSpec{NodeSelector: tt.selector, Affinity: tt.affinity, Tolerations: tt.tolerations}}
			n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "user-1", Labels: tt.labels}, Spec: corev1.NodeSpec{Taints: tt.taints}}
			got := PodPlacement(p, n)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("PodPlacement (-want +got):\n%s", diff)
			}
			if got.Allowed() != (tt.want.Rule == "") {
				t.Errorf("Allowed() = %v for %+v", got.Allowed(), got)
			}
		})
	}
}

func TestPlacementString(t *testing.T) {
	for _, tt := range []struct {
		p    Placement
		want string
	}{
		{Placement{}, ""},
		{Placement{Rule: RuleNodeAffinity}, "node didn't match Pod's node affinity/selector"},
		{Placement{Rule: RuleTaintToleration, Taint: taint("hub.jupyter.org/dedicated", "user", corev1.TaintEffectNoSchedule)},
			"node had untolerated taint hub.jupyter.org/dedicated=user:NoSchedule"},
	} {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.p, got, tt.want)
		}
	}
}

// poolNode is a node of a GKE pool, with more labels and taints.
func poolNode(name, pool string, labels map[string]string, taints ...corev1.Taint) *Object {
	l := map[string]string{"cloud.google.com/gke-nodepool": pool, "kubernetes.io/os": "linux"}
	for k, v := range labels {
		l[k] = v
	}
	return &Object{Kind: KindNode, Name: name, Node: &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: l},
		Spec: corev1.NodeSpec{Taints: taints}}}
}

func TestPoolFor(t *testing.T) {
	userLabel := map[string]string{"hub.jupyter.org/node-purpose": "user"}
	dedicated := taint("hub.jupyter.org/dedicated", "user", corev1.TaintEffectNoSchedule)
	tolerateUser := []corev1.Toleration{toleration("hub.jupyter.org/dedicated", corev1.TolerationOpEqual, "user", corev1.TaintEffectNoSchedule)}
	tolerateAll := []corev1.Toleration{toleration("", corev1.TolerationOpExists, "", "")}
	notReady := taint("node.kubernetes.io/not-ready", "", corev1.TaintEffectNoExecute)
	unreachable := taint("node.kubernetes.io/unreachable", "", corev1.TaintEffectNoSchedule)
	uninitialized := taint("node.cloudprovider.kubernetes.io/uninitialized", "true", corev1.TaintEffectNoSchedule)
	noNetwork := taint("node.kubernetes.io/network-unavailable", "", corev1.TaintEffectNoSchedule)
	nodes := []*Object{
		poolNode("core-1", "core", nil),
		poolNode("core-2", "core", nil),
		// The user pool's nodes are all down or coming up: still the pool of user pods.
		poolNode("user-1", "user-pool", userLabel, dedicated, notReady),
		poolNode("user-2", "user-pool", userLabel, dedicated, unreachable),
		poolNode("user-3", "user-pool", userLabel, dedicated, uninitialized, noNetwork),
		poolNode("user-b-1", "user-b", userLabel, dedicated),
		poolNode("gpu-1", "gpu", map[string]string{"gpu": "a100"}, taint("nvidia.com/gpu", "present", corev1.TaintEffectNoSchedule)),
		poolNode("gpu-2", "gpu", map[string]string{"gpu": "h100"}, taint("nvidia.com/gpu", "present", corev1.TaintEffectNoSchedule)),
		poolNode("spot-1", "spot", map[string]string{"gpu": "a100"}, taint("nvidia.com/gpu", "present", corev1.TaintEffectNoSchedule)),
	}
	m := NewModel(nil, nodes)
	tests := []struct {
		name        string
		selector    map[string]string
		affinity    *corev1.Affinity
		tolerations []corev1.Toleration
		want        string
	}{
		{name: "no selector or affinity: any pool", tolerations: tolerateUser, want: ""},
		{name: "the pool most matching nodes are in", selector: userLabel, tolerations: tolerateUser, want: "user-pool"},
		{name: "untolerated taints leave the pods no pool", selector: userLabel, want: ""},
		{name: "a selector every node matches: the untainted pool", selector: map[string]string{"kubernetes.io/os": "linux"}, want: "core"},
		{name: "a selector every node matches, all tolerated: the largest pool", selector: map[string]string{"kubernetes.io/os": "linux"},
			tolerations: tolerateAll, want: "user-pool"},
		{name: "required affinity", tolerations: tolerateAll, affinity: required(term(req("gpu", corev1.NodeSelectorOpExists))), want: "gpu"},
		{name: "a tie goes to the first name", tolerations: tolerateAll,
			affinity: required(term(req("gpu", corev1.NodeSelectorOpIn, "a100"))), want: "gpu"},
		{name: "ORed terms", tolerations: tolerateAll, affinity: required(
			term(req("gpu", corev1.NodeSelectorOpIn, "h100")),
			term(req("cloud.google.com/gke-nodepool", corev1.NodeSelectorOpIn, "core"))), want: "core"},
		{name: "NotIn", tolerations: tolerateAll, affinity: required(term(
			req("cloud.google.com/gke-nodepool", corev1.NodeSelectorOpNotIn, "user-pool", "core"))), want: "gpu"},
		{name: "DoesNotExist", tolerations: tolerateAll, affinity: required(term(
			req("gpu", corev1.NodeSelectorOpDoesNotExist), req("hub.jupyter.org/node-purpose", corev1.NodeSelectorOpDoesNotExist))), want: "core"},
		{name: "no node matches", selector: map[string]string{"gpu": "tpu"}, tolerations: tolerateAll, want: ""},
		{name: "required affinity without terms", affinity: required(), tolerations: tolerateAll, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &Object{Kind: KindPod, Namespace: "ns", Name: "p", Pod: PodOf(&corev1.Pod{
				Spec: corev1.PodSpec{NodeSelector: tt.selector, Affinity: tt.affinity, Tolerations: tt.tolerations}})}
			if got := m.PoolFor(p); got != tt.want {
				t.Errorf("PoolFor = %q, want %q", got, tt.want)
			}
		})
	}
}
