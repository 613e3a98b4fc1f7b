package rules

import (
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// crashingAPI is `kubectl describe pod` of prod/api-5c8d7f6b9-zx4lm, its container api in the
// state given (the lines from "State:" to "Restart Count:") and its events after the image
// pulls and the back-off.
func crashingAPI(state string, events ...string) string {
	out := `$ kubectl describe pod api-5c8d7f6b9-zx4lm -n prod
Name:             api-5c8d7f6b9-zx4lm
Namespace:        prod
Priority:         0
Service Account:  api
Node:             node-3/10.128.0.9
Start Time:       Wed, 05 Feb 2025 09:58:00 +0000
Labels:           app=api
                  pod-template-hash=5c8d7f6b9
Annotations:      <none>
Status:           Running
IP:               10.4.2.17
Controlled By:    ReplicaSet/api-5c8d7f6b9
Containers:
  api:
    Container ID:   containerd://4f1c2b7e9d0a
    Image:          registry.example.com/api:1.8.2
    Image ID:       registry.example.com/api@sha256:9b2f0c
    Port:           8080/TCP
` + state + `
    Requests:
      cpu:        250m
      memory:     256Mi
    Environment:  <none>
Conditions:
  Type              Status
  Initialized       True 
  Ready             False 
  ContainersReady   False 
  PodScheduled      True 
QoS Class:        Burstable
Events:
  Type     Reason     Age                  From               Message
  ----     ------     ----                 ----               -------
  Normal   Pulled     3m (x7 over 9m)      kubelet            Container image "registry.example.com/api:1.8.2" already present on machine
`
	for _, e := range events {
		out += "  " + e + "\n"
	}
	return out
}

// exited is the state lines of a container in back-off whose last run ended with reason and
// exit code after running from 10:02:00 to finished.
func exited(reason, code, finished string) string {
	return `    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       ` + reason + `
      Exit Code:    ` + code + `
      Started:      Wed, 05 Feb 2025 10:02:00 +0000
      Finished:     Wed, 05 Feb 2025 ` + finished + ` +0000
    Ready:          False
    Restart Count:  6`
}

// TestStartFailureRule pins startWindow (10 s: a container that exits sooner after it starts
// did not start; one that ran 10 s or more crashed for another reason) and the other signs of
// a container that cannot start: exit codes 126 and 127 (not 125 or 128), a start-failure waiting reason, the
// runtime's error in a Failed event. A crash loop alone, or an OOM kill, is not one.
func TestStartFailureRule(t *testing.T) {
	const pod = "prod/api-5c8d7f6b9-zx4lm"
	looping := []string{"container_restarted " + pod, "crash_loop_backoff " + pod}
	cannot := func(why, evidence string) causeWant {
		return causeWant{role: analysis.Root, confidence: 0.75, explains: looping,
			summary: []string{"containers cannot start: pod " + pod + ": " + why}, evidence: []string{evidence}}
	}
	tests := []causeCase{
		{name: "ran 9 s, exit 1", docs: []string{crashingAPI(exited("Error", "1", "10:02:09"))}, symptoms: looping,
			kinds: []string{analysis.ContainerStartFailure}, want: cannot("exits 9s after it starts (Error, exit code 1)", "Error, exit code 1 after 9s")},
		{name: "ran 10 s, exit 1", docs: []string{crashingAPI(exited("Error", "1", "10:02:10"))}, symptoms: looping, kinds: []string{}},
		{name: "ran 11 s, exit 1", docs: []string{crashingAPI(exited("Error", "1", "10:02:11"))}, symptoms: looping, kinds: []string{}},
		{name: "ran 5 min, exit 1", docs: []string{crashingAPI(exited("Error", "1", "10:07:00"))}, symptoms: looping, kinds: []string{}},
		{name: "exit 127 after a minute", docs: []string{crashingAPI(exited("Error", "127", "10:03:00"))}, symptoms: looping,
			kinds: []string{analysis.ContainerStartFailure}, want: cannot("Error, exit code 127", "Error, exit code 127")},
		{name: "exit 127, cited where it is", docs: []string{crashingAPI(exited("Error", "127", "10:03:00"))}, symptoms: looping,
			kinds: []string{analysis.ContainerStartFailure}, want: causeWant{role: analysis.Root, confidence: 0.75, explains: looping,
				summary: []string{"Error, exit code 127"}, fields: []string{"status.containerStatuses[api].lastState.terminated"}}},
		{name: "exit 126 after a minute", docs: []string{crashingAPI(exited("Error", "126", "10:03:00"))}, symptoms: looping,
			kinds: []string{analysis.ContainerStartFailure}, want: cannot("Error, exit code 126", "Error, exit code 126")},
		{name: "exit 127 in the current state", docs: []string{crashingAPI(`    State:          Terminated
      Reason:       Error
      Exit Code:    127
      Started:      Wed, 05 Feb 2025 10:02:00 +0000
      Finished:     Wed, 05 Feb 2025 10:02:00 +0000
    Ready:          False
    Restart Count:  4`)}, symptoms: []string{"container_restarted " + pod},
			kinds: []string{analysis.ContainerStartFailure}, want: causeWant{role: analysis.Root, confidence: 0.75, explains: []string{"container_restarted " + pod},
				summary: []string{"Error, exit code 127"}, fields: []string{"status.containerStatuses[api].state.terminated"}}},
		{name: "exit 125 after a minute", docs: []string{crashingAPI(exited("Error", "125", "10:03:00"))}, symptoms: looping, kinds: []string{}},
		{name: "exit 128 after a minute", docs: []string{crashingAPI(exited("Error", "128", "10:03:00"))}, symptoms: looping, kinds: []string{}},
		{name: "the runtime could not start it (StartError)", docs: []string{crashingAPI(exited("StartError", "128", "10:02:00"))}, symptoms: looping,
			kinds: []string{analysis.ContainerStartFailure}, want: cannot("StartError, exit code 128", "StartError, exit code 128")},
		{name: "OOM-killed after 2 s", docs: []string{crashingAPI(exited("OOMKilled", "137", "10:02:02"))},
			symptoms: []string{"crash_loop_backoff " + pod, "oom_killed " + pod}, kinds: []string{}},
		{name: "waiting in RunContainerError", docs: []string{crashingAPI(`    State:          Waiting
      Reason:       RunContainerError
      Message:      failed to start containerd task "api": exec: "/app/run.sh": permission denied: unknown
    Last State:     Terminated
      Reason:       Error
      Exit Code:    1
      Started:      Wed, 05 Feb 2025 09:58:05 +0000
      Finished:     Wed, 05 Feb 2025 10:01:00 +0000
    Ready:          False
    Restart Count:  3`)}, symptoms: []string{"container_restarted " + pod},
			kinds: []string{analysis.ContainerStartFailure}, want: causeWant{role: analysis.Root, confidence: 0.75, explains: []string{"container_restarted " + pod},
				summary: []string{"pod " + pod + ": RunContainerError"}, evidence: []string{`RunContainerError: failed to start containerd task "api": exec: "/app/run.sh": permission denied`}}},
		{name: "a Failed event: executable file not found", docs: []string{"$ kubectl get events -n prod\n" +
			"LAST SEEN   TYPE      REASON    OBJECT                    MESSAGE\n" +
			`4m          Warning   Failed    pod/api-5c8d7f6b9-zx4lm   Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "gunicorn": executable file not found in $PATH: unknown` + "\n" +
			"2m          Warning   BackOff   pod/api-5c8d7f6b9-zx4lm   Back-off restarting failed container api in pod api-5c8d7f6b9-zx4lm_prod(0b6c1e2f-8f57-4a7e-9d0c-3b1f2a4c5d6e)\n"},
			symptoms: []string{"crash_loop_backoff " + pod}, kinds: []string{analysis.ContainerStartFailure},
			want: causeWant{role: analysis.Root, confidence: 0.75, explains: []string{"crash_loop_backoff " + pod},
				summary:  []string{`pod ` + pod + `: Error: failed to create containerd task`},
				evidence: []string{`exec: "gunicorn": executable file not found in $PATH`}}},
		{name: "a Failed event of the describe", docs: []string{crashingAPI(exited("Error", "1", "10:07:00"),
			`Warning  Failed     8m (x4 over 9m)      kubelet            Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "/docker-entrypoint.sh": no such file or directory: unknown`)},
			symptoms: looping, kinds: []string{analysis.ContainerStartFailure},
			want: causeWant{role: analysis.Root, confidence: 0.75, explains: looping, evidence: []string{`"/docker-entrypoint.sh": no such file or directory`}}},
		{name: "the runtime's exec error in the container's log", docs: []string{crashingAPI(exited("Error", "1", "10:07:00")),
			"$ kubectl logs api-5c8d7f6b9-zx4lm -n prod\nexec /usr/bin/bash: exec format error\n"},
			symptoms: looping, kinds: []string{analysis.ContainerStartFailure},
			want: causeWant{role: analysis.Root, confidence: 0.75, explains: looping,
				summary: []string{"pod " + pod + ": exec /usr/bin/bash: exec format error"}, evidence: []string{"exec /usr/bin/bash: exec format error"}}},
		{name: "the same words in another pod's log", docs: []string{crashingAPI(exited("Error", "1", "10:07:00")),
			"$ kubectl logs api-5c8d7f6b9-other -n prod\nexec /usr/bin/bash: exec format error\n"},
			symptoms: looping, kinds: []string{}},
		{name: "a Failed event that is no start failure", docs: []string{crashingAPI(exited("Error", "1", "10:07:00"),
			`Warning  Failed     8m (x4 over 9m)      kubelet            Error: context deadline exceeded`)},
			symptoms: looping, kinds: []string{}},
	}
	runCauseCases(t, analysis.ContainerStartFailure, tests)
}
