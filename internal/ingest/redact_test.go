package ingest

import (
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/redact"
)

// TestPastedTextRedacted: what pasted text gives as JSON (a claim, the autoscaler's status) is
// redacted before it leaves the package, like any JSON input.
func TestPastedTextRedacted(t *testing.T) {
	paste := "# What happened\n\nThe pods were evicted because the disk filled up; the token=s3cr3t-value was in the logs too.\n"
	objs, _, err := decodeAll(t, "ticket.md", []byte(paste), Options{})
	if err != nil || len(objs) != 1 || objs[0].Kind != "Claim" {
		t.Fatalf("objects %v, err %v: want one claim", objs, err)
	}
	if raw := string(objs[0].Raw); strings.Contains(raw, "s3cr3t") || !strings.Contains(raw, redact.Redacted) {
		t.Errorf("the claim keeps the secret: %s", raw)
	}
}

// TestControllerRevisionKept: a StatefulSet's ControllerRevision (kubectl get controllerrevisions
// -o json) is kept, as the history of the template it holds, and the environment values in that
// template are redacted like a workload's.
func TestControllerRevisionKept(t *testing.T) {
	const rev = `{"apiVersion": "apps/v1", "kind": "ControllerRevision", "revision": 2,
		"metadata": {"name": "db-6c5d8f7b9", "namespace": "prod", "uid": "rev-2",
			"ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "db", "uid": "sts-1", "controller": true}]},
		"data": {"spec": {"template": {"spec": {"containers": [{"name": "db", "image": "postgres:16",
			"env": [{"name": "POSTGRES_PASSWORD", "value": "hunter2"}],
			"args": ["--password=hunter2"]}]}}}}}`
	objs, skipped, err := decodeAll(t, "revisions.json", []byte(rev), Options{})
	if err != nil || len(objs) != 1 || len(skipped) != 0 {
		t.Fatalf("decoded %d objects, skipped %v, err %v", len(objs), skipped, err)
	}
	o := objs[0]
	if o.Kind != "ControllerRevision" || o.Name != "db-6c5d8f7b9" || o.UID != "rev-2" {
		t.Errorf("kept as %s %s (uid %q)", o.Kind, o.Name, o.UID)
	}
	if strings.Contains(string(o.Raw), "hunter2") || !strings.Contains(string(o.Raw), `"postgres:16"`) {
		t.Errorf("stored JSON: %s", o.Raw)
	}
}
