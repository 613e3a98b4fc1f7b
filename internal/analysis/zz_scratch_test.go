package analysis

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

func TestZZScratch(t *testing.T) {
	dir := os.Getenv("SCRATCH")
	if dir == "" {
		t.Skip()
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	sort.Strings(files)
	var docs []string
	for _, f := range files {
		b, _ := os.ReadFile(f)
		docs = append(docs, string(b))
	}
	m := model(t, docs...)
	for _, o := range m.Pods {
		b, _ := json.Marshal(o.Pod)
		t.Logf("POD %s", b)
	}
	for _, o := range m.Nodes {
		b, _ := json.Marshal(o.Node)
		t.Logf("NODE %s", b)
	}
	for _, o := range m.Events {
		b, _ := json.Marshal(o.Event)
		t.Logf("EVENT %s", b)
	}
	rep := Run(m, Options{})
	b, _ := json.MarshalIndent(rep, "", "  ")
	t.Logf("%s", b)
}
