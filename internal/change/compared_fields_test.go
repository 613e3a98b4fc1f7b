package change

import (
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// TestEachEditOfATemplateIsSeen: an edit of any compared part of a workload's pod template, a
// container's image, command, arguments, environment names, requests, limits or probes, where
// its pods may run or their priority, changes that one field and no other, so that the change
// detector names what was edited (a rollout that only changed `args` is a change too).
func TestEachEditOfATemplateIsSeen(t *testing.T) {
	const c = "spec.template.spec.containers[web]."
	for _, tc := range []struct {
		edit  string
		field string
		do    func(s *corev1.PodSpec)
	}{
		{"image", c + "image", func(s *corev1.PodSpec) { s.Containers[0].Image = "web:2" }},
		{"command", c + "command", func(s *corev1.PodSpec) { s.Containers[0].Command = []string{"/web", "serve"} }},
		{"arguments", c + "args", func(s *corev1.PodSpec) { s.Containers[0].Args = []string{"--workers=8"} }},
		{"environment", c + "env", func(s *corev1.PodSpec) {
			s.Containers[0].Env = append(s.Containers[0].Env, corev1.EnvVar{Name: "DEBUG", Value: "1"})
		}},
		{"memory request", c + "resources.requests.memory", func(s *corev1.PodSpec) {
			s.Containers[0].Resources.Requests[corev1.ResourceMemory] = resource.MustParse("1Gi")
		}},
		{"memory limit", c + "resources.limits.memory", func(s *corev1.PodSpec) {
			s.Containers[0].Resources.Limits[corev1.ResourceMemory] = resource.MustParse("2Gi")
		}},
		{"liveness probe", c + "livenessProbe", func(s *corev1.PodSpec) { s.Containers[0].LivenessProbe.TimeoutSeconds = 1 }},
		{"readiness probe", c + "readinessProbe", func(s *corev1.PodSpec) { s.Containers[0].ReadinessProbe.PeriodSeconds = 2 }},
		{"startup probe", c + "startupProbe", func(s *corev1.PodSpec) { s.Containers[0].StartupProbe.FailureThreshold = 3 }},
		{"init container image", "spec.template.spec.initContainers[migrate].image", func(s *corev1.PodSpec) { s.InitContainers[0].Image = "migrate:2" }},
		{"node selector", "spec.template.spec.nodeSelector", func(s *corev1.PodSpec) { s.NodeSelector["pool"] = "big" }},
		{"tolerations", "spec.template.spec.tolerations", func(s *corev1.PodSpec) {
			s.Tolerations = append(s.Tolerations, corev1.Toleration{Key: "gpu", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule})
		}},
		{"affinity", "spec.template.spec.affinity", func(s *corev1.PodSpec) {
			s.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{TopologyKey: "kubernetes.io/hostname"}}}}
		}},
		{"priority", "spec.template.spec.priorityClassName", func(s *corev1.PodSpec) { s.PriorityClassName = "critical" }},
	} {
		t.Run(tc.edit, func(t *testing.T) {
			before, ok := Fields(webDeployment(nil))
			if !ok {
				t.Fatal("a Deployment is not compared")
			}
			after, _ := Fields(webDeployment(tc.do))
			var changed []string
			for f, v := range after {
				if before[f] != v {
					changed = append(changed, f)
				}
			}
			for f := range before {
				if _, ok := after[f]; !ok {
					changed = append(changed, f)
				}
			}
			slices.Sort(changed)
			if !slices.Equal(changed, []string{tc.field}) {
				t.Errorf("changed fields %q, want only %q", changed, tc.field)
			}
		})
	}
}

// webDeployment is a Deployment with one container and one init container, each compared part
// set, edited by edit when given.
func webDeployment(edit func(s *corev1.PodSpec)) *appsv1.Deployment {
	probe := func() *corev1.Probe {
		return &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/health", Port: intstr.FromInt32(8080)}},
			TimeoutSeconds: 3, PeriodSeconds: 10, FailureThreshold: 5}
	}
	two := int32(2)
	d := &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "prod"},
		Spec: appsv1.DeploymentSpec{Replicas: &two, Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			PriorityClassName: "normal",
			NodeSelector:      map[string]string{"pool": "core"},
			Tolerations:       []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "web", Effect: corev1.TaintEffectNoSchedule}},
			InitContainers:    []corev1.Container{{Name: "migrate", Image: "migrate:1"}},
			Containers: []corev1.Container{{
				Name: "web", Image: "web:1", Command: []string{"/web"}, Args: []string{"--workers=4"},
				Env: []corev1.EnvVar{{Name: "MODE", Value: "prod"}},
				Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m"), corev1.ResourceMemory: resource.MustParse("512Mi")},
					Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi")},
				},
				LivenessProbe: probe(), ReadinessProbe: probe(), StartupProbe: probe(),
			}},
		}}},
	}
	if edit != nil {
		edit(&d.Spec.Template.Spec)
	}
	return d
}
