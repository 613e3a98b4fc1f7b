package rules

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// controllerRevision is revision n of kind/prod/app (a StatefulSet or DaemonSet), made at, its
// template's one container (named app) with the memory limit given: the ControllerRevision
// kubectl get controllerrevisions -o json shows, its data the patch that replaces the template.
func controllerRevision(t *testing.T, kind, app string, n int, at time.Time, limit string) *cluster.Object {
	t.Helper()
	yes := true
	hash := fmt.Sprintf("%d7f9c8d6b", n)
	tmpl := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": app}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: app, Image: "example/" + app + ":1",
			Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(limit)}}}}}}
	patch, err := json.Marshal(map[string]any{"spec": map[string]any{"template": tmpl}})
	if err != nil {
		t.Fatal(err)
	}
	patch = []byte(strings.Replace(string(patch), `"template":{`, `"template":{"$patch":"replace",`, 1))
	label := "controller.kubernetes.io/hash" // the StatefulSet controller's
	if kind == "DaemonSet" {
		label = appsv1.ControllerRevisionHashLabelKey
	}
	cr := appsv1.ControllerRevision{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ControllerRevision"},
		ObjectMeta: metav1.ObjectMeta{Name: app + "-" + hash, Namespace: "prod", CreationTimestamp: metav1.NewTime(at),
			Labels:          map[string]string{"app": app, label: hash},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: kind, Name: app, Controller: &yes}}},
		Data: runtime.RawExtension{Raw: patch}, Revision: int64(n)}
	b, err := json.Marshal(cr)
	if err != nil {
		t.Fatal(err)
	}
	return &cluster.Object{APIVersion: "apps/v1", Kind: "ControllerRevision", Namespace: "prod", Name: cr.Name, Raw: b,
		Source: cluster.Source{File: "controllerrevisions.json", Line: int32(10 * n)}}
}

// revisionPod is pod prod/name of kind/prod/app running revision n (its controller-revision-hash
// as the controller writes it: a StatefulSet's pods the revision's name, a DaemonSet's the hash),
// with the container status given.
func revisionPod(kind, app, name string, n int, at time.Time, limit string, status corev1.ContainerStatus) *cluster.Object {
	o := appPod(app, name, "", at, "example/"+app+":1", limit, status)
	yes := true
	o.Pod.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: kind, Name: app, Controller: &yes}}
	hash := fmt.Sprintf("%d7f9c8d6b", n)
	if kind == "StatefulSet" {
		hash = app + "-" + hash
	}
	o.Pod.Labels = map[string]string{"app": app, appsv1.ControllerRevisionHashLabelKey: hash}
	return o
}

// TestRecentChangeFromControllerRevisions: a StatefulSet's and a DaemonSet's ControllerRevisions
// tell that their memory limit was lowered; the pods of the new revision OOM-killed since are
// the recent_change's, citing the revision, while a pod still of the earlier revision,
// OOM-killed the same way, speaks against it.
func TestRecentChangeFromControllerRevisions(t *testing.T) {
	t1, t2 := time.Date(2023, 2, 1, 10, 0, 0, 0, time.UTC), time.Date(2023, 2, 1, 16, 50, 0, 0, time.UTC)
	after := t2.Add(time.Minute)
	for _, kind := range []string{"StatefulSet", "DaemonSet"} {
		t.Run(kind, func(t *testing.T) {
			m := cluster.NewModel(nil, []*cluster.Object{
				controllerRevision(t, kind, "db", 1, t1, "2Gi"), controllerRevision(t, kind, "db", 2, t2, "64Mi"),
				revisionPod(kind, "db", "db-new", 2, after, "64Mi", oomKilled(after.Add(time.Minute))),
			})
			c, explained := changeCause(t, Run(m, analysis.Options{}))
			ev := c.Evidence[0]
			if strings.Join(explained, ",") != analysis.OOMKilled || ev.Ref != kind+" prod/db" || ev.File != "controllerrevisions.json" ||
				!strings.Contains(ev.Value, "2Gi → 64Mi") || !strings.Contains(ev.Value, "ControllerRevision prod/db-27f9c8d6b") || c.Confidence < 0.7 {
				t.Errorf("recent_change explains %v at %.2f citing %+v; want the OOM kill, confidently, and the revision", explained, c.Confidence, ev)
			}

			m = cluster.NewModel(nil, []*cluster.Object{
				controllerRevision(t, kind, "db", 1, t1, "2Gi"), controllerRevision(t, kind, "db", 2, t2, "64Mi"),
				revisionPod(kind, "db", "db-new", 2, after, "64Mi", oomKilled(after.Add(time.Minute))),
				revisionPod(kind, "db", "db-old", 1, t1, "2Gi", oomKilled(after.Add(2*time.Minute))),
				unhealthy("web-0", t1.Add(time.Hour)), // earlier, and less severe: the report's ids are not the rules'
			})
			rep := Run(m, analysis.Options{})
			c, explained = changeCause(t, rep)
			for _, s := range rep.Symptoms {
				if s.Objects[0].Name == "db-old" && (len(c.Against) == 0 || !strings.Contains(c.Against[0].Value, s.ID+" is of a pod of an earlier template") ||
					c.Against[0].Field != "symptom "+s.ID || c.Against[0].File == "") {
					t.Errorf("against %+v does not name the old pod's symptom by its id in the report (%s), nor cite its evidence", c.Against, s.ID)
				}
			}
			if len(explained) != 1 || c.Confidence > 0.4 || len(c.Against) == 0 || !strings.Contains(c.Against[0].Value, "earlier template (controller-revision-hash") {
				t.Errorf("with a pod of the earlier revision killed too: explains %v at %.2f, against %+v; want the new pod's only, the old against it",
					explained, c.Confidence, c.Against)
			}
		})
	}
}
