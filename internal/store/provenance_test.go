package store_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/evidence"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// describePaste is a ticket's paste: describe node with its Allocated resources table, and a
// kubelet phrase in output with nothing around it (a loose event).
const describePaste = `$ kubectl describe node core-1
Name:               core-1
Roles:              <none>
Labels:             cloud.google.com/gke-nodepool=core
Conditions:
  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message
  ----             ------  -----------------                 ------------------                ------                       -------
  MemoryPressure   False   Mon, 01 Jan 2024 10:00:00 +0000   Mon, 01 Jan 2024 09:00:00 +0000   KubeletHasSufficientMemory   kubelet has sufficient memory available
Allocatable:
  cpu:     3920m
  memory:  12Gi
Allocated resources:
  (Total limits may be over 100 percent, i.e., overcommitted.)
  Resource           Requests      Limits
  --------           --------      ------
  cpu                3100m (79%)   6 (153%)
  memory             512Mi (3%)    20Gi (166%)
Events:              <none>

$ kubectl logs hub-7c9 -n prod
Liveness probe failed: Get "http://10.0.0.1:8081/hub/health": context deadline exceeded

$ kubectl get pods -n prod
NAME      READY   STATUS              RESTARTS   AGE
web-1     0/1     ContainerCreating   0          3h57m

$ kubectl get pvc -n prod
NAME   STATUS    VOLUME   CAPACITY   ACCESS MODES   STORAGECLASS   AGE
data   Pending                                      standard       59m
`

// TestTypedProvenanceStored: what the text parser knows of an object beyond the object
// (describe node's Allocated resources table, a loose event, the age a pods listing printed
// or a claims listing printed where the paste's time is unknown) is stored in columns of its own
// and comes back typed, with no rootline.dev/ annotation in the stored JSON.
func TestTypedProvenanceStored(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		createIncident(t, st, "inc-1", "leap")
		ins := []input{{name: "ticket.txt", data: []byte(describePaste)}}
		objs, skipped := decode(t, ins)
		var (
			wantAlloc []cluster.Allocation
			loose     int
		)
		for _, o := range objs {
			if o.Node != nil {
				wantAlloc = o.Allocated()
			}
			if o.Event != nil && o.Source.Loose {
				loose++
			}
		}
		if len(wantAlloc) != 2 || loose != 1 {
			t.Fatalf("the paste gave Allocated %v and %d loose event(s); want two rows and one", wantAlloc, loose)
		}
		storeObjects(t, st, metaFor("inc-1", "leap", ins), objs, skipped)

		_, back, err := evidence.Objects(t.Context(), st, "inc-1")
		if err != nil {
			t.Fatal(err)
		}
		var gotAlloc []cluster.Allocation
		gotLoose := 0
		for _, o := range back {
			if o.Node != nil {
				gotAlloc = o.Allocated()
				for k := range o.Node.Annotations {
					t.Errorf("stored node has annotation %q", k)
				}
			}
			if o.Event != nil {
				if o.Source.Loose {
					gotLoose++
				}
				for k := range o.Event.Annotations {
					t.Errorf("stored event has annotation %q", k)
				}
			}
		}
		if diff := cmp.Diff(wantAlloc, gotAlloc); diff != "" {
			t.Errorf("Allocated read back (-want +got):\n%s", diff)
		}
		if gotLoose != 1 {
			t.Errorf("%d loose event(s) read back, want 1", gotLoose)
		}
		ages := map[string]time.Duration{}
		for _, o := range back {
			if o.Pod != nil || o.Kind == "PersistentVolumeClaim" {
				ages[o.Kind+" "+o.Name] = o.ListedAge()
			}
		}
		if want := 3*time.Hour + 57*time.Minute; ages["Pod web-1"] != want {
			t.Errorf("the listed age of pod web-1 read back is %v, want %v (all: %v)", ages["Pod web-1"], want, ages)
		}
		if want := 59 * time.Minute; ages["PersistentVolumeClaim data"] != want {
			t.Errorf("the listed age of claim data read back is %v, want %v (all: %v)", ages["PersistentVolumeClaim data"], want, ages)
		}
	})
}
