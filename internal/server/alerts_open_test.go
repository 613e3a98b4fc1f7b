package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/metrics"
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
		cfg.Prometheus = metrics.Targets{"live": "http://127.0.0.1:1"} // a cluster Rootline knows
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
		if first != "alert-live-20230201-1706-bb02" {
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
		if got := post(criticalOf("bb04", "critical", "2023-02-02T09:00:00Z")); got != "alert-live-20230202-0900-bb04" {
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

// TestAlertsOpenIncidentsBounded: incidents are opened from alerts only for clusters Rootline
// knows (a firing of a cluster named only by the payload's URL opens nothing), with the cluster
// in the id (the same firing in two clusters opens one in each; a name with characters an id
// may not hold gives a valid id), and at most ten at once (firings of a cluster whose incident
// is open spend none of them).
func TestAlertsOpenIncidentsBounded(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		cfg := testConfig()
		cfg.OpenIncidentsFor = alert.Selector{{Name: "severity", Value: "critical"}}
		base := newServer(t, st, cfg)
		post := func(cluster, fp string) string {
			t.Helper()
			status, b := call(t, "POST", base+"/api/v1/alerts?cluster="+url.QueryEscape(cluster), "application/json",
				strings.NewReader(alertPayload("firing", criticalOf(fp, "critical", "2023-02-01T17:06:00Z"))))
			if status != http.StatusOK {
				t.Fatalf("alerts of %s: %d %s", cluster, status, b)
			}
			var r struct{ Opened string }
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatal(err)
			}
			return r.Opened
		}
		know := func(cluster string) { // a closed incident of the cluster: known, and nothing open
			t.Helper()
			body, _ := json.Marshal(map[string]string{"title": "before", "cluster": cluster, "started_at": "2023-01-01T00:00:00Z", "ended_at": "2023-01-01T01:00:00Z"})
			if status, b := call(t, "POST", base+"/api/v1/incidents", "application/json", strings.NewReader(string(body))); status != http.StatusCreated {
				t.Fatalf("incident of %s: %d %s", cluster, status, b)
			}
		}
		if got := post("stranger", "dd01"); got != "" {
			t.Errorf("a firing of a cluster Rootline knows nothing of opened %s", got)
		}
		know("east")
		know("west")
		if a, b := post("east", "dd02"), post("west", "dd02"); a != "alert-east-20230201-1706-dd02" || b != "alert-west-20230201-1706-dd02" {
			t.Errorf("the same firing in two clusters opened %q and %q", a, b)
		}
		for i := range 15 { // east has an open incident: these open none, and spend nothing of the bound
			if got := post("east", fmt.Sprintf("ee%02d", i)); got != "" {
				t.Errorf("a firing of a cluster with an open incident opened %s", got)
			}
		}
		odd := "gke_acme/us-central1:prod@eu"
		know(odd)
		if got := post(odd, "dd03"); !strings.HasPrefix(got, "alert-gke_acme-us-c-") || !incident.ValidID(got) {
			t.Errorf("a firing of cluster %s opened %q", odd, got)
		}
		opened := 3
		for i := range 10 {
			name := fmt.Sprintf("k%d", i)
			know(name)
			if got := post(name, "dd04"); got != "" {
				opened++
			}
		}
		if opened != 10 {
			t.Errorf("%d incidents opened from alerts at once, want 10", opened)
		}
	})
}
