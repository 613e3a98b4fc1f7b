package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCommandLinesLoseTheirCredentials: in a command line, typed or in a generic tree (an
// object of a kind without a type), the word after a credential flag is redacted whole,
// credentials inside other words are scrubbed, and the rest stays, the first word included.
func TestCommandLinesLoseTheirCredentials(t *testing.T) {
	args := []string{"--password", "hunter2", "--port", "5432", "--url=postgres://app:s3cret@db/app", "--token", "--verbose"}
	Args(args)
	want := []string{"--password", Redacted, "--port", "5432", "--url=postgres://app:" + Redacted + "@db/app", "--token", "--verbose"}
	if strings.Join(args, " ") != strings.Join(want, " ") {
		t.Errorf("Args: %q, want %q", args, want)
	}

	var tree any
	doc := `{"kind": "Widget", "spec": {
		"command": ["--password", "hunter2", "--port", "5432", "--url=postgres://app:s3cret@db/app"],
		"first": ["hunter2", "--password"],
		"nested": [{"note": "password=s3cret"}, ["--token", "t0k3n"]],
		"message": "connect postgres://app:s3cret@db failed",
		"env": [{"name": "DB_PASSWORD", "value": "s3cret"}, {"name": "EMPTY", "value": ""}],
		"options": {"password": "hunter2", "server": "nfs.internal"}},
		"managedFields": [{"manager": "kubectl"}]}`
	if err := json.Unmarshal([]byte(doc), &tree); err != nil {
		t.Fatal(err)
	}
	Tree(tree)
	b, _ := json.Marshal(tree)
	got := string(b)
	for _, secret := range []string{"s3cret", "t0k3n", `"--password","hunter2"`, `"password":"hunter2"`, "managedFields"} {
		if strings.Contains(got, secret) {
			t.Errorf("%s survives Tree: %s", secret, got)
		}
	}
	for _, keep := range []string{`"--port","5432"`, `"first":["hunter2","--password"]`, `"server":"nfs.internal"`, `{"name":"EMPTY","value":""}`, `"kind":"Widget"`} {
		if !strings.Contains(got, keep) {
			t.Errorf("Tree lost %s: %s", keep, got)
		}
	}
}

// TestTreeAnnotations: in a generic tree, the annotations whose names say they are secret (and
// kubectl's last-applied-configuration, which holds the whole object as applied, secrets
// included) lose their values whole; the others keep theirs, credentials inside them scrubbed.
func TestTreeAnnotations(t *testing.T) {
	t.Parallel()
	var tree any
	doc := `{"metadata": {"annotations": {
		"kubectl.kubernetes.io/last-applied-configuration": "{\"spec\":{\"replicas\":3}}",
		"example.com/api-token": "abc",
		"example.com/owner": "team-a",
		"example.com/source": "postgres://app:s3cret@db/app"}}}`
	if err := json.Unmarshal([]byte(doc), &tree); err != nil {
		t.Fatal(err)
	}
	Tree(tree)
	got := tree.(map[string]any)["metadata"].(map[string]any)["annotations"].(map[string]any)
	want := map[string]any{
		"kubectl.kubernetes.io/last-applied-configuration": Redacted,
		"example.com/api-token":                            Redacted,
		"example.com/owner":                                "team-a",
		"example.com/source":                               "postgres://app:" + Redacted + "@db/app",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("annotation %s = %q, want %q", k, got[k], v)
		}
	}
}

// TestKeyed: a map of text values (a ConfigMap's data, a volume's options, an alert's labels)
// loses the values of credential-named keys whole, credentials inside the others, and keeps the
// rest.
func TestKeyed(t *testing.T) {
	t.Parallel()
	m := map[string]string{"password": "hunter2", "api_key": "abc", "db_url": "postgres://app:s3cret@db/app", "owner": "team-a"}
	Keyed(m)
	want := map[string]string{"password": Redacted, "api_key": Redacted, "db_url": "postgres://app:" + Redacted + "@db/app", "owner": "team-a"}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s = %q, want %q", k, m[k], v)
		}
	}
}
