package text

import (
	"net/url"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rootline-dev/rootline/internal/lazyre"
)

// containers reads a describe "Containers:" section: one "  name:" line per container with
// its fields indented below.
func containers(sec *node) ([]corev1.Container, []corev1.ContainerStatus) {
	var cs []corev1.Container
	var sts []corev1.ContainerStatus
	for _, k := range regroup(sec.kids) {
		if k.key == "" || k.val != "" {
			continue
		}
		c, st, shown := container(k.key, k.kids)
		cs = append(cs, c)
		if shown {
			sts = append(sts, st)
		}
	}
	return cs, sts
}

// containerFields are the lines kubectl describe prints under a container's name.
var containerFields = map[string]bool{"Container ID": true, "Image": true, "Image ID": true, "Port": true, "Ports": true,
	"Host Port": true, "Host Ports": true, "Command": true, "Args": true, "State": true, "Last State": true,
	"Last Termination State": true, "Ready": true, "Restart Count": true, "Limits": true, "Requests": true,
	"Liveness": true, "Readiness": true, "Startup": true, "Environment": true, "Environment Variables from": true,
	"Mounts": true, "Devices": true, "SeccompProfile": true}

// regroup puts a container's fields under its name where a paste lost the indentation that
// did ("  web:" then "  Image: …" at the same depth, tabs collapsed or leading spaces
// stripped), and a resource's quantities under its Limits or Requests line. A section whose
// fields are nested already is returned as it is.
func regroup(kids []*node) []*node {
	flat := false
	for i, k := range kids {
		if containerFields[k.key] && i > 0 {
			flat = true
			break
		}
	}
	if !flat {
		return kids
	}
	var out []*node
	var cur, res *node // the container, and its Limits or Requests line without kids
	for _, k := range kids {
		switch {
		case (containerFields[k.key] || stateKeys[k.key]) && cur != nil:
			cur.kids = append(cur.kids, k)
			res = nil
			if (k.key == "Limits" || k.key == "Requests") && len(k.kids) == 0 {
				res = k
			}
		case res != nil && k.key != "" && k.key == strings.ToLower(k.key) && k.val != "":
			res.kids = append(res.kids, k) // "cpu: 100m" under its Limits
		case k.key != "" && k.val == "" && len(k.kids) == 0 && !containerFields[k.key]:
			c := *k
			cur, res = &c, nil
			out = append(out, cur)
		default:
			out = append(out, k)
		}
	}
	return out
}

// stateKeys are the lines kubectl prints under a State or Last State line.
var stateKeys = map[string]bool{"Reason": true, "Exit Code": true, "Signal": true, "Started": true, "Finished": true, "Message": true}

// nestStates puts the Reason, Exit Code, … lines that follow a State or Last State line at
// its own indentation under it: a paste that lost its indentation.
func nestStates(fields []*node) []*node {
	out := fields[:0:0]
	var state *node
	for _, f := range fields {
		switch {
		case f.key == "State" || f.key == "Last State" || f.key == "Last Termination State":
			state = f
		case state != nil && stateKeys[f.key] && len(state.kids) == 0 || state != nil && stateKeys[f.key] && f.indent == state.indent:
			state.kids = append(state.kids, f)
			continue
		default:
			state = nil
		}
		out = append(out, f)
	}
	return out
}

// container reads one container's fields. Environment, Command, Args and Mounts are left
// out on purpose: they may carry secrets and say nothing Rootline analyses. shown says the
// container has a status: kubectl describe prints its Container ID, Image ID, State, Ready and
// Restart Count lines only for a container the pod's status lists (describeContainerBasicInfo
// and describeContainerState write them under "if ok"), none for a pod not yet placed.
func container(name string, fields []*node) (c corev1.Container, st corev1.ContainerStatus, shown bool) {
	fields = nestStates(fields)
	c = corev1.Container{Name: name}
	st = corev1.ContainerStatus{Name: name}
	for _, f := range fields {
		switch f.key {
		case "Container ID", "Image ID", "State", "Last State", "Last Termination State", "Ready", "Restart Count":
			shown = true
		}
		switch f.key {
		case "Container ID":
			st.ContainerID = f.val
		case "Image":
			c.Image, st.Image = f.val, f.val
		case "Image ID":
			st.ImageID = f.val
		case "Port", "Ports":
			c.Ports = ports(f.val)
		case "State":
			st.State = state(f)
		case "Last State", "Last Termination State": // the second is how 2015's kubectl said it
			st.LastTerminationState = state(f)
		case "Ready":
			st.Ready = f.val == "True"
		case "Restart Count":
			if n, err := strconv.ParseInt(f.val, 10, 32); err == nil {
				st.RestartCount = int32(n)
			}
		case "Limits":
			c.Resources.Limits = resources(f.kids)
		case "Requests":
			c.Resources.Requests = resources(f.kids)
		case "Liveness":
			c.LivenessProbe = probe(f.val)
		case "Readiness":
			c.ReadinessProbe = probe(f.val)
		case "Startup":
			c.StartupProbe = probe(f.val)
		}
	}
	return c, st, shown
}

// state reads "State: Terminated" and the Reason, Exit Code, Signal, Message, Started and
// Finished lines under it.
func state(n *node) corev1.ContainerState {
	var s corev1.ContainerState
	get := func(k string) string { return find(n.kids, k).valOr("") }
	switch n.val {
	case "Running":
		s.Running = &corev1.ContainerStateRunning{}
		if t, ok := parseTime(get("Started")); ok {
			s.Running.StartedAt = t
		}
	case "Waiting":
		s.Waiting = &corev1.ContainerStateWaiting{Reason: get("Reason"), Message: get("Message")}
	case "Terminated":
		t := &corev1.ContainerStateTerminated{Reason: get("Reason"), Message: get("Message")}
		if x, err := strconv.ParseInt(get("Exit Code"), 10, 32); err == nil {
			t.ExitCode = int32(x)
		}
		if x, err := strconv.ParseInt(get("Signal"), 10, 32); err == nil {
			t.Signal = int32(x)
		}
		t.StartedAt, _ = parseTime(get("Started"))
		t.FinishedAt, _ = parseTime(get("Finished"))
		s.Terminated = t
	}
	return s
}

// resources reads "cpu: 100m" lines; unreadable quantities are skipped.
func resources(kids []*node) corev1.ResourceList {
	var rl corev1.ResourceList
	for _, k := range kids {
		q, err := resource.ParseQuantity(k.val)
		if k.key == "" || err != nil {
			continue
		}
		if rl == nil {
			rl = corev1.ResourceList{}
		}
		rl[corev1.ResourceName(k.key)] = q
	}
	return rl
}

// ports reads "53/UDP, 53/TCP, 9153/TCP".
func ports(v string) []corev1.ContainerPort {
	var out []corev1.ContainerPort
	for _, it := range strings.Split(v, ",") {
		num, proto, _ := strings.Cut(strings.TrimSpace(it), "/")
		if n, err := strconv.ParseInt(num, 10, 32); err == nil && n > 0 {
			out = append(out, corev1.ContainerPort{ContainerPort: int32(n), Protocol: corev1.Protocol(proto)})
		}
	}
	return out
}

var probeParamRe = lazyre.New(`\b(delay|timeout|period)=(\d{1,9})s|#(success|failure)=(\d{1,9})`)

// probe reads kubectl's probe summary:
// "http-get http://:8080/health delay=60s timeout=5s period=10s #success=1 #failure=5".
func probe(v string) *corev1.Probe {
	kind, rest, _ := strings.Cut(strings.TrimSpace(v), " ")
	pr := &corev1.Probe{}
	switch kind {
	case "http-get":
		target, _, _ := strings.Cut(rest, " ")
		if u, err := url.Parse(target); err == nil {
			pr.HTTPGet = &corev1.HTTPGetAction{Path: u.Path, Host: u.Hostname(),
				Port: intstr.Parse(u.Port()), Scheme: corev1.URIScheme(strings.ToUpper(u.Scheme))}
		}
	case "tcp-socket":
		target, _, _ := strings.Cut(rest, " ")
		_, port, _ := strings.Cut(target, ":")
		pr.TCPSocket = &corev1.TCPSocketAction{Port: intstr.Parse(port)}
	case "exec":
		if a, b := strings.Index(rest, "["), strings.Index(rest, "]"); a >= 0 && b > a {
			pr.Exec = &corev1.ExecAction{Command: strings.Fields(rest[a+1 : b])}
		}
	case "grpc":
		f := strings.Fields(rest)
		if len(f) > 0 {
			if n, err := strconv.ParseInt(f[0], 10, 32); err == nil {
				pr.GRPC = &corev1.GRPCAction{Port: int32(n)}
			}
		}
	default:
		return nil
	}
	for _, m := range probeParamRe.FindAllStringSubmatch(rest, -1) {
		name, val := m[1]+m[3], m[2]+m[4]
		n64, _ := strconv.ParseInt(val, 10, 32)
		n := int32(n64)
		switch name {
		case "delay":
			pr.InitialDelaySeconds = n
		case "timeout":
			pr.TimeoutSeconds = n
		case "period":
			pr.PeriodSeconds = n
		case "success":
			pr.SuccessThreshold = n
		case "failure":
			pr.FailureThreshold = n
		}
	}
	return pr
}

// tolerations reads describe's toleration lines:
// "node.kubernetes.io/not-ready:NoExecute op=Exists for 300s", "CriticalAddonsOnly op=Exists".
func tolerations(items []string) []corev1.Toleration {
	var out []corev1.Toleration
	for _, it := range items {
		f := strings.Fields(it)
		if len(f) == 0 {
			continue
		}
		var t corev1.Toleration
		if !strings.HasPrefix(f[0], "op=") {
			t.Key, t.Value, t.Effect = splitTaint(f[0])
			f = f[1:]
		}
		if t.Value != "" {
			t.Operator = corev1.TolerationOpEqual
		}
		for i, w := range f {
			if w == "op=Exists" {
				t.Operator = corev1.TolerationOpExists
			}
			if w == "for" && i+1 < len(f) {
				if d, known, ok := parseAge(f[i+1]); ok && known {
					secs := int64(d.Seconds())
					t.TolerationSeconds = &secs
				}
			}
		}
		out = append(out, t)
	}
	return out
}

// splitTaint reads "key=value:Effect", "key:Effect" or "key".
func splitTaint(s string) (key, value string, effect corev1.TaintEffect) {
	if i := strings.LastIndex(s, ":"); i >= 0 {
		switch e := corev1.TaintEffect(s[i+1:]); e {
		case corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule, corev1.TaintEffectNoExecute:
			s, effect = s[:i], e
		}
	}
	key, value, _ = strings.Cut(s, "=")
	return key, value, effect
}
