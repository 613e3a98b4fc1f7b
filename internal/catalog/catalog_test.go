package catalog

import (
	"slices"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/kinds"
)

// TestDefault: the embedded catalogue compiles (Parse checks every entry, and that its example
// matches its template), and it covers every symptom kind Rootline has: each kind has a
// message of its own, so no symptom depends on a reader of a paste's shape alone.
func TestDefault(t *testing.T) {
	c, err := Parse(messagesYAML)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Entries) < 500 {
		t.Errorf("%d entries, want the catalogue's 500 or more", len(c.Entries))
	}
	covered := map[string]bool{}
	for _, e := range c.Entries {
		covered[e.Symptom] = true
		if m, ok := e.Match(e.Example); !ok || m.Entry != e {
			t.Errorf("%s: its example does not match its template", e.ID)
		}
		for _, src := range e.Source {
			if !strings.Contains(src, "@") && !strings.Contains(src, "/") {
				t.Errorf("%s: source %q names no repository or module at a version", e.ID, src)
			}
		}
	}
	for _, k := range kinds.Symptoms {
		if k == kinds.EvictedPodsLingering || k == kinds.ContainerRestarted {
			// An evicted pod left behind, a restart count: the pod's status is the sign, read
			// by its structure (no component writes a message of its own for either).
			continue
		}
		if !covered[k] {
			t.Errorf("no entry is a sign of %s", k)
		}
	}
	if first, again := Default(), Default(); first != again {
		t.Error("Default compiles the catalogue more than once")
	}
}

// TestParseRefuses: an entry that is wrong in any way is refused, naming it.
func TestParseRefuses(t *testing.T) {
	const good = `- id: kubelet/x
  component: kubelet
  reason: Evicted
  in: [event]
  template: 'The node was low on resource: {resource}.'
  versions: '1.5+'
  source: ['k8s.io/kubernetes@v1.9.0 pkg/kubelet/eviction/helpers.go']
  symptom: pod_evicted
  object: pod
  example: 'The node was low on resource: memory.'
`
	if _, err := Parse([]byte(good)); err != nil {
		t.Fatalf("the good entry: %v", err)
	}
	for _, tc := range []struct{ name, from, to, want string }{
		{"an example that does not match", "resource: memory.'", "resources: memory.'", "does not match"},
		{"an unknown symptom kind", "symptom: pod_evicted", "symptom: pod_exploded", "not a symptom kind"},
		{"an unknown capture type", "{resource}", "{resource:colour}", "has no type"},
		{"a capture named twice", "resource: {resource}.", "{resource} resource: {resource}.", "named twice"},
		{"no source", "  source: ['k8s.io/kubernetes@v1.9.0 pkg/kubelet/eviction/helpers.go']\n", "", "no source"},
		{"an unknown field", "  object: pod\n", "  object: pod\n  colour: red\n", "unknown field"},
		{"an unknown object", "object: pod", "object: teapot", "is not one of"},
		{"a short anchor", "The node was low on resource: {resource}.", "on {resource}", "shorter than"},
		{"a word of two words", "  object: pod\n", "  object: pod\n  word: true\n", "one word"},
		{"a bad id", "id: kubelet/x", "id: Kubelet X", "is not <component>/<slug>"},
		{"following an entry that is not there", "  object: pod\n", "  object: pod\n  follows: [kubelet/y]\n", "not another entry"},
		{"a carrier that is a sign itself", "  object: pod\n", "  object: pod\n  carries: true\n", "carries another message"},
		{"following itself", "  object: pod\n", "  object: pod\n  follows: [kubelet/x]\n", "not another entry"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := strings.Replace(good, tc.from, tc.to, 1)
			if bad == good {
				t.Fatalf("the case changes nothing")
			}
			_, err := Parse([]byte(bad))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one saying %q", err, tc.want)
			}
		})
	}
	if _, err := Parse([]byte(good + strings.Replace(good, "template: 'The", "template: 'Then the", 1))); err == nil || !strings.Contains(err.Error(), "used twice") {
		t.Errorf("two entries of one id: err = %v", err)
	}
}

// TestFind: messages are found wherever they stand in a line, the longer of two overlapping
// ones wins, the more specific of two that match the same text, and parts are not messages.
func TestFind(t *testing.T) {
	c := Default()
	for _, tc := range []struct {
		name, text string
		want       []string // the symptom kinds found, in order
	}{
		{"an eviction in a table row", `5m   Warning   Evicted   pod/web-1   The node was low on resource: memory. Container web was using 1Gi, request is 0.`,
			[]string{"pod_evicted"}},
		{"a scheduler message in a klog line", `I0102 15:04:05.000000   1 event.go:209] Event(v1.ObjectReference{Kind:"Pod", Namespace:"default", Name:"web-1"}): type: 'Warning' reason: 'FailedScheduling' 0/3 nodes are available: 3 Insufficient cpu.`,
			[]string{"pod_pending"}},
		{"a message inside another is part of it", `Error creating: pods "web-1" is forbidden: exceeded quota: compute, requested: cpu=2, used: cpu=8, limited: cpu=8`,
			[]string{"pod_create_failed"}},
		{"a part alone is not a message", `Insufficient cpu`, nil},
		{"the scheduler's diagnosis quoted without its count of nodes", `It says "1 node(s) didn't have free ports for the requested pod ports, 2 Insufficient cpu." and stays Pending`,
			[]string{"pod_pending"}},
		{"lists quoted apart are messages apart", `first 3 Too many pods, 1 node(s) were unschedulable and later 2 Insufficient memory`,
			[]string{"pod_pending", "pod_pending"}},
		{"a part after a number that counts no nodes", `version 1.2 Insufficient cpu, 0/3 Insufficient memory`, nil},
		{"a part without its count", `node(s) had untolerated taint {a: b}`, nil},
		{"an empty rest of the message where the text ends", "3m  Warning  FailedCreate  replicaset/toolbox-84b4c6f7f6  Error creating: ",
			[]string{"pod_create_failed"}},
		{"an empty rest of the message without its space", "Error creating:", []string{"pod_create_failed"}},
		{"a message's words quoted in prose are not the message", `see the "Error creating:" message in the events`, nil},
		{"a hard wrap joined by spaces", "0/5 nodes\n  are available: 5 Insufficient memory.", []string{"pod_pending"}},
		{"JSON-escaped quotes", `"message":"Failed to pull image \"nginx:nope\": rpc error: not found"`, []string{"image_pull_failed"}},
		{"a test framework's wait for a node that is not ready", "INFO: Condition Ready of node n-1 is false instead of true. Reason: KubeletNotReady, message: PLEG is not healthy", []string{"node_not_ready"}},
		{"the same wait for a node that is ready the other way round", "INFO: Condition Ready of node n-1 is true instead of false. Reason: KubeletReady, message: kubelet is posting ready status", []string{""}}, // the kubelet's ready message only, a sign of nothing
		{"nothing", "hello, world", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, m := range c.Find(tc.text) {
				if m.Entry.Word {
					continue
				}
				got = append(got, m.Entry.Symptom)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Find = %q, want %q", got, tc.want)
			}
		})
	}
	// The same span matched by a generic and a specific entry: the specific one wins.
	ms := c.Find("Node ip-10-0-1-2.ec2.internal status is now: NodeHasDiskPressure")
	if len(ms) != 1 || ms[0].Entry.Symptom != "node_pressure" || ms[0].Node() != "ip-10-0-1-2.ec2.internal" {
		t.Errorf("node status: %+v, want the NodeHasDiskPressure entry naming the node", ms)
	}
	// The list quoted on its own is the diagnosis, its items the list's text.
	ms = c.Find(`Scheduler: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. Please help`)
	if len(ms) != 1 || ms[0].Entry.ID != "kube-scheduler/nodes-available" || ms[0].Capture("diagnosis") != ms[0].Text ||
		ms[0].Text != "1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu" {
		t.Errorf("quoted diagnosis: %+v, want the nodes-available entry with the two items as its diagnosis", ms)
	}
	// Explain finds the parts inside a message.
	var tags []string
	for _, m := range c.Explain(`Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "abc": plugin type="aws-cni" name="aws-cni" failed (add): add cmd: failed to assign an IP address to container`) {
		tags = append(tags, m.Entry.Evidence)
	}
	if !slices.Contains(tags, "ip_exhausted") || !slices.Contains(tags, "sandbox_create_failed") {
		t.Errorf("Explain tags = %q, want the sandbox failure and the IP exhaustion inside it", tags)
	}
}

// TestPodCapture: the pod a message names, by {podref} or by {pod} and {namespace}.
func TestPodCapture(t *testing.T) {
	ms := Default().Find("Successfully assigned prod/web-7d9f-x2x to node-3")
	if len(ms) != 1 {
		t.Fatalf("Find = %+v", ms)
	}
	if ns, name := ms[0].Pod(); ns != "prod" || name != "web-7d9f-x2x" || ms[0].Node() != "node-3" {
		t.Errorf("Pod() = %s/%s, Node() = %s", ns, name, ms[0].Node())
	}
	// The prober's "<name>_<namespace>(<uid>):<container>", and before 1.2 without the uid.
	for _, line := range []string{
		`Readiness probe for "liveness-exec_default(6c1d2f3a):liveness" failed (failure): exit 1`,
		`Readiness probe for "liveness-exec_default:liveness" failed (failure): exit 1`,
	} {
		ms := Default().Find(line)
		if len(ms) != 1 {
			t.Fatalf("Find(%q) = %+v", line, ms)
		}
		if ns, name := ms[0].Pod(); ns != "default" || name != "liveness-exec" {
			t.Errorf("%q: Pod() = %s/%s, want default/liveness-exec", line, ns, name)
		}
	}
}

// causeTags are, for each cause kind a message can state or support, the catalogue's evidence
// tags that do. The causes not here are weighed from what no message says: pods sharing a pool
// or a node (shared_node_pool, shared_prometheus), use against requests (cpu_starvation,
// node_overcommitted: kubectl's describe of a node prints its sums), or what changed
// (recent_change, read from workloads' revisions).
var causeTags = map[string][]string{
	kinds.CapacityExhaustion:    {"insufficient_resource", "too_many_pods", "node_group_max_size", "max_nodes_total_reached"},
	kinds.MemoryOverRequest:     {"usage_over_request"},
	kinds.MemoryLimitTooLow:     {"container_memory_limit"},
	kinds.ScaleUpNotReady:       {"node_not_ready_taint"},
	kinds.SchedulingConstraints: {"node_selector_mismatch", "untolerated_taint", "pod_affinity", "topology_spread"},
	kinds.Preemption:            {"preempted_by_scheduler"},
	kinds.NodeDiskExhaustion:    {"disk_pressure", "ephemeral_storage_limit"},
	kinds.RequestExceedsNode:    {"request_exceeds_node"},
	kinds.VolumeBinding:         {"unbound_pvc", "volume_binding", "volume_node_affinity"},
	kinds.ImageUnavailable:      {"image_pull_error", "invalid_image_name"},
	kinds.ContainerStartFailure: {"container_start_failed", "prestart_hook_failed"},
	kinds.QuotaExceeded:         {"quota_exceeded"},
	kinds.NetworkSetupFailed:    {"cni_not_ready", "cni_error"},
	kinds.IPExhaustion:          {"ip_exhausted"},
	kinds.MissingObject:         {"missing_secret", "missing_configmap", "storageclass_not_found"},
	kinds.VolumeAttachFailure:   {"volume_multi_attach", "volume_mount_timeout"},
}

// TestCauseCoverage: every cause a message can state has entries in the catalogue whose tags
// say so, and every cause kind is either here or said not to be read from messages.
func TestCauseCoverage(t *testing.T) {
	tags := map[string]bool{}
	for _, e := range Default().Entries {
		tags[e.Evidence] = true
	}
	notFromMessages := []string{kinds.SharedNodePool, kinds.SharedPrometheus, kinds.CPUStarvation, kinds.NodeOvercommitted, kinds.RecentChange}
	for _, k := range kinds.Causes {
		want, ok := causeTags[k]
		if !ok {
			if !slices.Contains(notFromMessages, k) {
				t.Errorf("cause %s: no tags of the catalogue state it, and it is not said to be read from elsewhere", k)
			}
			continue
		}
		for _, tag := range want {
			if !tags[tag] {
				t.Errorf("cause %s: no entry of the catalogue is tagged %s", k, tag)
			}
		}
	}
}

// TestPodDesc reads the kubelet's way of naming a pod, name_namespace(uid), also where a
// paste lost the namespace or put a name with underscores in it, and refuses what is not one.
func TestPodDesc(t *testing.T) {
	for _, tt := range []struct{ in, ns, name string }{
		{"web-1_prod(6c1d2f3a)", "prod", "web-1"},
		{"web-1_prod", "prod", "web-1"},
		{"router-2-snkr4_(a745fe1c-bff2)", "", "router-2-snkr4"},
		{"router-2-snkr4_", "", ""},
		{"web-1", "", ""},
		{"some_pod_default(9cefb7b2-4762)", "default", "some_pod"}, // a name redacted by hand
		{"a_b_c", "", ""},
		{"a_b_(x)", "", ""},
	} {
		ns, name, _ := podDesc(tt.in)
		if ns != tt.ns || name != tt.name {
			t.Errorf("podDesc(%q) = %q, %q; want %q, %q", tt.in, ns, name, tt.ns, tt.name)
		}
	}
}
