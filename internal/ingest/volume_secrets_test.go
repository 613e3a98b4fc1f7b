package ingest

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// TestVolumeOptionsRedacted: the options of a FlexVolume and the attributes of a CSI volume
// are chosen by people and may hold a credential (a password option, a storage account key),
// so a credential-named key loses its value and credentials in the others are scrubbed, in a
// pod and in a workload's pod template, while what is not secret stays
// as evidence.
func TestVolumeOptionsRedacted(t *testing.T) {
	volumes := `"volumes": [
	{"name": "nfs", "flexVolume": {"driver": "example/nfs", "options": {"password": "hunter2", "server": "nfs.internal", "mount": "nfs://app:s3cret@nfs.internal/data"}}},
	{"name": "blob", "csi": {"driver": "blob.csi.azure.com", "volumeAttributes": {"accessKey": "s3cret", "containerName": "logs"}}}
]`
	docs := map[string]string{
		"pod.json": `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web-0", "namespace": "prod"},
"spec": {"containers": [{"name": "web", "image": "web:1"}], ` + volumes + `}}`,
		"deploy.json": `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "prod"},
"spec": {"selector": {"matchLabels": {"app": "web"}}, "template": {"metadata": {"labels": {"app": "web"}},
"spec": {"containers": [{"name": "web", "image": "web:1"}], ` + volumes + `}}}}`,
	}
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			var objs []*cluster.Object
			err := NewDecoder(Options{}).Decode(context.Background(), name, bytes.NewReader([]byte(doc)), func(o *cluster.Object) error {
				objs = append(objs, o)
				return nil
			})
			if err != nil || len(objs) != 1 {
				t.Fatalf("decoded %d objects, err %v", len(objs), err)
			}
			raw, err := objs[0].JSON()
			if err != nil {
				t.Fatal(err)
			}
			got := string(raw)
			for _, secret := range []string{"hunter2", "s3cret"} {
				if i := strings.Index(got, secret); i >= 0 {
					t.Errorf("%s survives redaction: …%s…", secret, got[max(0, i-80):min(len(got), i+40)])
				}
			}
			for _, keep := range []string{"nfs.internal", "logs", "blob.csi.azure.com"} {
				if !strings.Contains(got, keep) {
					t.Errorf("redaction removed evidence %q:\n%s", keep, got)
				}
			}
		})
	}
}
