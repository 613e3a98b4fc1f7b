package text

import (
	"fmt"
	"testing"
)

func TestClean(t *testing.T) {
	tests := []struct {
		in   string
		want string
		kind lineKind
	}{
		{"> minecraft  3m26s  Warning", "minecraft  3m26s  Warning", kindText},
		{`{"log":"I0901 00:25:09.311469 1 event.go:291] \"Event occurred\" object=\"kube-system/etcd-m\"\n","stream":"stderr","time":"2021-09-01T00:25:09.3Z"}`,
			`I0901 00:25:09.311469 1 event.go:291] "Event occurred" object="kube-system/etcd-m"`, kindText}, // Docker's json-file log
		{`{"log":"not Docker's","level":"info"}`, `{"log":"not Docker's","level":"info"}`, kindText},
		{">     State:  Waiting", "    State:  Waiting", kindText},
		{"> > nested", "nested", kindText},
		{"```", "", kindSep},
		{"```text", "", kindSep},
		{"$ kubectl get pods", "", kindCommand},
		{"sre@k8s-controller-01:~$ kubectl describe pod x ", "", kindCommand},
		// bash with a directory and a git branch
		{"blair@system76-pc ~/jupyter-apis (lower-gpu-cpu-request)$ k describe pod -n ns x-0 | tail", "", kindCommand},
		// a line of output in inline code spans side by side
		{"`Warning  FailedScheduling  14s  default-scheduler  binding volumes:` `provisioning failed`", "Warning  FailedScheduling  14s  default-scheduler  binding volumes: provisioning failed", kindText},
		{"[root@master ~]# kubectl get ev", "", kindCommand},
		{"[root@oomaster1 ~]# oc get pods", "", kindCommand},
		{"(base) user@laptop ~ % kubectl get pods", "", kindCommand},
		{"bash-4.2$ kubectl get nodes", "", kindCommand},
		{"➜  ~ kubectl get po", "", kindCommand},
		{"# kubectl get events", "", kindCommand},
		{"» kubectl get pods", "", kindCommand},
		{"PS> kubectl get pods", "", kindCommand},
		{`PS C:\Users\me> kubectl get pods`, "", kindCommand},
		{`C:\Users\me>kubectl get pods`, "", kindCommand},
		{"% kubecetl describe pod x --namespace=kube-system", "", kindCommand},
		{"kubectl get pods -A -o wide", "", kindCommand},
		{"`kubectl get pods --namespace nasa-staging -o wide`", "", kindCommand},
		{"```kubectl get pods```", "", kindCommand},
		{"Every 2.0s: kubectl get pods                 host-1: Sun Dec 31 13:46:45 2017", "", kindCommand},
		{"# kubelet log shows that the pod was evicted", "# kubelet log shows that the pod was evicted", kindSep},
		{"##### Current Result", "##### Current Result", kindSep},
		{"$ df -h", "", kindSep},
		{"- CrashLoopBackOff everywhere", "CrashLoopBackOff everywhere", kindText},
		{"      -conf", "      -conf", kindText},
		{"| NAME | READY |", "NAME   READY", kindText},
		{"|---|:---:|", "", kindSkip},
		{"a\tb", "a       b", kindText},
		// a status a person set in italics (and bold, whose markers go first)
		{"hello-node-1538117351-qfewi   0/1       **_**ErrImagePull**_**   0          3m", "hello-node-1538117351-qfewi   0/1       ErrImagePull   0          3m", kindText},
		{"web-1   0/1   *CrashLoopBackOff*   5   3m", "web-1   0/1   CrashLoopBackOff   5   3m", kindText},
		{"my_var_name and __init__ stay", "my_var_name and __init__ stay", kindText},
		// a line of an array of strings, as Ansible's debug task prints a command's output
		{`        "web-1-deploy   0/1       CrashLoopBackOff   5          1h",`, "        web-1-deploy   0/1       CrashLoopBackOff   5          1h", kindText},
		{`        "say \"hi\"",`, `        say "hi"`, kindText},
		{`    "Predicate failed on Pod"`, `    "Predicate failed on Pod"`, kindText}, // a structured log's message wrapped alone
		{`        "reason": "Evicted",`, `        "reason": "Evicted",`, kindText},
		{`    "a", "b"`, `    "a", "b"`, kindText},
		{`    "a\nb",`, `    "a\nb",`, kindText},
		{"   \r", "", kindBlank},
		{"CPU was at 100% today", "CPU was at 100% today", kindText},
		{"<details>", "", kindSep},
		{"<summary> Typical node description</summary>", "", kindSep},
		{"<pre>Name:   node-1", "Name:   node-1", kindText},
		{"Status:&nbsp;&nbsp;Failed", "Status:  Failed", kindText},
		{"Node:  &lt;none&gt;", "Node:  <none>", kindText},
		{"Taints:  <none>", "Taints:  <none>", kindText},
		{"│   Type     Reason   Age   │", "  Type     Reason   Age", kindText},
		{"┌──────────────┐", "", kindSkip},
		{"web-1   0/1   **Evicted**   0   5m", "web-1   0/1   Evicted   0   5m", kindText},
		{"web-1   0/1   \x1b[31mEvicted\x1b[0m   0   5m", "web-1   0/1   Evicted   0   5m", kindText},
		{"After running oc describe pods ocean-operator-5d84dbbbf6-kx5rw -n openshift-operators", "", kindCommand},
		{"I ran `kubectl logs web-1`:", "", kindCommand},
		{"I ran kubectl describe pod web-1 and it said nothing", "I ran kubectl describe pod web-1 and it said nothing", kindText},
		{"{code:bash}", "", kindSep},
		{"{noformat}", "", kindSep},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, kind := clean(tt.in)
			if got != tt.want || kind != tt.kind {
				t.Errorf("clean(%q) = %q, %d; want %q, %d", tt.in, got, kind, tt.want, tt.kind)
			}
		})
	}
}

// TestCleanFences checks what spans lines: code fences and <pre> blocks mark output as code,
// and a fence that closes on the output's last line keeps the line.
func TestCleanFences(t *testing.T) {
	in := []string{"prose", "```", "NAME  READY", "```", "after", "<pre>", "inside", "</pre>", "outside",
		"```console", "web-1  0/1  Evicted  0  5m```", "after", "{code:none}", "in Jira", "{code}", "out of it"}
	want := []bool{false, false, true, false, false, false, true, false, false, false, true, false, false, true, false, false}
	var c cleaner
	for i, s := range in {
		if got := c.clean(s).code; got != want[i] {
			t.Errorf("line %d %q: code = %v, want %v", i+1, s, got, want[i])
		}
	}
}

// TestCleanBarePipeTable reads a Markdown table written without its outer pipes: its header of
// kubectl's column names, its rule, the rows of as many cells; a line of another count ends it,
// and prose with a pipe in it is not a table.
func TestCleanBarePipeTable(t *testing.T) {
	in := []string{"NAME | READY | STATUS | RESTARTS | AGE", "-- | -- | -- | -- | --",
		"web-1 | 0/1 | CreateContainerConfigError | 0 | 129m", "web-2 | 0/1 | CrashLoopBackOff | 29 (19s ago) | 129m",
		"a | b", "use grep | less to read it"}
	want := []string{"NAME   READY   STATUS   RESTARTS   AGE", "", "web-1   0/1   CreateContainerConfigError   0   129m",
		"web-2   0/1   CrashLoopBackOff   29 (19s ago)   129m", "a | b", "use grep | less to read it"}
	var c cleaner
	for i, s := range in {
		if got := c.clean(s).text; got != want[i] {
			t.Errorf("line %d %q: %q, want %q", i+1, s, got, want[i])
		}
	}
}

// TestCleanStringArray reads an array of JSON strings, as Ansible prints a command's output:
// each element with a comma after it, and the last, which has none; a string alone on its line
// after no element is not one (a structured log's message wrapped onto its own line).
func TestCleanStringArray(t *testing.T) {
	in := []string{`    "msg": [`, `        "NAME    READY",`, `        "web-1   0/1"`, `    ]`, `        "web-2   0/1"`}
	want := []string{`    "msg": [`, `        NAME    READY`, `        web-1   0/1`, `    ]`, `        "web-2   0/1"`}
	var c cleaner
	for i, s := range in {
		if got := c.clean(s).text; got != want[i] {
			t.Errorf("line %d %q: %q, want %q", i+1, s, got, want[i])
		}
	}
}

// TestCleanDiff reads a diff's fence: each line of a hunk without its mark, the hunk's and the
// files' headers and the changed file's own fences as separators, a line a person left
// unmarked as itself, and the diff's closing fence as a fence.
func TestCleanDiff(t *testing.T) {
	in := []string{"````diff", "--- a/README.md", "+++ b/README.md", "@@ -0,0 +1,3 @@", "+# Cleanup", "+```bash",
		"+kubectl get pods -A | grep Evicted", " kept words", "-removed words", "NAME   READY", "````", "+after"}
	want := []cleaned{{kind: kindSep}, {kind: kindSep, code: true}, {kind: kindSep, code: true}, {kind: kindSep, code: true},
		{kind: kindSep, code: true}, {kind: kindSep, code: true}, {kind: kindCommand, code: true},
		{kind: kindText, code: true, text: "kept words"}, {kind: kindText, code: true, text: "removed words"},
		{kind: kindText, code: true, text: "NAME   READY"}, {kind: kindSep}, {kind: kindText, text: "+after"}}
	var c cleaner
	for i, s := range in {
		got := c.clean(s)
		if got.kind != want[i].kind || got.code != want[i].code || got.kind == kindText && got.text != want[i].text {
			t.Errorf("line %d %q: %v %v %q, want %v %v %q", i+1, s, got.kind, got.code, got.text, want[i].kind, want[i].code, want[i].text)
		}
	}
}

// TestParseCommand reads the commands people paste above their output.
func TestParseCommand(t *testing.T) {
	tests := []struct {
		in   string
		want string // verb resource name namespace all output grep; "" for not a command
	}{
		{"kubectl get pods --namespace nasa-staging -o wide", "get pods  nasa-staging false wide false"},
		{"kubectl -n kube-system describe pod coredns-1", "describe pod coredns-1 kube-system false  false"},
		{"kubectl --namespace=kube-system describe pod/coredns-1", "describe pod coredns-1 kube-system false  false"},
		{"kubectl get po -A | grep Evicted", "get po   true  true"},
		{"oc describe pod/cnxweblo-21-nmmb6", "describe pod cnxweblo-21-nmmb6  false  false"},
		{"_output/bin/kubectl get nodes", "get nodes   false  false"},
		{"/usr/local/bin/kubectl.docker  --context docker-for-desktop get nodes", "get nodes   false  false"},
		{`ks get pod x -o jsonpath='{.metadata.name}{"\t"}{.status.reason}'`, `get pod x  false jsonpath={.metadata.name}{"\t"}{.status.reason} false`},
		{"kgetpods infras-logstash-1", "get pods infras-logstash-1  false  false"},
		{"sudo KUBECONFIG=/etc/k.conf kubectl get events -nprod", "get events  prod false  false"},
		{"microk8s kubectl get nodes", "get nodes   false  false"},
		{"kubecetl describe pod x --namespace=kube-system", "describe pod x kube-system false  false"},
		{"kubectl describe pod liveness-readiness-failure-podConditions:", "describe pod liveness-readiness-failure-pod  false  false"},
		{"kubectl describe pod <pod-name> -n prod", "describe pod  prod false  false"},
		{"df -h", ""},
		{"docker ps", ""},
		{"kubectl", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			c := parseCommand(tt.in)
			got := ""
			if c != nil {
				got = fmt.Sprintf("%s %s %s %s %v %s %v", c.verb, c.resource, c.name, c.namespace, c.allNamespaces, c.output, c.grep)
			}
			if got != tt.want {
				t.Errorf("parseCommand(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestSniff(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"events header", "$ kubectl get events\nLAST SEEN   TYPE   REASON   OBJECT   MESSAGE\n", true},
		{"pods header", "NAME   READY   STATUS   RESTARTS   AGE\n", true},
		{"describe", "Name:         web-1\nNamespace:    prod\n", true},
		{"events section", "Events:\n  Type  Reason  Age  From  Message\n", true},
		{"headerless rows", "default  3m  Warning  BackOff  pod/x  Back-off\n", true},
		{"loose phrase", "It said 0/3 nodes are available: 3 Insufficient cpu.\n", true},
		{"json", `{"kind":"Pod","status":{"message":"The node was low on resource: memory. "}}`, false},
		{"yaml", "apiVersion: v1\nkind: Event\nmessage: 'Liveness probe failed'\n", false},
		{"prose", "hello\nworld\n", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sniff([]byte(tt.in)); got != tt.want {
				t.Errorf("Sniff = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestCommandKind: the kind of the resource a command names, by any name kubectl takes for it.
func TestCommandKind(t *testing.T) {
	for in, want := range map[string]string{
		"kubectl get po": "Pod", "kubectl describe nodes n-1": "Node", "kubectl get ev": "Event",
		"kubectl describe deploy web": "Deployment", "kubectl get rs": "ReplicaSet", "kubectl describe sts db": "StatefulSet",
		"kubectl get ds": "DaemonSet", "kubectl describe jobs.batch hello": "Job", "kubectl get cj": "CronJob",
		"kubectl describe pvc data": "PersistentVolumeClaim", "kubectl get cm": "ConfigMap", "kubectl get svc": "",
	} {
		if got := parseCommand(in).kind(); got != want {
			t.Errorf("kind of %q = %q, want %q", in, got, want)
		}
	}
}

// TestRefusal: the pod and the controller an API server's refusal names, in every form it takes.
func TestRefusal(t *testing.T) {
	for _, tc := range []struct {
		msg, pod, controller string
	}{
		{`Error creating: pods "web-0" is forbidden: exceeded quota: q`, "web-0", ""},
		{`Error creating: pods "web-7d9f8c6b5-" is forbidden: exceeded quota: q`, "", "web-7d9f8c6b5"},
		{`Error creating: pods "patroni-0u-kf7t9" is forbidden: failed quota: q`, "patroni-0u-kf7t9", "patroni-0u"},
		{`Error creating deployer pod: Pod "ruby-2-deploy" is forbidden: Limited to 512Mi memory`, "ruby-2-deploy", ""},
		{`{"message":"pods \"web-0\" is forbidden: exceeded quota"}`, "web-0", ""},
		{`the pods "web-0" were fine`, "", ""},
	} {
		if got := refusedPod(refusalRe, tc.msg); got != tc.pod {
			t.Errorf("refusedPod(%q) = %q, want %q", tc.msg, got, tc.pod)
		}
		if got := refusedController(tc.msg); got != tc.controller {
			t.Errorf("refusedController(%q) = %q, want %q", tc.msg, got, tc.controller)
		}
	}
	if got := refusedPod(refusalEndRe, `pods "web-0" is forbidden: `); got != "web-0" {
		t.Errorf("a refusal ending the text: %q, want web-0", got)
	}
	if got := refusedPod(refusalEndRe, `pods "web-0" is forbidden: quota x`); got != "" {
		t.Errorf("a refusal not ending the text: %q, want none", got)
	}
	// What a refusal names as an object: the pod, or the controller of a generateName, a
	// ReplicaSet only where the name ends in a pod template's hash.
	for _, tc := range []struct {
		msg, kind, name string
	}{
		{`Error creating: pods "web-0" is forbidden: q`, "Pod", "web-0"},
		{`Error creating: pods "web-7d9f8c6b5-" is forbidden: q`, "ReplicaSet", "web-7d9f8c6b5"},
		{`Error creating: pods "kube-api-auth-" is forbidden: q`, "", "kube-api-auth"},
		{`Error creating: pods "-" is forbidden: q`, "", ""},
		{`no refusal`, "", ""},
	} {
		if got := refusedObject(refusalRe, tc.msg); got.Kind != tc.kind || got.Name != tc.name {
			t.Errorf("refusedObject(%q) = %s %q, want %s %q", tc.msg, got.Kind, got.Name, tc.kind, tc.name)
		}
	}
}
