package server_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// alertAt is an alert of the hub pod of IL-0070 that started at start (RFC 3339): resolved at
// end, or firing when end is "".
func alertAt(fp, name, start, end string) string {
	status := "resolved"
	if end == "" {
		status, end = "firing", "0001-01-01T00:00:00Z"
	}
	return fmt.Sprintf(`{"status":%q,"labels":{"alertname":%q,"namespace":"jupyterhub","pod":"hub","severity":"critical"},
"annotations":{"summary":"fired at %s"},"startsAt":%q,"endsAt":%q,"generatorURL":"http://prom:9090/graph","fingerprint":%q}`,
		status, name, start, start, end, fp)
}

// TestAlertsInEvidenceWindow: an alert Alertmanager posts for the cluster of an incident
// without a start reaches the incident's timeline when it fires within the time its
// uploaded evidence spans (IL-0070's evicted variant, uploaded with cluster leap: its events
// run from 16:59 to 17:06:30), and not when it fired only before or starts after; an
// incident with a start and an end set reads its own window instead; an incident with neither a start nor evidence reads
// none.
func TestAlertsInEvidenceWindow(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		files := map[string][]byte{}
		names := []string{"events.json", "nodes.json", "pods.json"}
		for _, name := range names {
			data, err := os.ReadFile(filepath.Join("../analysis/testdata/il0070/evicted", name))
			if err != nil {
				t.Fatal(err)
			}
			files[name] = data
		}
		upload := func(t *testing.T, path string) {
			t.Helper()
			body, ct := multipartBody(t, files, names...)
			if status, b := call(t, "POST", base+path, ct, body); status != 201 && status != 200 {
				t.Fatalf("upload to %s: %d %s", path, status, b)
			}
		}
		upload(t, "/api/v1/incidents/il0070/snapshots?create=true&cluster=leap&title=Hub+evicted")
		createIncident(t, base, `{"id": "timed", "title": "Earlier", "cluster": "leap", "started_at": "2023-02-01T15:50:00Z", "ended_at": "2023-02-01T16:30:00Z"}`)
		upload(t, "/api/v1/incidents/timed/snapshots")
		createIncident(t, base, `{"id": "bare", "title": "Nothing yet", "cluster": "leap"}`)
		payload := alertPayload("firing", alertAt("0a0a0a0a0a0a0a01", "HubDown", "2023-02-01T17:06:00Z", ""),
			alertAt("0a0a0a0a0a0a0a02", "HubSlow", "2023-02-01T16:00:00Z", "2023-02-01T16:20:00Z"),
			alertAt("0a0a0a0a0a0a0a03", "HubLate", "2023-02-01T17:30:00Z", ""))
		if status, b := call(t, "POST", base+"/api/v1/alerts?cluster=leap", "application/json", strings.NewReader(payload)); status != 200 || !strings.Contains(string(b), `"new":3`) {
			t.Fatalf("post alerts: %d %s", status, b)
		}
		scenarios := []struct {
			name, incident string
			want           []string
		}{
			{"no start: its evidence's span, 16:59 to 17:06:30", "il0070", []string{"17:06 HubDown: fired at 2023-02-01T17:06:00Z"}},
			{"a start and an end: its own window", "timed", []string{"16:00 HubSlow: fired at 2023-02-01T16:00:00Z"}},
			{"neither a start nor evidence: no window", "bare", []string{}},
		}
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) {
				status, b := call(t, "GET", base+"/api/v1/incidents/"+sc.incident+"/timeline?type=alert", "", nil)
				var rows []struct {
					At      time.Time `json:"at"`
					Type    string    `json:"type"`
					Summary string    `json:"summary"`
				}
				if err := json.Unmarshal(b, &rows); err != nil || status != 200 {
					t.Fatalf("timeline: %d %s", status, b)
				}
				got := []string{}
				for _, r := range rows {
					if r.Type == "alert" {
						got = append(got, r.At.UTC().Format("15:04")+" "+r.Summary)
					}
				}
				if diff := cmp.Diff(sc.want, got); diff != "" {
					t.Errorf("alert rows of %s (-want +got):\n%s", sc.incident, diff)
				}
			})
		}
	})
}
