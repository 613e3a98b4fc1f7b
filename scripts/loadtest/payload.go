package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"os"
	"path/filepath"

	"github.com/rootline-dev/rootline/internal/synth"
)

// loadCluster is the cluster the incident and its snapshots name: IL-0070's.
const loadCluster = "leap"

// smallPods is the size of the generated cluster the small snapshots' events are about.
const smallPods = 3000

// snapshotInfo describes the first snapshot.
type snapshotInfo struct {
	body                []byte
	contentType         string
	nodes, pods, events int
	files               []string
}

// baseSnapshot returns the IL-0070 snapshot (the evicted reading) as `rootline upload` sends
// it: nodes.json, pods.json and events.json as kubectl prints them, in one multipart body.
// internal/synth makes the files, so the load test needs nothing outside the repository.
func baseSnapshot() (snapshotInfo, error) {
	nodes, pods, events, err := synth.IL0070(synth.IL0070Evicted)
	if err != nil {
		return snapshotInfo{}, err
	}
	dir, err := os.MkdirTemp("", "rootline-loadtest-")
	if err != nil {
		return snapshotInfo{}, err
	}
	defer os.RemoveAll(dir)
	if err := synth.WriteIL0070(dir, synth.IL0070Evicted); err != nil {
		return snapshotInfo{}, err
	}
	info := snapshotInfo{nodes: len(nodes), pods: len(pods), events: len(events)}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, name := range []string{"nodes.json", "pods.json", "events.json"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return snapshotInfo{}, err
		}
		w, err := mw.CreateFormFile("file", name)
		if err != nil {
			return snapshotInfo{}, err
		}
		if _, err := w.Write(b); err != nil {
			return snapshotInfo{}, err
		}
		info.files = append(info.files, name)
	}
	if err := mw.Close(); err != nil {
		return snapshotInfo{}, err
	}
	info.body, info.contentType = buf.Bytes(), mw.FormDataContentType()
	return info, nil
}

// smallSnapshot returns the k-th small snapshot: `kubectl get events -o json` of n events of a
// generated JupyterHub cluster, events k·n to k·n+n-1 of its stream, so that no two snapshots
// hold the same bytes and each adds events the incident did not have.
func smallSnapshot(seed, k int64, n int) (name string, body []byte, err error) {
	o := synth.Options{Seed: seed, Pods: smallPods}
	items := make([]any, n)
	for j := range n {
		items[j] = synth.Event(o, int(k)*n+j)
	}
	body, err = json.MarshalIndent(map[string]any{
		"apiVersion": "v1", "kind": "List", "items": items, "metadata": map[string]string{"resourceVersion": ""},
	}, "", "    ")
	if err != nil {
		return "", nil, err
	}
	return fmt.Sprintf("events-%06d.json", k), body, nil
}
