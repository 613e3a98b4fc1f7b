package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
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
