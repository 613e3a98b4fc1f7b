package server_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestAlertsCleanedAndRedacted: on each database, a payload of two alerts, one with a NUL in
// its generatorURL and an annotation (PostgreSQL refuses a NUL in text) and one with
// credentials in its labels, is taken whole: both alerts stored, no NUL and no credential in
// any stored value, in the JSON export or on the incident's page, the labels' other values kept.
func TestAlertsCleanedAndRedacted(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "hostile-alerts", "title": "alerts", "cluster": "leap",
			"started_at": "2023-02-01T17:00:00Z", "ended_at": "2023-02-01T17:30:00Z"}`)
		nul := `{"status":"firing","labels":{"alertname":"HubDown","namespace":"prod","pod":"hub-1"},
"annotations":{"summary":"hub-1 is down\u0000 again"},"startsAt":"2023-02-01T17:05:00Z","endsAt":"0001-01-01T00:00:00Z",
"generatorURL":"http://prom:9090/graph\u0000?g0.expr=up","fingerprint":"bb01"}`
		secret := `{"status":"firing","labels":{"alertname":"DBDown","namespace":"prod","password":"hunter2-a","api_key":"hunter2-b",
"db_url":"postgres://app:hunter2-c@db:5432/app"},"annotations":{"summary":"db is down"},"startsAt":"2023-02-01T17:06:00Z",
"endsAt":"0001-01-01T00:00:00Z","generatorURL":"http://prom:9090/graph","fingerprint":"bb02"}`
		status, b := call(t, "POST", base+"/api/v1/alerts?cluster=leap", "application/json", strings.NewReader(alertPayload("firing", nul, secret)))
		if status != http.StatusOK || !strings.Contains(string(b), `"new":2`) {
			t.Fatalf("post: %d %s, want 200 with both alerts new", status, b)
		}
		var all bytes.Buffer
		err := storetest.EachValue(t, bk.Target, func(table, column string, v []byte) error {
			if bytes.Contains(v, []byte("hunter2")) || bytes.IndexByte(v, 0) >= 0 {
				t.Errorf("%s.%s holds a credential or a NUL: %q", table, column, v[:min(len(v), 200)])
			}
			all.Write(v)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, keep := range []string{"postgres://app:[redacted]@db:5432/app", "DBDown", "hub-1 is down\uFFFD again"} {
			if !bytes.Contains(all.Bytes(), []byte(keep)) {
				t.Errorf("no stored value holds %q", keep)
			}
		}
		for _, url := range []string{"/api/v1/incidents/hostile-alerts/export?format=json", "/incidents/hostile-alerts"} {
			status, page := call(t, "GET", base+url, "", nil)
			if status != http.StatusOK || bytes.Contains(page, []byte("hunter2")) || bytes.IndexByte(page, 0) >= 0 {
				t.Errorf("%s: %d, a credential or a NUL in it", url, status)
			}
			if !bytes.Contains(page, []byte("DBDown")) {
				t.Errorf("%s does not show the alert DBDown", url)
			}
		}
	})
}
