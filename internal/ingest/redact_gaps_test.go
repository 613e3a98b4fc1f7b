package ingest

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// probePaths are HTTP probe paths that carry a credential in each form the rules of text give
// one in a URL (internal/redact/text.go): a credential-named query parameter, among others or
// alone, under the names a token, a key, a password or an auth value go by, and the password
// of a URL given in the query. Each maps to what must be stored: the path, the parameters'
// names and the other parameters kept, the values redacted.
var probePaths = map[string]string{
	"/health?token=hunter2-token":                                 "/health?token=[redacted]",
	"/healthz?verbose=1&api_key=hunter2-apikey&format=json":       "/healthz?verbose=1&api_key=[redacted]&format=json",
	"/ready?password=hunter2-password":                            "/ready?password=[redacted]",
	"/started?access_token=hunter2-access":                        "/started?access_token=[redacted]",
	"/live?client_secret=hunter2-client":                          "/live?client_secret=[redacted]",
	"/status?apiKey=hunter2-camel":                                "/status?apiKey=[redacted]",
	"/check?auth=hunter2-auth":                                    "/check?auth=[redacted]",
	"/metrics?user=admin&passwd=hunter2-passwd":                   "/metrics?user=admin&passwd=[redacted]",
	"/ping?x-api-key=hunter2-dashed":                              "/ping?x-api-key=[redacted]",
	"/db?pwd=hunter2-pwd&db=app":                                  "/db?pwd=[redacted]&db=app",
	"/probe?target=http://admin:hunter2-userinfo@backend:8080/up": "/probe?target=http://admin:[redacted]@backend:8080/up",
	"/healthz":              "/healthz",
	"/healthz?verbose=true": "/healthz?verbose=true",
}

// probesDoc is a Pod (JSON) whose app container, sidecar init container (restartPolicy Always,
// which may have probes) and migrate init container have HTTP liveness, readiness and startup
// probes, and a preStop hook, on the paths of probePaths, in turn; probesWant maps each
// "container/probe" to the path it must keep.
func probesDoc() (doc string, want map[string]string) {
	paths := slices.Sorted(maps.Keys(probePaths)) // 13 paths for 16 probes and hooks: each at least once
	want = map[string]string{}
	next := 0
	httpGet := func(container, probe string) map[string]any {
		p := paths[next%len(paths)]
		next++
		want[container+"/"+probe] = probePaths[p]
		return map[string]any{"httpGet": map[string]any{"path": p, "port": 8080}}
	}
	container := func(name string, sidecar bool) map[string]any {
		c := map[string]any{"name": name, "image": "example/" + name + ":1",
			"livenessProbe":  httpGet(name, "liveness"),
			"readinessProbe": httpGet(name, "readiness"),
			"startupProbe":   httpGet(name, "startup"),
			"lifecycle":      map[string]any{"preStop": httpGet(name, "preStop")},
		}
		if sidecar {
			c["restartPolicy"] = "Always"
		}
		return c
	}
	pod := map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "app-0", "namespace": "prod", "uid": "u-probes"},
		"spec": map[string]any{
			"nodeName":       "node-a",
			"initContainers": []any{container("migrate", false), container("proxy", true)},
			"containers":     []any{container("app", false), container("worker", false)},
		},
		"status": map[string]any{"phase": "Running"},
	}
	b, err := json.Marshal(pod)
	if err != nil {
		panic(err)
	}
	return string(b), want
}

// probesOf maps each "container/probe" of a pod's containers and init containers to its HTTP
// path.
// storedPod is the pod o holds as the store keeps it: its whole JSON, decoded.
func storedPod(t *testing.T, o *cluster.Object) *corev1.Pod {
	t.Helper()
	raw, err := o.JSON()
	if err != nil {
		t.Fatal(err)
	}
	p := new(corev1.Pod)
	if err := json.Unmarshal(raw, p); err != nil {
		t.Fatal(err)
	}
	return p
}

func probesOf(p *corev1.Pod) map[string]string {
	got := map[string]string{}
	for _, list := range [][]corev1.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for _, c := range list {
			for name, pr := range map[string]*corev1.Probe{"liveness": c.LivenessProbe, "readiness": c.ReadinessProbe, "startup": c.StartupProbe} {
				if pr != nil && pr.HTTPGet != nil {
					got[c.Name+"/"+name] = pr.HTTPGet.Path
				}
			}
			if l := c.Lifecycle; l != nil && l.PreStop != nil && l.PreStop.HTTPGet != nil {
				got[c.Name+"/preStop"] = l.PreStop.HTTPGet.Path
			}
		}
	}
	return got
}

// onePod decodes doc as name and returns the one pod it holds, typed.
func onePod(t *testing.T, name, doc string) *cluster.Object {
	t.Helper()
	return onePodWith(t, name, doc, Options{})
}

// onePodWith is onePod decoding with opts.
func onePodWith(t *testing.T, name, doc string, opts Options) *cluster.Object {
	t.Helper()
	objs, skipped, err := decodeAll(t, name, []byte(doc), opts)
	var pods []*cluster.Object
	for _, o := range objs {
		if o.Pod != nil {
			pods = append(pods, o)
		}
	}
	if err != nil || len(pods) != 1 {
		t.Fatalf("decoded %d objects, %d of them pods (skipped %v), err %v: want one pod", len(objs), len(pods), skipped, err)
	}
	return pods[0]
}

// noSecret fails t if the stored JSON of o holds "hunter2".
func noSecret(t *testing.T, o *cluster.Object) string {
	t.Helper()
	raw, err := o.JSON()
	if err != nil {
		t.Fatal(err)
	}
	got := string(raw)
	if i := strings.Index(got, "hunter2"); i >= 0 {
		t.Errorf("a secret survives redaction: …%s…", got[max(0, i-80):min(len(got), i+40)])
	}
	return got
}

// TestProbePathCredentialsRedacted: a credential in the path or query of an HTTP probe
// (liveness, readiness, startup) or preStop hook, of a container or an init container, is
// redacted before the pod is stored, in every form the rules know (token=, api_key=,
// password=, a URL's password…), while the path, the parameters' names and the other
// parameters stay as evidence; a path without a credential is kept as it is. The pod is read
// from JSON, from YAML, as an item of a List, from a pasted kubectl describe, and in a
// Deployment's pod template.
func TestProbePathCredentialsRedacted(t *testing.T) {
	t.Parallel()
	doc, want := probesDoc()
	var yamlDoc strings.Builder
	{ // JSON is YAML; reformat it as block YAML all the same, the form people paste.
		var v any
		if err := json.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatal(err)
		}
		writeYAML(&yamlDoc, v, 0)
	}
	list := `{"apiVersion": "v1", "kind": "List", "items": [` + doc + `]}`
	for _, tt := range []struct{ name, file, doc string }{
		{"json", "pod.json", doc},
		{"yaml", "pod.yaml", yamlDoc.String()},
		{"list", "pods.json", list},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := onePod(t, tt.file, tt.doc)
			got := probesOf(storedPod(t, o))
			for k, w := range want {
				if got[k] != w {
					t.Errorf("%s: path %q stored, want %q", k, got[k], w)
				}
			}
			if len(got) != len(want) {
				t.Errorf("%d probe paths stored, want %d: %v", len(got), len(want), got)
			}
			noSecret(t, o)
		})
	}
	t.Run("describe", func(t *testing.T) {
		// kubectl describe prints each probe's URL; the reader keeps its path (not, today, its
		// query), and no credential of the query may reach the store whatever it keeps.
		t.Parallel()
		describe := "Name:         app-0\nNamespace:    prod\nNode:         node-a/10.0.0.5\nStatus:       Running\nIP:           10.0.0.14\n" +
			"Containers:\n  app:\n    Image:          example/app:1\n    State:          Running\n    Ready:          True\n    Restart Count:  0\n" +
			"    Liveness:       http-get http://:8080/healthz?token=hunter2-live&verbose=1 delay=10s timeout=1s period=10s #success=1 #failure=3\n" +
			"    Readiness:      http-get http://:8080/ready?api_key=hunter2-ready delay=0s timeout=1s period=5s #success=1 #failure=3\n" +
			"    Startup:        http-get https://:8443/started?password=hunter2-start delay=0s timeout=1s period=10s #success=1 #failure=30\n"
		o := onePod(t, "describe.txt", describe)
		got := probesOf(storedPod(t, o))
		for k, w := range map[string]string{"app/liveness": "/healthz", "app/readiness": "/ready", "app/startup": "/started"} {
			if !strings.HasPrefix(got[k], w) {
				t.Errorf("%s: path %q stored, want %s and what follows it", k, got[k], w)
			}
		}
		noSecret(t, o)
	})
	t.Run("deployment", func(t *testing.T) {
		t.Parallel()
		var pod map[string]any
		if err := json.Unmarshal([]byte(doc), &pod); err != nil {
			t.Fatal(err)
		}
		dep, err := json.Marshal(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]any{"name": "app", "namespace": "prod", "uid": "u-deploy"},
			"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": "app"}},
				"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "app"}}, "spec": pod["spec"]}}})
		if err != nil {
			t.Fatal(err)
		}
		objs, skipped, err := decodeAll(t, "deploy.json", dep, Options{})
		if err != nil || len(objs) != 1 {
			t.Fatalf("decoded %d objects (skipped %v), err %v", len(objs), skipped, err)
		}
		got := noSecret(t, objs[0])
		for _, w := range want {
			if b, _ := json.Marshal(w); !strings.Contains(got, `"path":`+string(b)) {
				t.Errorf("the template lost the path %s:\n%s", b, got)
			}
		}
	})
}

// writeYAML writes v, decoded from JSON, as block YAML indented by n; strings are quoted (as
// JSON, which YAML reads).
func writeYAML(b *strings.Builder, v any, n int) {
	pad := strings.Repeat(" ", n)
	switch t := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(t)) {
			switch c := t[k].(type) {
			case map[string]any, []any:
				b.WriteString(pad + k + ":\n")
				writeYAML(b, c, n+2)
			default:
				b.WriteString(pad + k + ": ")
				writeYAML(b, c, 0)
			}
		}
	case []any:
		for _, e := range t {
			b.WriteString(pad + "-\n")
			writeYAML(b, e, n+2)
		}
	default:
		s, _ := json.Marshal(t)
		b.Write(s)
		b.WriteString("\n")
	}
}

// statusMessages are messages a pod's status may carry that quote a credential, as a
// container's or an admission webhook's error does, in the forms the rules of text know; each
// maps to what must be stored: the message with only the credentials redacted. The last are
// messages without a credential, which must be kept as they are.
var statusMessages = map[string]string{
	"init failed: cannot connect to postgres://user:hunter2-url@db:5432/app: timeout":   "init failed: cannot connect to postgres://user:[redacted]@db:5432/app: timeout",
	"startup error: password=hunter2-assign rejected by server":                         "startup error: password=[redacted] rejected by server",
	`config invalid: {"api_key": "hunter2-json", "region": "eu-west-1"}`:                `config invalid: {"api_key": [redacted], "region": "eu-west-1"}`,
	"upstream said 401 to Authorization: Bearer hunter2-Bearer.eyJhbGciOi":              "upstream said 401 to Authorization: Bearer [redacted]",
	"exec ./migrate --db-password hunter2-flag --host db failed":                        "exec ./migrate --db-password [redacted] --host db failed",
	"DB_TOKEN=hunter2-env MYSQL_URL=mysql://root:hunter2-mysql@mysql:3306/app exited 1": "DB_TOKEN=[redacted] MYSQL_URL=mysql://root:[redacted]@mysql:3306/app exited 1",
	"The node was low on resource: memory. Threshold quantity: 100Mi, available: 91Mi.": "The node was low on resource: memory. Threshold quantity: 100Mi, available: 91Mi.",
	"Pod was rejected: password authentication failed for user app":                     "Pod was rejected: password authentication failed for user app",
}

// TestPodStatusMessageCredentialsRedacted: a credential quoted in a pod's status.message (a
// connection string's password, password=…, a JSON key, a bearer token, a flag's value) is
// redacted before the pod is stored (a quoted value, quotes and all), and the rest of the
// message kept; a message without one is stored as it is. The pod is read from JSON, from YAML, as an item of a List, and from a
// pasted kubectl describe.
func TestPodStatusMessageCredentialsRedacted(t *testing.T) {
	t.Parallel()
	for msg, want := range statusMessages {
		pod := map[string]any{"apiVersion": "v1", "kind": "Pod",
			"metadata": map[string]any{"name": "app-0", "namespace": "prod", "uid": "u-msg"},
			"spec":     map[string]any{"nodeName": "node-a", "containers": []any{map[string]any{"name": "app", "image": "example/app:1"}}},
			"status":   map[string]any{"phase": "Failed", "reason": "Evicted", "message": msg},
		}
		b, err := json.Marshal(pod)
		if err != nil {
			t.Fatal(err)
		}
		doc := string(b)
		var yamlDoc strings.Builder
		writeYAML(&yamlDoc, pod, 0)
		describe := "Name:         app-0\nNamespace:    prod\nNode:         node-a/10.0.0.5\nStatus:       Failed\n" +
			"Reason:       Evicted\nMessage:      " + msg + "\nIP:           10.0.0.14\n" +
			"Containers:\n  app:\n    Image:          example/app:1\n    State:          Terminated\n      Reason:       Error\n      Exit Code:    1\n"
		for _, tt := range []struct{ name, file, doc string }{
			{"json", "pod.json", doc},
			{"yaml", "pod.yaml", yamlDoc.String()},
			{"list", "pods.json", `{"apiVersion": "v1", "kind": "List", "items": [` + doc + `]}`},
			{"describe", "describe.txt", describe},
		} {
			t.Run(tt.name+"/"+strings.Fields(msg)[0], func(t *testing.T) {
				t.Parallel()
				// Stored, and analysed alone: decoded straight into what Rootline keeps.
				for _, opts := range []Options{{}, {Unstored: true}} {
					o := onePodWith(t, tt.file, tt.doc, opts)
					if got := o.Pod.Status.Message; got != want {
						t.Errorf("unstored %v: status.message kept as\n%q\nwant\n%q", opts.Unstored, got, want)
					}
					noSecret(t, o)
				}
			})
		}
	}
}
