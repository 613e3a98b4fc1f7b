package picture

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/metrics"
)

// TestSeriesPicture: a query's series are drawn on the events picture's time axis, the highest
// peaks first and at most maxLines of them, gaps (NaN, points outside the window) breaking the
// line, the symptom groups shaded and labelled, values in the query's unit, every text escaped.
func TestSeriesPicture(t *testing.T) {
	from := time.Date(2023, 2, 1, 16, 30, 0, 0, time.UTC)
	to := from.Add(time.Hour)
	a := metrics.Answer{Name: "container_throttling", File: "prometheus/container_throttling.json"}
	for i := range 7 {
		s := metrics.Series{Labels: map[string]string{"namespace": "prod", "pod": "hub-" + string(rune('a'+i)), "container": "<hub>"}}
		for m := -10; m < 70; m++ {
			v := float64(i) / 10
			if m == 30 {
				v = math.NaN()
			}
			s.Points = append(s.Points, metrics.Point{At: from.Add(time.Duration(m) * time.Minute), Value: v})
		}
		a.Series = append(a.Series, s)
	}
	marks := []Mark{{Label: "S1 liveness_probe_failed", Critical: true, Spans: []Span{{from.Add(29 * time.Minute), from.Add(36 * time.Minute)}}}}
	svg := Series(a, from, to, marks)
	wellFormed(t, svg)
	for _, want := range []string{"the 5 highest of 7 series", "prod/hub-g &lt;hub&gt;", "60%", "S1 liveness_probe_failed: 16:59 to 17:06", "16:30", "17:30 UTC"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the picture lacks %q", want)
		}
	}
	if strings.Contains(svg, "hub-a") || strings.Contains(svg, "<hub>") {
		t.Errorf("the lowest series drawn, or a label unescaped")
	}
	// 61 points a line in the window, one of them NaN: two runs, each starting with M.
	if n := strings.Count(svg, `d="M`); n != 5 {
		t.Errorf("%d lines, want 5", n)
	}
	if strings.Count(svg, " M") != 5 {
		t.Errorf("the NaN does not break each line once: %d", strings.Count(svg, " M"))
	}
	empty := Series(metrics.Answer{Name: "node_cpu", Series: []metrics.Series{{Points: []metrics.Point{{At: to.Add(time.Hour), Value: 1}}}}}, from, to, nil)
	wellFormed(t, empty)
	if !strings.Contains(empty, "no points of node_cpu in this window") {
		t.Errorf("empty picture: %s", empty)
	}
	if got := unitValue("prometheus_memory", 8e9); got != "7.5 GiB" {
		t.Errorf("memory unit: %s", got)
	}
	if got := unitValue("container_cpu", 0.01); got != "0.01 cores" {
		t.Errorf("cpu unit: %s", got)
	}
}
