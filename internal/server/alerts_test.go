package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/access"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// alertPayload is Alertmanager's webhook payload of the group status, with the alerts given.
func alertPayload(status string, alerts ...string) string {
	return `{"receiver":"rootline","status":"` + status + `","alerts":[` + strings.Join(alerts, ",") + `],
"groupLabels":{"alertname":"KubePodCrashLooping"},"commonLabels":{"alertname":"KubePodCrashLooping"},"commonAnnotations":{},
"externalURL":"http://am:9093","version":"4","groupKey":"{}:{alertname=\"KubePodCrashLooping\"}","truncatedAlerts":0}`
}

// alertOf is one alert of a payload: of pod prod/hub-1, with a credential in its description.
func alertOf(fp, status, endsAt string) string {
	return fmt.Sprintf(`{"status":%q,"labels":{"alertname":"KubePodCrashLooping","namespace":"prod","pod":"hub-1","severity":"critical"},
"annotations":{"summary":"hub-1 is crash looping","description":"DB_PASSWORD=s3cr3t-value in the logs"},
"startsAt":"2023-02-01T17:05:00Z","endsAt":%q,"generatorURL":"http://prom:9090/graph","fingerprint":%q}`, status, endsAt, fp)
}

// TestPostAlerts: the webhook endpoint takes Alertmanager's payloads with a token that may
// write, refuses other versions, unknown fields and payloads too large, stores a payload once
// however often it comes, closes a firing when its resolved notification comes, and keeps no
// credential an annotation held.
func TestPostAlerts(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		cfg := testConfig()
		cfg.Auth, cfg.APIToken = "on", "0123456789abcdef-token"
		base := newServer(t, st, cfg)
		read, _, err := st.CreateToken(t.Context(), "reader", access.Read)
		if err != nil {
			t.Fatal(err)
		}
		write, _, err := st.CreateToken(t.Context(), "alertmanager", access.Write)
		if err != nil {
			t.Fatal(err)
		}
		reader, writer := []string{"Authorization", "Bearer " + read}, []string{"Authorization", "Bearer " + write}
		firing := alertPayload("firing", alertOf("aa01", "firing", "0001-01-01T00:00:00Z"), alertOf("aa02", "firing", "0001-01-01T00:00:00Z"))
		resolved := alertPayload("resolved", alertOf("aa01", "resolved", "2023-02-01T17:20:00Z"))
		admin := []string{"Authorization", "Bearer " + cfg.APIToken}
		createIncidentAs(t, base, `{"id": "alerted", "title": "Hub crash loop", "cluster": "leap",
			"started_at": "2023-02-01T17:00:00Z", "ended_at": "2023-02-01T17:30:00Z"}`, admin)
		createIncidentAs(t, base, `{"id": "before", "title": "Earlier", "cluster": "leap",
			"started_at": "2023-02-01T16:00:00Z", "ended_at": "2023-02-01T16:30:00Z"}`, admin)
		alertRows := func(t *testing.T, id string) []timelineRow {
			t.Helper()
			status, b := call(t, "GET", base+"/api/v1/incidents/"+id+"/timeline?type=alert", "", nil, reader...)
			var rows []timelineRow
			if err := json.Unmarshal(b, &rows); err != nil || status != 200 {
				t.Fatalf("timeline of %s: %d %s", id, status, b)
			}
			return rows
		}
		if rows := alertRows(t, "alerted"); len(rows) != 0 {
			t.Fatalf("alert rows before any alert: %+v", rows)
		}
		scenarios := []struct {
			name, path, body string
			header           []string
			wantStatus       int
			wantIn           []string
		}{
			{"no token", "/api/v1/alerts?cluster=leap", firing, nil, 401, []string{"authentication required"}},
			{"a token that may only read", "/api/v1/alerts?cluster=leap", firing, reader, 403, []string{"scope is read"}},
			{"no cluster", "/api/v1/alerts", firing, writer, 400, []string{"cluster= is required"}},
			{"bad cluster", "/api/v1/alerts?cluster=a%20b", firing, writer, 422, []string{"cluster"}},
			{"version 3", "/api/v1/alerts?cluster=leap", strings.Replace(firing, `"version":"4"`, `"version":"3"`, 1), writer, 422,
				[]string{`version \"3\" is not supported`}},
			{"an unknown field", "/api/v1/alerts?cluster=leap", strings.Replace(firing, `"receiver"`, `"hostile":1,"receiver"`, 1), writer, 422,
				[]string{`unknown field \"hostile\"`}},
			{"not JSON", "/api/v1/alerts?cluster=leap", `{"version":`, writer, 422, []string{"malformed payload"}},
			{"too large", "/api/v1/alerts?cluster=leap", firing + strings.Repeat(" ", 5<<20), writer, 413, []string{"larger than"}},
			{"firing", "/api/v1/alerts?cluster=leap", firing, writer, 200, []string{`"new":2`, `"resolved":0`, `"known":0`}},
			{"firing again", "/api/v1/alerts?cluster=leap", firing, writer, 200, []string{`"new":0`, `"known":2`}},
			{"resolved", "/api/v1/alerts?cluster=leap", resolved, writer, 200, []string{`"new":0`, `"resolved":1`}},
			{"resolved again", "/api/v1/alerts?cluster=leap", resolved, writer, 200, []string{`"resolved":0`, `"known":1`}},
		}
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) {
				status, got := call(t, "POST", base+sc.path, "application/json", strings.NewReader(sc.body), sc.header...)
				if status != sc.wantStatus {
					t.Fatalf("status = %d, want %d; body %s", status, sc.wantStatus, got)
				}
				for _, w := range sc.wantIn {
					if !strings.Contains(string(got), w) {
						t.Errorf("body does not contain %s:\n%s", w, got)
					}
				}
			})
		}
		// The cached analysis notices the alerts: both firings are rows of the incident whose
		// window they overlap, the first resolved at its end; none of the incident before.
		rows := alertRows(t, "alerted")
		want := []timelineRow{
			{Type: "alert", Kind: "resolved", Severity: "critical", Summary: "KubePodCrashLooping: hub-1 is crash looping", Object: "Pod prod/hub-1",
				Ref: "alert-aa01-20230201T170500Z", Last: "2023-02-01T17:20:00Z"},
			{Type: "alert", Kind: "firing", Severity: "critical", Summary: "KubePodCrashLooping: hub-1 is crash looping", Object: "Pod prod/hub-1",
				Ref: "alert-aa02-20230201T170500Z"},
		}
		if diff := cmp.Diff(want, rows); diff != "" {
			t.Errorf("alert rows (-want +got):\n%s", diff)
		}
		if rows := alertRows(t, "before"); len(rows) != 0 {
			t.Errorf("alert rows of an incident before the alerts: %+v", rows)
		}
		status, page := call(t, "GET", base+"/incidents/alerted", "", nil, reader...)
		if status != 200 || !strings.Contains(string(page), `id="alert-aa01-20230201T170500Z"`) || !strings.Contains(string(page), "entry-alert") {
			t.Errorf("the incident page shows no alert row: %d", status)
		}
		err = storetest.EachValue(t, bk.Target, func(table, column string, v []byte) error {
			if bytes.Contains(v, []byte("s3cr3t-value")) {
				t.Errorf("the credential of an annotation is stored in %s.%s", table, column)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

// timelineRow is what TestPostAlerts compares of an alert row of the timeline API.
type timelineRow struct {
	Type, Kind, Severity, Summary, Object, Ref, Last string
}

// TestAlertsCounted: /metrics counts the alerts received by status and what they did to the
// stored ones, and the answer says which firings a later notification updated.
func TestAlertsCounted(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		alertsCounted(t, newServer(t, st, testConfig()))
	})
}

func alertsCounted(t *testing.T, base string) {
	post := func(body string) string {
		t.Helper()
		status, b := call(t, "POST", base+"/api/v1/alerts?cluster=leap", "application/json", strings.NewReader(body))
		if status != 200 {
			t.Fatalf("post: %d %s", status, b)
		}
		return string(b)
	}
	post(alertPayload("firing", alertOf("aa01", "firing", "0001-01-01T00:00:00Z"), alertOf("aa02", "firing", "0001-01-01T00:00:00Z")))
	grown := strings.Replace(alertOf("aa02", "firing", "0001-01-01T00:00:00Z"), "hub-1 is crash looping", "hub-1 restarted 7 times", 1)
	if got := post(alertPayload("firing", grown)); !strings.Contains(got, `"updated":1`) {
		t.Errorf("a firing with new annotations: %s", got)
	}
	post(alertPayload("resolved", alertOf("aa01", "resolved", "2023-02-01T17:20:00Z")))
	_, b := call(t, "GET", base+"/metrics", "", nil)
	for _, want := range []string{`rootline_alerts_received_total{status="firing"} 3`, `rootline_alerts_received_total{status="resolved"} 1`,
		`rootline_alerts_stored_total{outcome="new"} 2`, `rootline_alerts_stored_total{outcome="updated"} 1`, `rootline_alerts_stored_total{outcome="resolved"} 1`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// TestAlertsInExport: the report written for an incident lists the alerts of its window (its
// Markdown under "Alerts", one line each: when, name, where, summary), and the JSON export
// holds them whole.
func TestAlertsInExport(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "alerted", "title": "Hub crash loop", "cluster": "leap",
			"started_at": "2023-02-01T17:00:00Z", "ended_at": "2023-02-01T17:30:00Z"}`)
		payload := alertPayload("firing", alertOf("aa01", "firing", "0001-01-01T00:00:00Z"))
		if status, b := call(t, "POST", base+"/api/v1/alerts?cluster=leap", "application/json", strings.NewReader(payload)); status != 200 {
			t.Fatalf("post: %d %s", status, b)
		}
		status, md := call(t, "GET", base+"/api/v1/incidents/alerted/export?format=md", "", nil)
		want := "- 2023-02-01 17:05Z, still firing when last told **KubePodCrashLooping** (severity critical, namespace prod, pod hub-1): hub-1 is crash looping"
		if status != 200 || !strings.Contains(string(md), "## Alerts") || !strings.Contains(string(md), want) {
			t.Errorf("export: %d\n%s", status, md)
		}
		if strings.Contains(string(md), "s3cr3t") {
			t.Errorf("the export holds a credential")
		}
		status, js := call(t, "GET", base+"/api/v1/incidents/alerted/export?format=json", "", nil)
		var out struct {
			Alerts []struct {
				Fingerprint string            `json:"fingerprint"`
				Labels      map[string]string `json:"labels"`
			} `json:"alerts"`
		}
		if err := json.Unmarshal(js, &out); err != nil || status != 200 || len(out.Alerts) != 1 || out.Alerts[0].Labels["alertname"] != "KubePodCrashLooping" {
			t.Errorf("JSON export: %d %s", status, js)
		}
	})
}
