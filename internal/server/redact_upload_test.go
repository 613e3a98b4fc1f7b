package server_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// redactSpec is a pod spec, at indentation 0, that carries credentials in every place a
// command line, a header or a URL can: command and args (a flag's value as the next argument,
// a URL with a password, NAME=value in a shell string, a password as a program's short option:
// mysqladmin's -p with the program in the command and the option in the args, curl's -u
// user:password in an exec probe, mysql's -p in a shell line), lifecycle hooks, probes and env,
// in containers, init containers and ephemeral containers.
const redactSpec = `containers:
- name: app
  image: example/app:1.2
  command: ["sh", "-c", "PASSWORD=hunter2-a ./init"]
  args: ["--password", "hunter2-b", "--db-url=postgres://app:s3cret-c@db:5432/app", "--port", "8080"]
  env: [{name: DB_PASSWORD, value: hunter2-d}]
  lifecycle:
    postStart: {exec: {command: ["sh", "-c", "PASSWORD=hunter2-e ./warm"]}}
    preStop: {httpGet: {path: /stop, port: 8080, httpHeaders: [{name: Authorization, value: "Bearer hunter2-f"}]}}
  readinessProbe: {httpGet: {path: /ready, port: 8080, httpHeaders: [{name: X-Api-Key, value: hunter2-g}]}}
- name: db-check
  image: example/db-check:1
  command: ["mysqladmin"]
  args: ["ping", "-h", "db", "-u", "root", "-p", "hunter2-v"]
  livenessProbe: {exec: {command: ["curl", "-sf", "-u", "probe:hunter2-w", "http://localhost:8080/health"]}}
  readinessProbe: {exec: {command: ["sh", "-c", "mysql -uroot -phunter2-x -e 'select 1'"]}}
initContainers:
- name: migrate
  image: example/migrate:3
  command: ["/migrate", "--db-password", "hunter2-h", "--dsn", "mysql://root:s3cret-i@mysql/app"]
ephemeralContainers:
- name: debug
  image: busybox:1.36
  command: ["sh", "-c", "curl -H 'Authorization: Basic aHVudGVyMi1qOng=' http://app:8080/ --password hunter2-k"]
  args: ["--token", "hunter2-l"]
`

// redactStatus is a pod status whose containers' terminations print credentials.
const redactStatus = `phase: Running
initContainerStatuses:
- name: migrate
  image: example/migrate:3
  ready: false
  restartCount: 2
  state: {terminated: {exitCode: 1, reason: Error, message: "error: password=hunter2-m rejected"}}
containerStatuses:
- name: app
  image: example/app:1.2
  ready: false
  restartCount: 3
  state: {terminated: {exitCode: 1, reason: Error, message: "connect postgres://app:s3cret-n@db:5432 failed"}}
  lastState: {terminated: {exitCode: 1, reason: Error, message: "error: password=hunter2-o rejected"}}
`

// redactIndent indents every line of s by n spaces.
func redactIndent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pad + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// redactWorkload is a workload whose pod template, under path, has redactSpec.
func redactWorkload(kind, apiVersion string, path ...string) string {
	var b strings.Builder
	b.WriteString("---\napiVersion: " + apiVersion + "\nkind: " + kind + "\nmetadata: {name: app, namespace: prod, uid: u-" + kind + "}\n")
	n := 0
	for _, p := range append(path, "spec") {
		b.WriteString(strings.Repeat(" ", n) + p + ":\n")
		n += 2
	}
	b.WriteString(redactIndent(redactSpec, n))
	return b.String()
}

// redactUpload is a multi-document YAML upload: a Pod, each workload with a pod template, the
// cluster-autoscaler-status ConfigMap with credential-named keys, and an Event.
func redactUpload() string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Pod\nmetadata:\n  name: app-0\n  namespace: prod\n  uid: u-pod\n" +
		"  annotations: {example.com/api-token: hunter2-p, example.com/dbpw: hunter2-q}\nspec:\n  nodeName: node-a\n")
	b.WriteString(redactIndent(redactSpec, 2))
	b.WriteString("status:\n" + redactIndent(redactStatus, 2))
	b.WriteString(redactWorkload("Deployment", "apps/v1", "spec", "template"))
	b.WriteString(redactWorkload("StatefulSet", "apps/v1", "spec", "template"))
	b.WriteString(redactWorkload("DaemonSet", "apps/v1", "spec", "template"))
	b.WriteString(redactWorkload("Job", "batch/v1", "spec", "template"))
	b.WriteString(redactWorkload("CronJob", "batch/v1", "spec", "jobTemplate", "spec", "template"))
	b.WriteString(`---
apiVersion: v1
kind: ConfigMap
metadata: {name: cluster-autoscaler-status, namespace: kube-system, uid: u-cm}
data:
  status: |
    Cluster-autoscaler status at 2024-01-04 17:00:00 +0000 UTC:
    Cluster-wide:
      Health:      Healthy (ready=5 unready=0 notStarted=0 longNotStarted=0 registered=5 longUnregistered=0)
      ScaleUp:     NoActivity (ready=5 registered=5)
  dbpw: hunter2-r
  db_password: hunter2-s
  apiKey: hunter2-t
  secret_token: hunter2-u
---
apiVersion: v1
kind: Event
metadata: {name: app-0.1, namespace: prod, uid: u-ev}
involvedObject: {kind: Pod, namespace: prod, name: app-0}
reason: BackOff
type: Warning
message: "Back-off restarting failed container app: connect postgres://app:s3cret-v@db failed, password=hunter2-w"
`)
	return b.String()
}

// redactDescribe is kubectl describe pod output whose Command, Args, Environment and last
// termination message carry credentials.
const redactDescribe = `Name:             web-0
Namespace:        prod
Node:             node-b/10.1.0.7
Status:           Running
Containers:
  web:
    Container ID:   containerd://abc
    Image:          example/web:1.2
    Command:
      sh
      -c
      PASSWORD=hunter2-x ./init
    Args:
      --password
      hunter2-y
      --db-url=postgres://app:s3cret-z@db
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       Error
      Message:      connect postgres://app:s3cret-aa@db:5432 failed; password=hunter2-bb rejected
      Exit Code:    1
    Ready:          False
    Restart Count:  2
    Environment:
      DB_PASSWORD:  hunter2-cc
    Mounts:         <none>
Events:
  Type     Reason   Age  From     Message
  ----     ------   ---  ----     -------
  Warning  BackOff  2m   kubelet  Back-off restarting failed container web in pod web-0_prod(0b1c)
`

// TestUploadRedactsCommandLines uploads, on each database, a Pod, every workload with a pod
// template, the autoscaler's ConfigMap, an Event and a describe paste that carry credentials in
// command lines, flags, hooks, headers, URLs, termination messages and ConfigMap keys, and
// proves that no credential is anywhere in the database while the evidence around them is.
func TestUploadRedactsCommandLines(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "red", "title": "credentials in command lines"}`)
		for _, up := range []struct{ name, contentType, body string }{
			{"objects.yaml", "application/yaml", redactUpload()},
			{"describe.txt", "text/plain", redactDescribe},
		} {
			status, b := call(t, "POST", base+"/api/v1/incidents/red/snapshots?name="+up.name, up.contentType, strings.NewReader(up.body))
			if status != http.StatusCreated {
				t.Fatalf("upload %s: %d %s", up.name, status, b)
			}
			for _, secret := range []string{"hunter2", "s3cret", "aHVudGVyMi"} {
				if strings.Contains(string(b), secret) {
					t.Errorf("the answer to %s echoes %s: %s", up.name, secret, b)
				}
			}
		}
		var all bytes.Buffer
		err := storetest.EachValue(t, bk.Target, func(table, column string, v []byte) error {
			for _, secret := range []string{"hunter2", "s3cret", "aHVudGVyMi"} {
				if i := bytes.Index(v, []byte(secret)); i >= 0 {
					t.Errorf("%s.%s holds %s: …%s…", table, column, secret, v[max(0, i-80):min(len(v), i+40)])
				}
			}
			all.Write(v)
			all.WriteByte('\n')
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// What is evidence is kept: the object names, the flags, the URLs' users and hosts, the
		// reasons, the autoscaler's status.
		for _, keep := range []string{`"--password"`, "--db-url=postgres://app:[redacted]@db:5432/app", "PASSWORD=[redacted] ./init",
			"mysql://root:[redacted]@mysql/app", "Bearer [redacted]", "Basic [redacted]", `"--token"`, "error: password=[redacted] rejected",
			"connect postgres://app:[redacted]@db:5432 failed", `"dbpw"`, "ScaleUp:     NoActivity", `"CronJob"`, `"DaemonSet"`,
			"example/migrate:3", "web-0", "CrashLoopBackOff", `"-p","[redacted]"`, `"probe:[redacted]"`, "mysql -uroot -p[redacted] -e"} {
			if !bytes.Contains(all.Bytes(), []byte(keep)) {
				t.Errorf("no stored value holds %q: redaction removed evidence", keep)
			}
		}
	})
}
