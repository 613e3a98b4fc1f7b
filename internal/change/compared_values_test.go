package change

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestComparedValuesReadAsPeopleWriteThem: the compared text of a field is what a reader of the
// change expects: a toleration as key=value:Effect (key:Effect for Exists, * for all, with its
// seconds), every workload's template, a CronJob's suspension only when it is set, a node's taints whatever the order the
// API listed them in; and a ConfigMap value that only looks like a hash is hashed all the same.
func TestComparedValuesReadAsPeopleWriteThem(t *testing.T) {
	secs := int64(300)
	d := webDeployment(func(s *corev1.PodSpec) {
		s.Tolerations = []corev1.Toleration{
			{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "web", Effect: corev1.TaintEffectNoSchedule},
			{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: &secs},
			{Operator: corev1.TolerationOpExists},
			{Key: "gpu", Operator: corev1.TolerationOpEqual, Value: "yes"},
		}
	})
	fields, _ := Fields(d)
	if got, want := fields["spec.template.spec.tolerations"], "*; dedicated=web:NoSchedule; gpu=yes; node.kubernetes.io/not-ready:NoExecute for 300s"; got != want {
		t.Errorf("tolerations %q, want %q", got, want)
	}

	cron := func(suspend *bool) map[string]string {
		f, ok := Fields(&batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Name: "report", Namespace: "prod"},
			Spec: batchv1.CronJobSpec{Schedule: "0 * * * *", Suspend: suspend}})
		if !ok {
			t.Fatal("a CronJob is not compared")
		}
		return f
	}
	yes, no := true, false
	if got := cron(&yes)["spec.suspend"]; got != "true" {
		t.Errorf("a suspended CronJob: spec.suspend %q, want true", got)
	}
	if got := cron(&no)["spec.suspend"]; got != "false" {
		t.Errorf("a CronJob resumed: spec.suspend %q, want false", got)
	}
	if got, ok := cron(nil)["spec.suspend"]; ok {
		t.Errorf("a CronJob that never said: spec.suspend %q, want no field", got)
	}
	if got := cron(nil)["spec.schedule"]; got != "0 * * * *" {
		t.Errorf("schedule %q", got)
	}

	taints := []corev1.Taint{{Key: "b", Value: "2", Effect: corev1.TaintEffectNoSchedule}, {Key: "a", Effect: corev1.TaintEffectNoExecute}}
	one, _ := Fields(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n"}, Spec: corev1.NodeSpec{Taints: taints}})
	other, _ := Fields(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n"}, Spec: corev1.NodeSpec{Taints: []corev1.Taint{taints[1], taints[0]}}})
	if one["spec.taints"] != other["spec.taints"] || one["spec.taints"] != "a:NoExecute, b=2:NoSchedule" {
		t.Errorf("taints %q and %q listed in two orders, want both \"a:NoExecute, b=2:NoSchedule\"", one["spec.taints"], other["spec.taints"])
	}

	// Every kind of workload is read by its pod template.
	tmpl := webDeployment(nil).Spec.Template
	for _, w := range []any{
		&appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{Template: tmpl}},
		&appsv1.DaemonSet{Spec: appsv1.DaemonSetSpec{Template: tmpl}},
		&appsv1.ReplicaSet{Spec: appsv1.ReplicaSetSpec{Template: tmpl}},
		&batchv1.Job{Spec: batchv1.JobSpec{Template: tmpl}},
	} {
		if f, _ := Fields(w); f["spec.template.spec.containers[web].image"] != "web:1" {
			t.Errorf("%T: image %q, want web:1", w, f["spec.template.spec.containers[web].image"])
		}
	}

	for _, v := range []string{"sha256:0123456789ab", "sha256:0123456789AB", "sha256:not-a-hash!!", "sha256:0123"} {
		cm := &corev1.ConfigMap{Data: map[string]string{"k": v}}
		HashValues(cm)
		kept := cm.Data["k"] == v
		if want := v == "sha256:0123456789ab"; kept != want {
			t.Errorf("%q: kept %v, want %v (only a hash as HashValues writes one is kept)", v, kept, want)
		}
	}
}
