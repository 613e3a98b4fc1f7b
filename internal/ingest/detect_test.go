package ingest

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDetectPastes routes what people paste: output behind prompts of every shape, Markdown
// documents that start like YAML, Kubernetes YAML pasted in part, and HTML pages. Each input is
// written for the test in the shape people paste.
func TestDetectPastes(t *testing.T) {
	pod := `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web-1", "namespace": "prod"}, "status": {"phase": "Failed", "reason": "Evicted"}}`
	tests := []struct {
		name      string
		in        string
		kinds     []string
		err       error // the sentinel, or nil
		truncated bool
	}{
		{"root prompt in brackets before JSON", "[root@node-1 ~]# kubectl get pod web-1 -n prod -o json\n" + pod + "\n", []string{"Pod"}, nil, false},
		{"oc behind a bracket prompt, then a table", "[root@master1 ~]# oc get pods\nNAME    READY   STATUS    RESTARTS   AGE\nweb-1   0/1     Evicted   0          5m\n",
			[]string{"Pod web-1"}, nil, false},
		{"an elision first is not JSON", "[...]\nweb-1   0/1     Evicted   0          5m\n", []string{"Pod web-1"}, nil, false},
		{"a JSON array is still JSON", "[\n" + pod + "\n]\n", []string{"Pod"}, nil, false},
		{"markdown with a list that looks like YAML", "# Postmortem: the cluster was full\n\n- Source: our wiki\n- Kind: capacity\n\nUsers could not start servers because the cluster was full and the autoscaler was at its maximum.\n",
			[]string{"Claim"}, nil, false},
		{"prose without output or claims has nothing to read", "# Notes\n\nWe met on Monday and talked about the dashboards for the team.\nNobody had time for the alert rules this week.\n",
			nil, ErrUnsupported, false},
		{"prose with nothing to read is refused", "hello\n", nil, ErrUnsupported, false},
		{"a report with YAML front matter is text", "---\nid: IL-0070\ntitle: Hub restart during a large node scale-up\n---\nThe hub restarted because its node ran out of memory.\n",
			[]string{"Claim"}, nil, false},
		{"notes written as keys and sentences are text", "## What happened\nRoot cause: the disk of node-3 filled up and caused the evictions.\nImpact: users could not start their servers for an hour.\n",
			[]string{"Claim"}, nil, false},
		{"pod status pasted alone, cut mid-key", "# kubectl get pod web-1 -o yaml, status only\nstatus:\n  conditions:\n  - type: DisruptionTarget\n    status: \"True\"\n    reason: TerminationByKubelet\n    message: 'The node was low on resource: memory. '\n    reaso",
			[]string{"Pod"}, ErrMalformed, true},
		{"pod status pasted alone, named by the comment above it", "# kubectl get pod -o yaml of the web-7c9f8d6b5-x2x7k pod\nstatus:\n  phase: Failed\n  reason: Evicted\n",
			[]string{"Pod web-7c9f8d6b5-x2x7k"}, nil, false},
		{"pod status pasted alone, whole", "status:\n  conditions:\n  - type: PodScheduled\n    status: \"False\"\n    reason: Unschedulable\n    message: '0/3 nodes are available: 3 Insufficient cpu.'\n  phase: Pending\n",
			[]string{"Pod"}, nil, false},
		{"YAML without a Kubernetes shape is still refused as not an object", "replicaCount: 3\nimage: nginx\n", nil, ErrMalformed, false},
		// A saved page is text too: the messages in it are read.
		{"an HTML page", "<!DOCTYPE html>\n<html><body>Pods were evicted: The node was low on resource: memory.</body></html>\n", []string{"Event"}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, _, err := decodeAll(t, "paste.txt", []byte(tt.in), Options{})
			var kinds []string
			for _, o := range objs {
				k := o.Kind
				if o.Name != "" && o.Pod != nil && o.Namespace == "" {
					k += " " + o.Name // only where a test gives the name alone
				}
				kinds = append(kinds, k)
			}
			if diff := cmp.Diff(tt.kinds, kinds); diff != "" {
				t.Errorf("kinds (-want +got):\n%s", diff)
			}
			if tt.err == nil && err != nil || tt.err != nil && !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			var e *Error
			if errors.As(err, &e) && e.Truncated != tt.truncated {
				t.Errorf("truncated = %v, want %v (%v)", e.Truncated, tt.truncated, err)
			}
			if err != nil && !strings.Contains(err.Error(), "paste.txt") {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}
