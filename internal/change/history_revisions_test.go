package change

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// controllerRevisions is `kubectl get controllerrevisions -n prod -o json` of a StatefulSet
// (db: its image changed in revision 2) and a DaemonSet (log-agent: its memory limit lowered
// in revision 3, after a revision 2 that changed nothing compared), listed as the API server
// lists them, by name; and a revision whose owner is not a StatefulSet or DaemonSet.
const controllerRevisions = `{
    "apiVersion": "v1",
    "items": [
        {
            "apiVersion": "apps/v1",
            "data": {"spec": {"template": {"$patch": "replace", "metadata": {"creationTimestamp": null, "labels": {"app": "db"}},
                "spec": {"containers": [{"image": "postgres:16.1", "imagePullPolicy": "IfNotPresent", "name": "postgres",
                    "resources": {"limits": {"memory": "2Gi"}, "requests": {"cpu": "500m", "memory": "1Gi"}},
                    "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}],
                    "dnsPolicy": "ClusterFirst", "restartPolicy": "Always", "schedulerName": "default-scheduler", "securityContext": {},
                    "terminationGracePeriodSeconds": 30}}}},
            "kind": "ControllerRevision",
            "metadata": {
                "creationTimestamp": "2023-02-01T16:50:00Z",
                "labels": {"app": "db", "controller.kubernetes.io/hash": "6b8f7c5d9"},
                "name": "db-6b8f7c5d9",
                "namespace": "prod",
                "ownerReferences": [{"apiVersion": "apps/v1", "blockOwnerDeletion": true, "controller": true, "kind": "StatefulSet",
                    "name": "db", "uid": "5a1c3e4f-3f0e-4a55-9b1f-0c2d7e8a9b10"}],
                "resourceVersion": "48211",
                "uid": "0b7e6d0c-5d35-4f6e-8f0a-7e2f3c1d2a44"
            },
            "revision": 2
        },
        {
            "apiVersion": "apps/v1",
            "data": {"spec": {"template": {"$patch": "replace", "metadata": {"creationTimestamp": null, "labels": {"app": "db"}},
                "spec": {"containers": [{"image": "postgres:15.4", "imagePullPolicy": "IfNotPresent", "name": "postgres",
                    "resources": {"limits": {"memory": "2Gi"}, "requests": {"cpu": "500m", "memory": "1Gi"}},
                    "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}],
                    "dnsPolicy": "ClusterFirst", "restartPolicy": "Always", "schedulerName": "default-scheduler", "securityContext": {},
                    "terminationGracePeriodSeconds": 30}}}},
            "kind": "ControllerRevision",
            "metadata": {
                "creationTimestamp": "2023-01-12T09:30:00Z",
                "labels": {"app": "db", "controller.kubernetes.io/hash": "7d9c4b8f6"},
                "name": "db-7d9c4b8f6",
                "namespace": "prod",
                "ownerReferences": [{"apiVersion": "apps/v1", "blockOwnerDeletion": true, "controller": true, "kind": "StatefulSet",
                    "name": "db", "uid": "5a1c3e4f-3f0e-4a55-9b1f-0c2d7e8a9b10"}],
                "resourceVersion": "1207",
                "uid": "9c1f2e3d-6a7b-4c8d-9e0f-1a2b3c4d5e6f"
            },
            "revision": 1
        },
        {
            "apiVersion": "apps/v1",
            "data": {"spec": {"template": {"$patch": "replace", "metadata": {"creationTimestamp": null, "labels": {"app": "log-agent"}},
                "spec": {"containers": [{"image": "fluent/fluent-bit:2.2.0", "imagePullPolicy": "IfNotPresent", "name": "fluent-bit",
                    "resources": {"limits": {"memory": "200Mi"}, "requests": {"cpu": "50m", "memory": "100Mi"}}}],
                    "tolerations": [{"operator": "Exists"}]}}}},
            "kind": "ControllerRevision",
            "metadata": {
                "creationTimestamp": "2023-01-12T09:31:00Z",
                "labels": {"app": "log-agent", "controller-revision-hash": "5c9b7f6d4"},
                "name": "log-agent-5c9b7f6d4",
                "namespace": "prod",
                "ownerReferences": [{"apiVersion": "apps/v1", "blockOwnerDeletion": true, "controller": true, "kind": "DaemonSet",
                    "name": "log-agent", "uid": "3e2d1c0b-9a8f-4e7d-8c6b-5a4f3e2d1c0b"}],
                "resourceVersion": "1210",
                "uid": "4f3e2d1c-0b9a-4e8f-9d7c-6b5a4f3e2d1c"
            },
            "revision": 1
        },
        {
            "apiVersion": "apps/v1",
            "data": {"spec": {"template": {"$patch": "replace", "metadata": {"creationTimestamp": null, "labels": {"app": "log-agent", "team": "obs"}},
                "spec": {"containers": [{"image": "fluent/fluent-bit:2.2.0", "imagePullPolicy": "IfNotPresent", "name": "fluent-bit",
                    "resources": {"limits": {"memory": "200Mi"}, "requests": {"cpu": "50m", "memory": "100Mi"}}}],
                    "tolerations": [{"operator": "Exists"}]}}}},
            "kind": "ControllerRevision",
            "metadata": {
                "creationTimestamp": "2023-01-20T11:00:00Z",
                "labels": {"app": "log-agent", "controller-revision-hash": "6d8c9e7f5", "team": "obs"},
                "name": "log-agent-6d8c9e7f5",
                "namespace": "prod",
                "ownerReferences": [{"apiVersion": "apps/v1", "blockOwnerDeletion": true, "controller": true, "kind": "DaemonSet",
                    "name": "log-agent", "uid": "3e2d1c0b-9a8f-4e7d-8c6b-5a4f3e2d1c0b"}],
                "resourceVersion": "20417",
                "uid": "5a4f3e2d-1c0b-4a9f-8e7d-6c5b4a3f2e1d"
            },
            "revision": 2
        },
        {
            "apiVersion": "apps/v1",
            "data": {"spec": {"template": {"$patch": "replace", "metadata": {"creationTimestamp": null, "labels": {"app": "log-agent", "team": "obs"}},
                "spec": {"containers": [{"image": "fluent/fluent-bit:2.2.0", "imagePullPolicy": "IfNotPresent", "name": "fluent-bit",
                    "resources": {"limits": {"memory": "50Mi"}, "requests": {"cpu": "50m", "memory": "50Mi"}}}],
                    "tolerations": [{"operator": "Exists"}]}}}},
            "kind": "ControllerRevision",
            "metadata": {
                "creationTimestamp": "2023-02-01T17:05:00Z",
                "labels": {"app": "log-agent", "controller-revision-hash": "7f9d8c6b4", "team": "obs"},
                "name": "log-agent-7f9d8c6b4",
                "namespace": "prod",
                "ownerReferences": [{"apiVersion": "apps/v1", "blockOwnerDeletion": true, "controller": true, "kind": "DaemonSet",
                    "name": "log-agent", "uid": "3e2d1c0b-9a8f-4e7d-8c6b-5a4f3e2d1c0b"}],
                "resourceVersion": "48530",
                "uid": "6b5a4f3e-2d1c-4b0a-9f8e-7d6c5b4a3f2e"
            },
            "revision": 3
        },
        {
            "apiVersion": "apps/v1",
            "data": {"spec": {"template": {"$patch": "replace", "spec": {"containers": [{"image": "example/other:2", "name": "other"}]}}}},
            "kind": "ControllerRevision",
            "metadata": {
                "creationTimestamp": "2023-02-01T17:06:00Z",
                "name": "other-2",
                "namespace": "prod",
                "ownerReferences": [{"apiVersion": "example.com/v1", "controller": true, "kind": "Workflow", "name": "other",
                    "uid": "7c6b5a4f-3e2d-4c1b-0a9f-8e7d6c5b4a3f"}]
            },
            "revision": 2
        }
    ],
    "kind": "List",
    "metadata": {"resourceVersion": ""}
}
`

// listed reads the items of a kubectl list as the ingest keeps objects it does not model: their
// kind and name, their raw JSON and where each was read (here, its place in the list).
func listed(t *testing.T, file, list string) []*cluster.Object {
	t.Helper()
	var l struct{ Items []json.RawMessage }
	if err := json.Unmarshal([]byte(list), &l); err != nil {
		t.Fatal(err)
	}
	var out []*cluster.Object
	for i, item := range l.Items {
		var meta struct {
			APIVersion, Kind string
			Metadata         struct{ Name, Namespace string }
		}
		if err := json.Unmarshal(item, &meta); err != nil {
			t.Fatal(err)
		}
		out = append(out, &cluster.Object{APIVersion: meta.APIVersion, Kind: meta.Kind, Namespace: meta.Metadata.Namespace, Name: meta.Metadata.Name,
			Raw: item, Source: cluster.Source{File: file, Line: int32(100 + i)}})
	}
	return out
}

// TestHistoryControllerRevisions: a StatefulSet's and a DaemonSet's ControllerRevisions, as
// kubectl prints them, tell their rollouts as a Deployment's
// ReplicaSets do: each revision's template against the one before, at the time the later was
// made, citing it, with the controller-revision-hash its pods carry (a StatefulSet's pods the
// revision's name, a DaemonSet's the hash alone). A revision that changed no compared field
// (a label of the template) is no change; one of another owner's kind tells nothing.
func TestHistoryControllerRevisions(t *testing.T) {
	objs := listed(t, "controllerrevisions.json", controllerRevisions)
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	const ctr = "spec.template.spec.containers[fluent-bit]"
	want := []Change{
		{Kind: "StatefulSet", Namespace: "prod", Name: "db", Field: "spec.template.spec.containers[postgres].image", Before: "postgres:15.4", After: "postgres:16.1",
			Since: at("2023-02-01T16:50:00Z"), Until: at("2023-02-01T16:50:00Z"), Revision: 2, Evidence: "ControllerRevision prod/db-6b8f7c5d9",
			RevisionHash: "db-6b8f7c5d9"},
		{Kind: "DaemonSet", Namespace: "prod", Name: "log-agent", Field: ctr + ".resources.limits.memory", Before: "200Mi", After: "50Mi",
			Since: at("2023-02-01T17:05:00Z"), Until: at("2023-02-01T17:05:00Z"), Revision: 3, Evidence: "ControllerRevision prod/log-agent-7f9d8c6b4",
			RevisionHash: "7f9d8c6b4"},
		{Kind: "DaemonSet", Namespace: "prod", Name: "log-agent", Field: ctr + ".resources.requests.memory", Before: "100Mi", After: "50Mi",
			Since: at("2023-02-01T17:05:00Z"), Until: at("2023-02-01T17:05:00Z"), Revision: 3, Evidence: "ControllerRevision prod/log-agent-7f9d8c6b4",
			RevisionHash: "7f9d8c6b4"},
	}
	got := History(objs)
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Change{}, "Source"), textsOnly); diff != "" {
		t.Errorf("History (-want +got):\n%s", diff)
	}
	for i, line := range []int{100, 104, 104} { // db-6b8f7c5d9, log-agent-7f9d8c6b4
		if i < len(got) && (got[i].Source.File != "controllerrevisions.json" || int(got[i].Source.Line) != line) {
			t.Errorf("%s %s: read from %+v; want line %d, the later revision's", got[i].Name, got[i].Field, got[i].Source, line)
		}
	}
}
