package ingest

import (
	"strings"
	"testing"
)

// podSpecWithSecrets is a pod spec, indented for a Pod (4) or a template (8), whose containers,
// init containers and ephemeral containers carry secrets in every place a command line, a
// header or a URL can: command, args (a flag's value given as the next argument, a URL with a
// password), lifecycle hooks (an exec command, an httpGet header), env and probes.
const podSpecWithSecrets = `
  containers:
  - name: app
    image: example/app:1.2@sha256:0123abcd
    command: ["sh", "-c", "PASSWORD=hunter2-cmd ./init --listen :8080"]
    args: ["--password", "hunter2-arg", "--db-url=postgres://app:s3cret-url@db:5432/app", "--port", "8080", "--log-level=debug"]
    env:
    - {name: DB_PASSWORD, value: hunter2-env}
    - {name: PLAIN, value: not-secret-but-still-redacted}
    resources:
      requests: {cpu: 250m, memory: 128Mi}
    lifecycle:
      postStart:
        exec:
          command: ["sh", "-c", "PASSWORD=hunter2-poststart ./warm --user admin"]
      preStop:
        httpGet:
          path: /shutdown
          port: 8080
          httpHeaders:
          - {name: Authorization, value: "Bearer hunter2-prestop"}
          - {name: X-Request-Source, value: kubelet-prestop}
    livenessProbe:
      httpGet:
        path: /health
        port: 8080
        httpHeaders:
        - {name: Authorization, value: "Bearer hunter2-probe"}
  initContainers:
  - name: migrate
    image: example/migrate:3
    command: ["/migrate", "--db-password", "hunter2-init", "--dsn", "mysql://root:s3cret-init@mysql:3306/app"]
    args: ["--api-key=hunter2-initarg", "--timeout=30s"]
  ephemeralContainers:
  - name: debugger
    image: busybox:1.36
    command: ["sh", "-c", "curl -H 'Authorization: Basic dXNlcjpodW50ZXIy' -H 'X-Api-Key: hunter2-curl' http://api:8080/ --password hunter2-eph"]
    args: ["--token", "hunter2-ephtoken", "--verbose"]
`

// podSpecKeeps are the parts of podSpecWithSecrets that are evidence, not secrets.
var podSpecKeeps = []string{
	`"--password"`, `"--db-url=postgres://app:[redacted]@db:5432/app"`, `"--port"`, `"8080"`, `"--log-level=debug"`,
	"./init --listen :8080", "PASSWORD=[redacted]", "./warm --user admin", "example/app:1.2@sha256:0123abcd",
	`"DB_PASSWORD"`, `"Authorization"`, "kubelet-prestop", "Bearer [redacted]", "/shutdown", "/health",
	`"--db-password"`, `"--dsn"`, "mysql://root:[redacted]@mysql:3306/app", "--api-key=[redacted]", "--timeout=30s",
	"Basic [redacted]", "X-Api-Key: [redacted]", "http://api:8080/", `"--token"`, `"--verbose"`,
	`"250m"`, `"128Mi"`, "busybox:1.36",
}

// indent indents every line of s by n spaces.
func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	lines := strings.Split(strings.Trim(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pad + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// template is a workload of kind whose pod template (under path, the keys leading to it) holds
// podSpecWithSecrets.
func template(kind, apiVersion string, path ...string) string {
	var b strings.Builder
	b.WriteString("apiVersion: " + apiVersion + "\nkind: " + kind + "\nmetadata: {name: app, namespace: prod, uid: u-" + kind + "}\n")
	n := 0
	for _, p := range path {
		b.WriteString(strings.Repeat(" ", n) + p + ":\n")
		n += 2
	}
	b.WriteString(strings.Repeat(" ", n) + "spec:\n")
	b.WriteString(indent(podSpecWithSecrets, n+2))
	return b.String()
}

const podWithSecrets = `apiVersion: v1
kind: Pod
metadata:
  name: app-0
  namespace: prod
  uid: u-pod
  annotations:
    example.com/api-token: hunter2-annotation
    example.com/note: "rotated; password=hunter2-annotext"
    kubectl.kubernetes.io/last-applied-configuration: '{"env":[{"name":"X","value":"hunter2-lastapplied"}]}'
spec:
  nodeName: node-a
` + "%SPEC%" + `status:
  phase: Running
  message: "0/5 nodes are available: 2 Insufficient cpu, 3 node(s) didn't match Pod's node affinity/selector."
  conditions:
  - type: PodScheduled
    status: "False"
    reason: Unschedulable
    message: "0/5 nodes are available: 2 Insufficient cpu, 3 node(s) didn't match Pod's node affinity/selector."
  initContainerStatuses:
  - name: migrate
    image: example/migrate:3
    imageID: docker-pullable://example/migrate@sha256:0123abcd
    ready: false
    restartCount: 4
    state:
      terminated: {exitCode: 1, reason: Error, message: "error: password=hunter2-initmsg rejected by server"}
  containerStatuses:
  - name: app
    image: example/app:1.2
    ready: false
    restartCount: 3
    state:
      terminated: {exitCode: 1, reason: Error, message: "connect postgres://app:s3cret-state@db:5432 failed: timeout"}
    lastState:
      terminated: {exitCode: 1, reason: Error, message: "error: password=hunter2-last rejected"}
  ephemeralContainerStatuses:
  - name: debugger
    image: busybox:1.36
    ready: false
    restartCount: 0
    state:
      waiting: {reason: CrashLoopBackOff, message: "back-off: login failed, Authorization: Bearer hunter2-waiting"}
`

// podKeeps are the parts of podWithSecrets that are evidence, not secrets.
var podKeeps = []string{
	"rejected by server", "connect postgres://app:[redacted]@db:5432 failed: timeout", "error: password=[redacted] rejected",
	"0/5 nodes are available: 2 Insufficient cpu, 3 node(s) didn't match Pod's node affinity/selector.",
	"CrashLoopBackOff", `"Unschedulable"`, "docker-pullable://example/migrate@sha256:0123abcd", "node-a", "rotated; password=[redacted]",
}

const configMapWithSecrets = `apiVersion: v1
kind: ConfigMap
metadata:
  name: cluster-autoscaler-status
  namespace: kube-system
  uid: u-cm
data:
  status: |
    Cluster-autoscaler status at 2024-01-04 17:00:00 +0000 UTC:
    Cluster-wide:
      Health:      Healthy (ready=5 unready=0 notStarted=0 longNotStarted=0 registered=5 longUnregistered=0)
      ScaleUp:     NoActivity (ready=5 registered=5)
  dbpw: hunter2-dbpw
  db_password: hunter2-dbpassword
  apiKey: hunter2-apikey
  secret_token: hunter2-secrettoken
  DB_PASS: hunter2-dbpass
  config.yaml: |
    database:
      host: db
      password: hunter2-inconfig
      pool: 5
  max-node-provision-time: 15m
`

// describeWithSecrets is kubectl describe pod output: its Command, Args and Environment
// carry secrets, and so does the message of its last termination.
const describeWithSecrets = `Name:             app-0
Namespace:        prod
Node:             node-b/10.1.0.7
Status:           Running
IP:               10.0.0.14
Containers:
  app:
    Container ID:   containerd://abc
    Image:          example/app:1.2
    Command:
      sh
      -c
      PASSWORD=hunter2-dcmd ./init
    Args:
      --password
      hunter2-darg
      --db-url=postgres://app:s3cret-durl@db
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       Error
      Message:      connect postgres://app:s3cret-dmsg@db:5432 failed; password=hunter2-dmsg rejected
      Exit Code:    1
      Started:      Thu, 04 Jan 2024 17:50:00 +0000
      Finished:     Thu, 04 Jan 2024 17:51:00 +0000
    Ready:          False
    Restart Count:  2
    Limits:
      cpu:     500m
      memory:  256Mi
    Requests:
      cpu:      250m
      memory:   128Mi
    Environment:
      DB_PASSWORD:  hunter2-denv
      API_KEY:      hunter2-dkey
    Mounts:         <none>
Events:
  Type     Reason     Age   From     Message
  ----     ------     ----  ----     -------
  Warning  BackOff    2m    kubelet  Back-off restarting failed container app in pod app-0_prod(0b1c)
`

// describeDeploymentWithSecrets is kubectl describe deployment output: its pod template's
// Command, Args and Environment carry secrets; an event line pasted after it, too.
const describeDeploymentWithSecrets = `Name:                   app
Namespace:              prod
Selector:               app=app
Replicas:               3 desired | 3 updated | 3 total | 0 available | 3 unavailable
Pod Template:
  Labels:  app=app
  Containers:
   app:
    Image:      example/app:1.2
    Command:
      sh
      -c
      PASSWORD=hunter2-ddcmd ./init
    Args:
      --password
      hunter2-ddarg
      --db-url=postgres://app:s3cret-ddurl@db
    Environment:
      DB_PASSWORD:  hunter2-ddenv
    Mounts:         <none>
Events:
  Type    Reason             Age   From                   Message
  ----    ------             ----  ----                   -------
  Normal  ScalingReplicaSet  10m   deployment-controller  Scaled up replica set app-7c9 to 3

Warning  BackOff  2m  kubelet  Back-off restarting failed container app: connect postgres://app:s3cret-ev@db failed, password=hunter2-ev
`

// TestRedactFields: every field that may carry a secret (a command line, a flag's value, a
// header, a URL's password, a container's termination message, a credential-named ConfigMap
// key) is redacted wherever it appears (a Pod, each workload's pod template, a describe paste),
// and what is evidence around it is kept.
func TestRedactFields(t *testing.T) {
	tests := []struct {
		name, file, doc string
		keep            []string
	}{
		{"Pod", "pod.yaml", strings.Replace(podWithSecrets, "%SPEC%", indent(podSpecWithSecrets, 0), 1), append(podKeeps, podSpecKeeps...)},
		{"Deployment", "deploy.yaml", template("Deployment", "apps/v1", "spec", "template"), podSpecKeeps},
		{"StatefulSet", "sts.yaml", template("StatefulSet", "apps/v1", "spec", "template"), podSpecKeeps},
		{"DaemonSet", "ds.yaml", template("DaemonSet", "apps/v1", "spec", "template"), podSpecKeeps},
		{"ReplicaSet", "rs.yaml", template("ReplicaSet", "apps/v1", "spec", "template"), podSpecKeeps},
		{"Job", "job.yaml", template("Job", "batch/v1", "spec", "template"), podSpecKeeps},
		{"CronJob", "cronjob.yaml", template("CronJob", "batch/v1", "spec", "jobTemplate", "spec", "template"), podSpecKeeps},
		{"ConfigMap", "cm.yaml", configMapWithSecrets, []string{`"dbpw"`, `"db_password"`, `"apiKey"`, `"secret_token"`, `"DB_PASS"`,
			"ScaleUp:     NoActivity (ready=5 registered=5)", "host: db", "password: [redacted]", "pool: 5", `"15m"`}},
		{"describe", "describe.txt", describeWithSecrets, []string{"CrashLoopBackOff", "example/app:1.2", "250m",
			"connect postgres://app:[redacted]@db:5432 failed; password=[redacted] rejected"}},
		{"describe Deployment", "describe-deploy.txt", describeDeploymentWithSecrets, []string{"Scaled up replica set app-7c9 to 3",
			"Back-off restarting failed container app: connect postgres://app:[redacted]@db failed, password=[redacted]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Decoded for the store, and for analysis alone: a pod is then decoded straight
			// into what Rootline keeps of it, which must be as redacted.
			var got string
			for _, opts := range []Options{{Unstored: true}, {}} {
				objs, skipped, err := decodeAll(t, tt.file, []byte(tt.doc), opts)
				if err != nil || len(objs) == 0 {
					t.Fatalf("decoded %d objects (skipped %v), err %v", len(objs), skipped, err)
				}
				var b strings.Builder
				for _, o := range objs {
					raw, err := o.JSON()
					if err != nil {
						t.Fatal(err)
					}
					b.Write(raw)
				}
				got = b.String()
				for _, secret := range []string{"hunter2", "s3cret", "dXNlcjpodW50ZXIy"} {
					if i := strings.Index(got, secret); i >= 0 {
						t.Errorf("unstored %v: %s survives redaction: …%s…", opts.Unstored, secret, got[max(0, i-80):min(len(got), i+40)])
					}
				}
			}
			for _, k := range tt.keep {
				if !strings.Contains(got, k) {
					t.Errorf("redaction removed evidence %q:\n%s", k, got)
				}
			}
		})
	}
}
