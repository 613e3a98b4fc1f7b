package text

import (
	"encoding/json"
	"testing"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// TestSentencesReportingSymptomsAreClaims: a person's sentence that names a symptom in words
// ("the pods were evicted", "it kept crashlooping") is kept as a claim that reports it, which
// the analysis weighs; a word that only holds such a word inside it ("appending", "zoom") is
// not one.
func TestSentencesReportingSymptomsAreClaims(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text  string
		claim bool
	}{
		{"The pods were evicted overnight.", true},
		{"Eviction hit the batch pool first.", true},
		{"Half of them stayed pending for an hour.", true},
		{"The scheduler said it was unschedulable.", true},
		{"The hub kept crashlooping.", true},
		{"Workers got OOM killed at noon.", true},
		{"The proxy restarted twice.", true},
		{"Both probes timed out.", true},
		{"One node was not ready for an hour.", true},
		{"We saw memory pressure on the core pool.", true},
		{"The autoscaler was scaling up slowly.", true},
		{"Ten nodes were added within a minute.", true},
		{"Our batch pods were preempted.", true},
		{"Two jobs failed.", true},
		{"The kubelet couldn't pull the image.", true},
		// Such words inside other words are not reports.
		{"We kept appending to the spending report.", false},
		{"We had a zoom call about it.", false},
		{"The team was unprepared for the readiness review.", false},
		{"The hub was slow.", false},
	} {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			objs, _ := parseAll(t, "notes.md", []byte(tt.text+"\n"))
			var claims []cluster.Claim
			for _, o := range objs {
				if o.Kind != cluster.KindClaim {
					t.Errorf("a sentence made a %s", o.Kind)
					continue
				}
				var c cluster.Claim
				if err := json.Unmarshal(o.Raw, &c); err != nil {
					t.Fatal(err)
				}
				claims = append(claims, c)
			}
			switch {
			case tt.claim && (len(claims) != 1 || !claims[0].Reports || claims[0].Text != tt.text):
				t.Errorf("claims %+v, want the sentence, reporting a symptom", claims)
			case !tt.claim && len(claims) > 0:
				t.Errorf("claims %+v, want none", claims)
			}
		})
	}
}

// TestKubectlOfADistributionNamesItsPod: the events a describe lists belong to the pod its
// command names, whether the command is kubectl or the kubectl a distribution ships
// ("microk8s kubectl", "k3s kubectl", "minikube kubectl --"), with no prompt before it.
func TestKubectlOfADistributionNamesItsPod(t *testing.T) {
	t.Parallel()
	const events = "\nEvents:\n  Type     Reason                  Age   From     Message\n  ----     ------                  ----  ----     -------\n" +
		"  Warning  FailedCreatePodSandBox  3m    kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox\n"
	for _, cmd := range []string{
		"kubectl describe pod/agent-7xk2p -n kube-system",
		"microk8s kubectl describe pod/agent-7xk2p -n kube-system",
		"microk8s.kubectl describe pod/agent-7xk2p -n kube-system",
		"k3s kubectl describe pod agent-7xk2p --namespace kube-system",
		"minikube kubectl -- describe pod/agent-7xk2p -n kube-system",
	} {
		t.Run(cmd, func(t *testing.T) {
			t.Parallel()
			objs, _ := parseAll(t, "paste.md", []byte("```bash\n"+cmd+"\n"+events+"```\n"))
			var on []string
			for _, o := range objs {
				if o.Kind == cluster.KindEvent && o.Event != nil {
					io := o.Event.InvolvedObject
					on = append(on, io.Kind+" "+io.Namespace+"/"+io.Name)
				}
			}
			if len(on) != 1 || on[0] != "Pod kube-system/agent-7xk2p" {
				t.Errorf("events on %v, want one on Pod kube-system/agent-7xk2p", on)
			}
		})
	}
}
