package ingest

import (
	"strings"
	"testing"
)

// TestScrubPrefilter: the cheap checks never let through text the regular expressions would
// redact, including Unicode that folds onto the secret words.
func TestScrubPrefilter(t *testing.T) {
	texts := []string{"", "0/126 nodes are available", "TOKEN=abc", "my Api-Key: x", "ſecret=1", "apiKey=x", "Bearer abc.def",
		"PASSWD='x y'", "pwd:hunter2", "credentials = a", "no secrets here", "kEy=1", "dbpw=x", "--pass x", "a://b:c@d",
		"BASIC dXNlcjpodW50ZXIy", "Cookie: a=b", "-----BEGIN RSA PRIVATE KEY-----\nMII\n-----END RSA PRIVATE KEY-----", "ſecret=1 http://a:b@c"}
	for i := range 2000 {
		b := make([]byte, i%40)
		for j := range b {
			b[j] = "sekrtonpawdbycui=:/@- ſK\u212a"[(i*7+j*13)%28]
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		if got, want := scrub(s), scrubText(s, true); got != want {
			t.Errorf("scrub(%q) = %q, but the rules give %q: the prefilter lets it through", s, got, want)
		}
	}
}

// TestSecretNamePrefilter: likewise for the names of annotations and headers.
func TestSecretNamePrefilter(t *testing.T) {
	names := []string{"", "kubectl.kubernetes.io/restartedAt", "X-Auth-Token", "API_KEY", "ſession", "\u212aey", "Set-Cookie",
		"cluster-autoscaler.kubernetes.io/scale-down-disabled", "webhook-CERT", "SIGNATURE", "Passwd", "pwd", "credentials"}
	for i := range 3000 {
		b := make([]byte, i%40)
		for j := range b {
			b[j] = "sekrtonpawdbycuhil-_.: ſK\u212a"[(i*7+j*13)%28]
		}
		names = append(names, string(b))
	}
	for _, s := range names {
		if secretName.MatchString(s) != isSecretName(s) {
			t.Errorf("isSecretName(%q) = %v, the regular expression says %v", s, isSecretName(s), secretName.MatchString(s))
		}
		if credentialName.MatchString(s) != isCredentialName(s) {
			t.Errorf("isCredentialName(%q) = %v, the regular expression says %v", s, isCredentialName(s), credentialName.MatchString(s))
		}
	}
}

// TestPastedTextRedacted: what pasted text gives as JSON (a claim, the autoscaler's status) is
// redacted before it leaves the package, like any JSON input.
func TestPastedTextRedacted(t *testing.T) {
	paste := "# What happened\n\nThe pods were evicted because the disk filled up; the token=s3cr3t-value was in the logs too.\n"
	objs, _, err := decodeAll(t, "ticket.md", []byte(paste), Options{})
	if err != nil || len(objs) != 1 || objs[0].Kind != "Claim" {
		t.Fatalf("objects %v, err %v: want one claim", objs, err)
	}
	if raw := string(objs[0].Raw); strings.Contains(raw, "s3cr3t") || !strings.Contains(raw, Redacted) {
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
