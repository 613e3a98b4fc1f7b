package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/report"
	"github.com/rootline-dev/rootline/internal/synth"
)

// scaleInput writes the large incident of issue 14 once per machine: 20,000 pods, 50,000
// events and the nodes synth gives them, kept in the temporary folder since the same options
// always give the same files.
func scaleInput(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(os.TempDir(), "rootline-scale-20000")
	if _, err := os.Stat(filepath.Join(dir, ".complete")); err == nil {
		return dir
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	o := synth.Options{Pods: 20000, Events: 50000, Seed: 42}
	for name, write := range map[string]func(io.Writer, synth.Options) error{
		"nodes.json": synth.WriteNodeList, "pods.json": synth.WritePodList, "events.json": synth.WriteEventList,
	} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriter(f)
		if err := write(w, o); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".complete"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestLargeIncidentReport: the 20,000-pod, 50,000-event incident is told as at most 200
// symptom groups and a text report of at most 150 lines, while the JSON keeps every member
// (each evicted pod of the input is in a group) and --all lists them.
func TestLargeIncidentReport(t *testing.T) {
	t.Parallel()
	dir := scaleInput(t)
	rep, err := analyzePaths(context.Background(), []string{dir}, analysis.Options{}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rep.Symptoms); n > 200 {
		t.Errorf("%d symptom groups, want at most 200", n)
	}
	var text bytes.Buffer
	if err := report.WriteText(&text, rep, report.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(text.String(), "\n"); n > 150 {
		t.Errorf("the text report has %d lines, want at most 150", n)
	}
	t.Logf("%d symptom groups, %d causes, %d lines of text", len(rep.Symptoms), len(rep.Causes), strings.Count(text.String(), "\n"))

	// Every evicted pod of the input is a member of a group, in the JSON and in --all.
	evicted := evictedPods(t, filepath.Join(dir, "pods.json"))
	if len(evicted) < 100 {
		t.Fatalf("the generated input holds %d evicted pods; the test needs many", len(evicted))
	}
	grouped := map[string]bool{}
	for _, s := range rep.Symptoms {
		if s.Kind != analysis.PodEvicted {
			continue
		}
		for _, o := range s.Objects {
			grouped[o.Namespace+"/"+o.Name] = true
		}
	}
	var all bytes.Buffer
	if err := report.WriteText(&all, rep, report.TextOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	for _, p := range evicted {
		if !grouped[p] {
			t.Errorf("evicted pod %s is in no pod_evicted group", p)
		}
		if !strings.Contains(all.String(), "pod "+p+" ") {
			t.Errorf("--all does not list evicted pod %s", p)
		}
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var back analysis.Report
	if err := json.Unmarshal(b, &back); err != nil || len(back.Symptoms) != len(rep.Symptoms) {
		t.Fatalf("JSON round trip: %v", err)
	}
}

// evictedPods lists namespace/name of the pods of a pod list in phase Failed with reason Evicted.
func evictedPods(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var list struct {
		Items []struct {
			Metadata struct{ Name, Namespace string }
			Status   struct{ Phase, Reason string }
		}
	}
	if err := json.NewDecoder(bufio.NewReader(f)).Decode(&list); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range list.Items {
		if p.Status.Phase == "Failed" && p.Status.Reason == "Evicted" {
			out = append(out, fmt.Sprintf("%s/%s", p.Metadata.Namespace, p.Metadata.Name))
		}
	}
	return out
}
