package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/access"
	"github.com/rootline-dev/rootline/internal/metrics/promtest"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
	"github.com/rootline-dev/rootline/internal/testenv"
)

// alertmanagerBinary is where Debian's prometheus-alertmanager puts Alertmanager.
const alertmanagerBinary = "prometheus-alertmanager"

// alertmanagerConfig routes every alert to Rootline's webhook at once (group_wait, and
// group_interval for the resolved notification, kept short so that the test takes seconds).
const alertmanagerConfig = `route:
  receiver: rootline
  group_by: [alertname]
  group_wait: 200ms
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: rootline
    webhook_configs:
      - url: %q
        send_resolved: true
        http_config:
          authorization:
            credentials: %q
`

// TestAlertmanager: a real Alertmanager, its webhook receiver pointed at Rootline with a token
// made for it, delivers the alerts posted to it: they become rows of the timeline of the
// incident of the cluster, and when they are posted again ended (resolved), their rows close.
func TestAlertmanager(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath(alertmanagerBinary)
	if err != nil {
		testenv.Missing(t, "no %s in PATH (apt-get install prometheus-alertmanager)", alertmanagerBinary)
		return
	}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		cfg := testConfig()
		cfg.Auth, cfg.APIToken = "on", "0123456789abcdef-token"
		base := newServer(t, st, cfg)
		token, _, err := st.CreateToken(t.Context(), "alertmanager", access.Write)
		if err != nil {
			t.Fatal(err)
		}
		admin := []string{"Authorization", "Bearer " + cfg.APIToken}
		start := time.Now().UTC().Add(-10 * time.Minute).Truncate(time.Second)
		createIncidentAs(t, base, fmt.Sprintf(`{"id": "live", "title": "Hub crash loop", "cluster": "leap", "started_at": %q}`,
			start.Add(-time.Hour).Format(time.RFC3339)), admin)

		am := startAlertmanager(t, bin, fmt.Sprintf(alertmanagerConfig, base+"/api/v1/alerts?cluster=leap", token))
		alerts := func(endsAt string) string {
			var out []string
			for _, pod := range []string{"hub-1", "hub-2"} {
				a := fmt.Sprintf(`{"labels":{"alertname":"KubePodCrashLooping","namespace":"prod","pod":%q,"severity":"critical"},
					"annotations":{"summary":"%s is crash looping"},"startsAt":%q,"generatorURL":"http://prometheus:9090/graph"`, pod, pod, start.Format(time.RFC3339))
				if endsAt != "" {
					a += fmt.Sprintf(`,"endsAt":%q`, endsAt)
				}
				out = append(out, a+"}")
			}
			return "[" + strings.Join(out, ",") + "]"
		}
		postToAlertmanager(t, am, alerts(""))
		rows := waitForAlertRows(t, base, admin, func(rows []timelineRow) bool {
			return len(rows) == 2 && rows[0].Kind == "firing" && rows[1].Kind == "firing"
		})
		for _, r := range rows {
			if r.Severity != "critical" || !strings.HasPrefix(r.Object, "Pod prod/hub-") || r.Last != "" {
				t.Errorf("firing row %+v", r)
			}
		}
		ended := time.Now().UTC().Add(-time.Second).Truncate(time.Second)
		postToAlertmanager(t, am, alerts(ended.Format(time.RFC3339)))
		rows = waitForAlertRows(t, base, admin, func(rows []timelineRow) bool {
			return len(rows) == 2 && rows[0].Kind == "resolved" && rows[1].Kind == "resolved"
		})
		for _, r := range rows {
			if r.Last != ended.Format(time.RFC3339) {
				t.Errorf("resolved row %+v, want it to last until %s", r, ended.Format(time.RFC3339))
			}
		}
	})
}

// startAlertmanager starts Alertmanager on loopback with the configuration given, without its
// gossip (no cluster), and returns its URL once it is ready. It is stopped when the test ends.
func startAlertmanager(t *testing.T, bin, config string) string {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "alertmanager.yml")
	if err := os.WriteFile(file, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := promtest.FreeAddr(t)
	return promtest.Daemon(t, bin, []string{"--config.file=" + file, "--storage.path=" + filepath.Join(dir, "data"),
		"--web.listen-address=" + addr, "--cluster.listen-address=", "--log.level=debug"}, addr)
}

// postToAlertmanager posts alerts to Alertmanager's API, as Prometheus does.
func postToAlertmanager(t *testing.T, am, alerts string) {
	t.Helper()
	resp, err := http.Post(am+"/api/v2/alerts", "application/json", strings.NewReader(alerts))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /api/v2/alerts: %s", resp.Status)
	}
}

// waitForAlertRows polls the alert rows of incident "live" until done says they are as wanted
// (at most 30 s) and returns them.
func waitForAlertRows(t *testing.T, base string, auth []string, done func([]timelineRow) bool) []timelineRow {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		status, b := call(t, "GET", base+"/api/v1/incidents/live/timeline?type=alert", "", nil, auth...)
		var rows []timelineRow
		if err := json.Unmarshal(b, &rows); err != nil || status != http.StatusOK {
			t.Fatalf("timeline: %d %s", status, b)
		}
		if done(rows) {
			return rows
		}
		if time.Now().After(deadline) {
			t.Fatalf("Rootline's alert rows are still %+v", rows)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
