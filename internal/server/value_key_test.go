package server_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/server"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestConfigMapValuesKeyed: on each database, with the installation's value key, what is
// stored of a ConfigMap's value is a keyed hash: neither the value nor its unkeyed hash (which a
// reader of a dump could match against "hunter2") is anywhere in the database; a changed value
// is still seen as changed, and shown without either.
func TestConfigMapValuesKeyed(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base, _ := newServerWith(t, st, testConfig(), func(d *server.Deps) { d.ValueKey = []byte("0123456789abcdef0123456789abcdef") })
		createIncident(t, base, `{"id": "cm", "title": "config"}`)
		configMap := func(rv, v string) string {
			return `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"hub-config","namespace":"prod","uid":"u-cm","resourceVersion":"` + rv + `"},"data":{"db_pass_plain":"` + v + `"}}`
		}
		for i, v := range []string{"hunter2", "hunter3"} {
			rv := string(rune('1' + i))
			if status, b := call(t, "POST", base+"/api/v1/incidents/cm/snapshots?name=cm-"+rv+".json", "application/json", strings.NewReader(configMap(rv, v))); status != http.StatusCreated {
				t.Fatalf("upload: %d %s", status, b)
			}
		}
		sum := sha256.Sum256([]byte("hunter2"))
		unkeyed := "sha256:" + hex.EncodeToString(sum[:6])
		keyed := false
		err := storetest.EachValue(t, bk.Target, func(table, column string, v []byte) error {
			if bytes.Contains(v, []byte("hunter2")) || bytes.Contains(v, []byte(unkeyed)) {
				t.Errorf("%s.%s holds the value or its unkeyed hash: %.200s", table, column, v)
			}
			keyed = keyed || bytes.Contains(v, []byte(`"db_pass_plain":"hmac:`))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !keyed {
			t.Error("no stored ConfigMap holds a keyed hash")
		}
		status, b := call(t, "GET", base+"/api/v1/incidents/cm/analysis", "", nil)
		if status != http.StatusOK || !strings.Contains(string(b), `"field":"data[db_pass_plain]"`) || strings.Contains(string(b), "hmac:") {
			t.Errorf("the analysis' changes: %d %.2000s; want the value's change, no hash", status, b)
		}
	})
}
