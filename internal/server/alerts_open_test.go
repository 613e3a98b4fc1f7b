package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// criticalOf is a firing alert of cluster "live" with the severity given, started at start.
func criticalOf(fp, severity, start string) string {
	return fmt.Sprintf(`{"status":"firing","labels":{"alertname":"KubeNodeNotReady","node":"core-1","severity":%q},
"annotations":{"summary":"core-1 has been unready for more than 15 minutes"},
"startsAt":%q,"endsAt":"0001-01-01T00:00:00Z","generatorURL":"http://prom:9090/graph","fingerprint":%q}`, severity, start, fp)
}

// TestAlertsOpenIncidents: with --open-incidents-for severity=critical, a firing critical alert
// of a cluster with no open incident opens one (titled from the alert, started when it
// started); another alert while it is open opens none; a warning opens none; once the
// incident is closed, a new critical firing opens another, and the same firing delivered again
// does not open its incident twice. Without the flag, nothing is opened.
func TestAlertsOpenIncidents(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		cfg := testConfig()
		cfg.OpenIncidentsFor = alert.Selector{{Name: "severity", Value: "critical"}}
		base := newServer(t, st, cfg)
		post := func(alerts ...string) string {
			t.Helper()
			status, b := call(t, "POST", base+"/api/v1/alerts?cluster=live", "application/json", strings.NewReader(alertPayload("firing", alerts...)))
			if status != http.StatusOK {
				t.Fatalf("alerts: %d %s", status, b)
			}
			var r struct{ Opened string }
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatal(err)
			}
			return r.Opened
		}
		incidentIDs := func() []string {
			t.Helper()
			status, b := call(t, "GET", base+"/api/v1/incidents", "", nil)
			if status != http.StatusOK {
				t.Fatalf("incidents: %d %s", status, b)
			}
			var list []struct{ ID string }
			if err := json.Unmarshal(b, &list); err != nil {
				t.Fatalf("%v: %s", err, b)
			}
			var ids []string
			for _, in := range list {
				ids = append(ids, in.ID)
			}
			return ids
		}
		if got := post(criticalOf("bb01", "warning", "2023-02-01T17:05:00Z")); got != "" {
			t.Errorf("a warning opened %s", got)
		}
		first := post(criticalOf("bb02", "critical", "2023-02-01T17:06:00Z"))
		if first != "alert-20230201-1706-bb02" {
			t.Fatalf("a critical firing opened %q", first)
		}
		status, b := call(t, "GET", base+"/api/v1/incidents/"+first, "", nil)
		if status != http.StatusOK || !strings.Contains(string(b), `"title":"KubeNodeNotReady: core-1 has been unready for more than 15 minutes"`) ||
			!strings.Contains(string(b), `"cluster":"live"`) || !strings.Contains(string(b), `"started_at":"2023-02-01T17:06:00Z"`) {
			t.Errorf("the incident opened: %d %s", status, b)
		}
		if got := post(criticalOf("bb03", "critical", "2023-02-01T17:07:00Z")); got != "" {
			t.Errorf("a second critical alert while the first incident is open opened %s", got)
		}
		// Closed: a new critical firing opens another; the first firing again does not reopen its own.
		closed := `{"title": "KubeNodeNotReady", "cluster": "live", "started_at": "2023-02-01T17:06:00Z", "ended_at": "2023-02-01T18:00:00Z"}`
		if status, b := call(t, "PUT", base+"/api/v1/incidents/"+first, "application/json", strings.NewReader(closed)); status != http.StatusOK {
			t.Fatalf("close: %d %s", status, b)
		}
		if got := post(criticalOf("bb02", "critical", "2023-02-01T17:06:00Z")); got != "" {
			t.Errorf("the same firing again opened %s", got)
		}
		if got := post(criticalOf("bb04", "critical", "2023-02-02T09:00:00Z")); got != "alert-20230202-0900-bb04" {
			t.Errorf("a critical firing after the incident closed opened %q", got)
		}
		if ids := incidentIDs(); len(ids) != 2 {
			t.Errorf("incidents %q, want the two opened", ids)
		}
	})
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		status, b := call(t, "POST", base+"/api/v1/alerts?cluster=live", "application/json", strings.NewReader(alertPayload("firing", criticalOf("cc01", "critical", "2023-02-01T17:06:00Z"))))
		if status != http.StatusOK || strings.Contains(string(b), "opened") {
			t.Errorf("without --open-incidents-for: %d %s", status, b)
		}
	})
}
