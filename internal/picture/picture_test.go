package picture

import (
	"context"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/timeline"
)

func il0070(t *testing.T) *cluster.Model {
	t.Helper()
	dir := filepath.Join("..", "analysis", "testdata", "il0070", "evicted")
	var objs []*cluster.Object
	dec := ingest.NewDecoder(ingest.Options{})
	for _, n := range []string{"nodes.json", "pods.json", "events.json"} {
		f, err := os.Open(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		err = dec.Decode(context.Background(), n, f, func(o *cluster.Object) error { objs = append(objs, o); return nil })
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return cluster.NewModel(nil, objs)
}

// wellFormed parses the SVG as XML: a broken picture fails here, not in a browser.
func wellFormed(t *testing.T, svg string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(svg))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("SVG is not well formed: %v\n%.300s", err, svg)
		}
	}
}

func TestPictures(t *testing.T) {
	m := il0070(t)
	rep := analysis.Run(m, analysis.Options{})
	from := time.Date(2023, 2, 1, 16, 55, 0, 0, time.UTC)
	to := from.Add(15 * time.Minute)

	events := EventsPerMinute(timeline.Buckets(timeline.Build(m, rep, nil), from, to, time.Minute))
	wellFormed(t, events)
	if n := strings.Count(events, `class="bar-warning"`); n != 16 {
		t.Errorf("%d warning bars, want one a minute (16)", n)
	}

	nodes := NodesOverTime(m, from, to)
	wellFormed(t, nodes)
	// The burst: the line climbs in steps within the window, from the old nodes to all 126.
	if !strings.Contains(nodes, ">126</text>") || strings.Count(nodes, " V ") < 100 {
		t.Errorf("nodes picture does not show the burst to 126 nodes: %.400s", nodes)
	}

	var hub *cluster.Object
	for _, n := range m.Nodes {
		for _, p := range m.PodsOn(n.Name) {
			if cluster.PodComponent(p.Pod) == cluster.ComponentPrometheus {
				hub = n
			}
		}
	}
	if hub == nil {
		t.Fatal("no node with Prometheus")
	}
	req := NodeRequests([]cluster.NodeLoad{m.Load(hub)})
	wellFormed(t, req)
	if !strings.Contains(req, `class="pod pod-prometheus"`) || !strings.Contains(req, "memory 9") {
		t.Errorf("the hub's node does not show Prometheus and its memory share: %.600s", req)
	}
}

func TestEscaping(t *testing.T) {
	s := newSVG(10, 10, `<script>alert(1)</script>`)
	s.text(0, 0, "start", "label", `"><img src=x onerror=alert(1)>`)
	out := s.String()
	wellFormed(t, out)
	if strings.Contains(out, "<script>") || strings.Contains(out, "<img") {
		t.Errorf("unescaped text: %s", out)
	}
}
