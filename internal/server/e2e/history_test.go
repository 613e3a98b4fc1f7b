package e2e

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rootline-dev/rootline/internal/fixtures"
)

// rolloutFiles writes one snapshot of a rollout gone wrong: Deployment prod/hub's two
// ReplicaSets (its image changed at 16:50), the new pod in ImagePullBackOff, and the kubelet's
// events about it.
func rolloutFiles(t *testing.T) []string {
	t.Helper()
	const good, bad = "jupyterhub/k8s-hub:3.0.0", "jupyterhub/k8s-hub:3.0.1-typo"
	rs := func(n int, hash, at, image string) string {
		return fmt.Sprintf(`{"apiVersion": "apps/v1", "kind": "ReplicaSet",
  "metadata": {"name": "hub-%[2]s", "namespace": "prod", "uid": "rs-%[2]s", "creationTimestamp": %[3]q,
    "annotations": {"deployment.kubernetes.io/revision": "%[1]d"},
    "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "hub", "uid": "d-1", "controller": true}]},
  "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "hub"}}, "template": {"metadata": {"labels": {"app": "hub"}},
    "spec": {"containers": [{"name": "hub", "image": %[4]q}]}}}}`, n, hash, at, image)
	}
	files := map[string]string{
		"rs.json": `{"apiVersion": "v1", "kind": "List", "items": [` + rs(1, "5d8f7c9b4", "2023-02-01T09:00:00Z", good) + `, ` +
			rs(2, "7f6b9d8c5", "2023-02-01T16:50:00Z", bad) + `]}`,
		"pods.json": fmt.Sprintf(`{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "hub-7f6b9d8c5-x1", "namespace": "prod", "uid": "p-1", "creationTimestamp": "2023-02-01T16:51:00Z",
    "labels": {"app": "hub", "pod-template-hash": "7f6b9d8c5"},
    "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "hub-7f6b9d8c5", "uid": "rs-7f6b9d8c5", "controller": true}]},
  "spec": {"nodeName": "core-1", "containers": [{"name": "hub", "image": %[1]q}]},
  "status": {"phase": "Pending", "startTime": "2023-02-01T16:51:00Z",
    "conditions": [{"type": "Ready", "status": "False", "reason": "ContainersNotReady", "lastTransitionTime": "2023-02-01T16:51:00Z"}],
    "containerStatuses": [{"name": "hub", "image": %[1]q, "ready": false, "restartCount": 0,
      "state": {"waiting": {"reason": "ImagePullBackOff", "message": "Back-off pulling image %[1]s"}}}]}}]}`, bad),
		"events.json": `{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Event",
  "metadata": {"name": "hub.1", "namespace": "prod", "uid": "ev-1"},
  "involvedObject": {"kind": "Pod", "namespace": "prod", "name": "hub-7f6b9d8c5-x1"}, "reason": "BackOff", "type": "Warning",
  "message": "Back-off pulling image", "count": 4, "firstTimestamp": "2023-02-01T16:52:00Z", "lastTimestamp": "2023-02-01T16:55:00Z"}]}`,
	}
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"rs.json", "pods.json", "events.json"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestChangeAndHistoryInTheBrowser uploads a rollout gone wrong through the upload page, finds
// the change on the timeline as a row of its own with its diff (before struck out, after
// inserted) linked to the cause and the symptom, follows the row's link to the Deployment's
// history, sees the swimlanes drawn (its revisions, its change, its pod's lanes), goes on to
// the pod's history, and Chromium reports no Content-Security-Policy violation on any page.
func TestChangeAndHistoryInTheBrowser(t *testing.T) {
	base, _ := startServer(t)
	ctx, log := browser(t)
	step, text := driver(t, ctx)
	step("create the incident",
		chromedp.Navigate(base+"/"),
		chromedp.SetValue(css(`input[name="title"]`), "Hub down after a rollout"),
		chromedp.SetValue(css(`input[name="id"]`), "rollout"),
		chromedp.Submit(css(`[data-testid="create-form"]`)),
		chromedp.WaitVisible(css(`[data-testid="incident-title"]`)))
	step("upload the snapshot",
		chromedp.Navigate(base+"/upload?incident=rollout"),
		chromedp.SetUploadFiles(css(`input[type="file"]`), rolloutFiles(t)),
		chromedp.Submit(css(`[data-testid="upload-form"]`)),
		chromedp.WaitVisible(css(`[data-testid="upload-results"]`)),
		chromedp.Click(css(`[data-testid="open-incident"]`)),
		chromedp.WaitVisible(css(`tr.entry-change [data-testid="change"]`)))
	row := text(`tr.entry-change`)
	timelineShot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	before, after := text(`tr.entry-change del`), text(`tr.entry-change ins`)
	links := text(`tr.entry-change [data-testid="change-links"]`)
	step("open the Deployment's history from the change row",
		chromedp.Click(css(`tr.entry-change a[data-testid="history-link"]`)),
		chromedp.WaitVisible(css(`[data-testid="history-picture"] svg`)))
	title := text(`[data-testid="history-title"]`)
	changes := text(`[data-testid="history-changes"]`)
	count := func(sel string) int {
		t.Helper()
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="history-picture"] svg `+sel+`').length`))
		if err != nil {
			t.Fatalf("count %s: %v", sel, err)
		}
		return n
	}
	lanes, changeMarks, spans := count("rect.lane"), count(".mark-change"), count("rect.span")
	box, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector('[data-testid="history-picture"] svg').getBoundingClientRect(); return [r.width, r.height] })()`))
	if err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	step("go on to the pod's history",
		chromedp.Click(css(`[data-testid="history-related-link"]`)),
		chromedp.WaitVisible(css(`[data-testid="history-picture"] svg`)))
	pod := text(`[data-testid="history-title"]`)
	podPicture := text(`[data-testid="history-picture"]`)

	if !strings.Contains(row, "X1") || !strings.Contains(row, "Deployment prod/hub") || !strings.Contains(row, "spec.template.spec.containers[hub].image") {
		t.Errorf("the change row: %q", row)
	}
	if before != "jupyterhub/k8s-hub:3.0.0" || after != "jupyterhub/k8s-hub:3.0.1-typo" {
		t.Errorf("the diff: %q → %q", before, after)
	}
	if !strings.Contains(links, "C1") || !strings.Contains(links, "S1") {
		t.Errorf("the change row links %q, want its cause and symptom", links)
	}
	if title != "History of Deployment prod/hub" || !strings.Contains(changes, "X1") || !strings.Contains(changes, "revision 2") {
		t.Errorf("the history page: %q, changes %q", title, changes)
	}
	if lanes < 5 || changeMarks != 1 || spans < 3 {
		t.Errorf("the swimlanes: %d lanes, %d change marks, %d spans", lanes, changeMarks, spans)
	}
	if len(box) != 2 || box[0] < 400 || box[1] < 100 {
		t.Errorf("the picture's box: %v", box)
	}
	if pod != "History of Pod prod/hub-7f6b9d8c5-x1" || !strings.Contains(podPicture, "container hub") {
		t.Errorf("the pod's history: %q", pod)
	}
	if d := log.list(); len(d) > 0 {
		t.Errorf("dialogs: %q", d)
	}
	if v := cspViolations(log); len(v) > 0 {
		t.Errorf("Content-Security-Policy violations:\n%s", strings.Join(v, "\n"))
	}
	if c := log.complaints(); len(c) > 0 {
		t.Errorf("the browser logged errors:\n%s", strings.Join(c, "\n"))
	}
	for name, png := range map[string][]byte{"rollout-timeline.png": timelineShot, "rollout-history.png": shot} {
		path := filepath.Join(artifacts(t), name)
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s", path)
	}
}

// drawnBar is a state's bar of the history picture as the browser lays it out: its tone and
// times (data- attributes), its x and width in the picture's units, and its left and right
// edges on the screen, and its fill as the browser paints it.
type drawnBar struct {
	Tone, From, To, Fill string
	X, W, Left, Right    float64
}

// drawnLane is the bars of one lane, with the lanes' window and where it is drawn.
type drawnLane struct {
	From, To string
	X0, X1   float64
	Bars     []drawnBar
}

// readLane reads a lane of the history picture on the page from its DOM.
const readLane = `((name) => {
	const g = document.querySelector('[data-testid="history-picture"] svg g.history-lanes');
	const row = [...g.querySelectorAll('g.lane-row')].find(r => r.dataset.name === name);
	if (!row) return null;
	return {From: g.dataset.from, To: g.dataset.to, X0: +g.dataset.x0, X1: +g.dataset.x1,
		Bars: [...row.querySelectorAll('rect.span')].map(r => { const b = r.getBoundingClientRect();
			return {Tone: r.dataset.tone, From: r.dataset.from, To: r.dataset.to, Fill: getComputedStyle(r).fill, X: +r.getAttribute('x'), W: +r.getAttribute('width'), Left: b.left, Right: b.right}; })};
})`

// TestEvictedHubHistoryInTheBrowser uploads IL-0070's evicted variant through the upload page
// and opens the history of the hub pod (evicted at 17:06, created two days before) at
// 1366×768. Its status and its DisruptionTarget condition are drawn unknown (hatched) from the
// window's start to 17:06 and bad only from 17:06, where 17:06 lies on the axis; the key
// shows the hatching of the unknown; the page says what hatched means.
func TestEvictedHubHistoryInTheBrowser(t *testing.T) {
	base, _ := startServer(t)
	ctx, log := browser(t)
	step, text := driver(t, ctx)
	il0070 := fixtures.IL0070Dir()
	step("create the incident",
		chromedp.EmulateViewport(1366, 768),
		chromedp.Navigate(base+"/"),
		chromedp.SetValue(css(`input[name="title"]`), "Hub evicted"),
		chromedp.SetValue(css(`input[name="id"]`), "IL-0070"),
		chromedp.SetValue(css(`input[name="cluster"]`), "leap"),
		chromedp.Submit(css(`[data-testid="create-form"]`)),
		chromedp.WaitVisible(css(`[data-testid="incident-title"]`)))
	step("upload the evicted variant",
		chromedp.Navigate(base+"/upload?incident=IL-0070"),
		chromedp.SetUploadFiles(css(`input[type="file"]`), []string{
			filepath.Join(il0070, "nodes.json"), filepath.Join(il0070, "pods.json"), filepath.Join(il0070, "events.json")}),
		chromedp.Submit(css(`[data-testid="upload-form"]`)),
		chromedp.WaitVisible(css(`[data-testid="upload-results"]`)))
	step("open the hub pod's history",
		chromedp.Navigate(base+"/incidents/IL-0070/history?kind=Pod&namespace=prod&name=hub-8sr9zr4gx7-js2fw"),
		chromedp.WaitVisible(css(`[data-testid="history-picture"] svg g.history-lanes`)))
	evicted := time.Date(2023, 2, 1, 17, 6, 0, 0, time.UTC)
	for _, name := range []string{"status (snapshot)", "condition DisruptionTarget"} {
		l, err := chromedp.Run(ctx, chromedp.Evaluate[*drawnLane](readLane+"("+fmt.Sprintf("%q", name)+")"))
		if err != nil || l == nil {
			t.Fatalf("lane %s: %v", name, err)
		}
		from, err1 := time.Parse(time.RFC3339Nano, l.From)
		to, err2 := time.Parse(time.RFC3339Nano, l.To)
		if err1 != nil || err2 != nil || !from.Before(evicted) || !to.After(evicted) || len(l.Bars) != 2 {
			t.Fatalf("lane %s: %+v", name, l)
		}
		at := l.X0 + (l.X1-l.X0)*float64(evicted.Sub(from))/float64(to.Sub(from))
		u, bad := l.Bars[0], l.Bars[1]
		if u.Tone != "unknown" || !strings.Contains(u.Fill, "#history-unknown") || u.To != "2023-02-01T17:06:00Z" || math.Abs(u.X-l.X0) > 0.1 || math.Abs(u.X+u.W-at) > 0.1 {
			t.Errorf("%s: the bar before 17:06 is %+v, want unknown from x %.1f to %.1f", name, u, l.X0, at)
		}
		if bad.Tone != "bad" || bad.From != "2023-02-01T17:06:00Z" || math.Abs(bad.X-at) > 0.1 {
			t.Errorf("%s: the bad bar is %+v, want it from x %.1f (17:06)", name, bad, at)
		}
		if math.Abs(bad.Left-u.Right) > 1 || bad.Left < 300 {
			t.Errorf("%s: on the screen the unknown ends at %.1f and the bad begins at %.1f", name, u.Right, bad.Left)
		}
	}
	hatch, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const k = document.querySelector('[data-testid="history-picture"] svg [data-legend="unknown"]');
		return k && k.getBoundingClientRect().width > 0 ? k.getAttribute('fill') : ''; })()`))
	if err != nil || hatch != "url(#history-unknown)" {
		t.Errorf("the key's unknown: %q, %v", hatch, err)
	}
	if key := text(`[data-testid="history-key"]`); !strings.Contains(key, "Hatched is unknown") {
		t.Errorf("the page's key: %q", key)
	}
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(artifacts(t), "il0070-hub-history.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
	if c := log.complaints(); len(c) > 0 {
		t.Errorf("the browser logged errors:\n%s", strings.Join(c, "\n"))
	}
}
