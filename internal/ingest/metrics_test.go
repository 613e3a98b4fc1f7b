package ingest

import (
	"errors"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/metrics"
)

// answer is a saved range answer: the hub's throttling, two points, and a label that holds a
// credential.
const answer = `{"status":"success","data":{"resultType":"matrix","result":[
 {"metric":{"namespace":"prod","pod":"hub-1","container":"hub","db_password":"hunter2"},
  "values":[[1675270800,"0"],[1675270860,"0.8"]]}]}}`

// TestSavedPrometheusAnswers: a saved query_range answer is detected among kubectl output and
// read into series named by its file, or by a manifest beside it in an archive (before or after
// it); label values are redacted; an answer that is cut, failed, of another type or empty is
// refused or skipped, naming the file.
func TestSavedPrometheusAnswers(t *testing.T) {
	t.Run("one file", func(t *testing.T) {
		objs, _, err := decodeAll(t, "prometheus/container_throttling.json", []byte(answer), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(objs) != 1 || objs[0].Kind != metrics.SeriesKind || !strings.HasPrefix(objs[0].Name, "container_throttling-") {
			t.Fatalf("objects: %+v", objs)
		}
		if strings.Contains(string(objs[0].Raw), "hunter2") {
			t.Errorf("a credential label kept: %s", objs[0].Raw)
		}
		got, bad := metrics.FromObjects(objs)
		if bad != 0 || len(got) != 1 || got[0].Name != "container_throttling" || got[0].File != "prometheus/container_throttling.json" ||
			!strings.Contains(got[0].Expr, "container_cpu_cfs_throttled_periods_total") || len(got[0].Series[0].Points) != 2 || got[0].Series[0].Points[1].Value != 0.8 {
			t.Errorf("answers: %+v (bad %d)", got, bad)
		}
	})
	for _, order := range [][]string{{"queries.json", "hub.json"}, {"hub.json", "queries.json"}} {
		t.Run("archive with a manifest, "+order[0]+" first", func(t *testing.T) {
			manifest, err := metrics.Manifest([]metrics.ManifestEntry{{File: "hub.json", Name: "container_throttling", Query: "my_throttling"}})
			if err != nil {
				t.Fatal(err)
			}
			objs, _, err := decodeAll(t, "metrics.tar", tarOf(t, map[string][]byte{"queries.json": manifest, "hub.json": []byte(answer)}, order...), Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, bad := metrics.FromObjects(objs)
			if bad != 0 || len(got) != 1 || got[0].Name != "container_throttling" || got[0].Expr != "my_throttling" || got[0].File != "metrics.tar:hub.json" {
				t.Errorf("answers: %+v (bad %d) of %d objects", got, bad, len(objs))
			}
		})
	}
	t.Run("an export read back", func(t *testing.T) {
		objs, _, err := decodeAll(t, "prometheus/container_throttling.json", []byte(answer), Options{})
		if err != nil {
			t.Fatal(err)
		}
		again, _, err := decodeAll(t, "export.json", objs[0].Raw, Options{})
		if err != nil || len(again) != 1 || again[0].Kind != metrics.SeriesKind {
			t.Fatalf("read back: %v %+v", err, again)
		}
		// Written as an object by hand, a credential in a label is redacted too.
		raw := `{"apiVersion":"rootline.dev/v1","kind":"MetricSeries","query":"q","labels":{"api_token":"hunter2","pod":"hub-1"},"points":[[1,"1"]]}`
		hand, _, err := decodeAll(t, "series.json", []byte(raw), Options{})
		if err != nil || len(hand) != 1 || strings.Contains(string(hand[0].Raw), "hunter2") || !strings.Contains(string(hand[0].Raw), "hub-1") {
			t.Errorf("a series object by hand: %v %s", err, hand[0].Raw)
		}
	})
	refused := []struct {
		name, input, want string
	}{
		{"cut short", answer[:80], "saved Prometheus answer that does not read"},
		{"failed", `{"status":"error","errorType":"bad_data","error":"parse error"}`, "a query that failed"},
		{"instant query", `{"status":"success","data":{"resultType":"vector","result":[]}}`, "/api/v1/query"},
		{"bad value", `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1,"x"]]}]}}`, "not a number"},
		{"series object without query", `{"apiVersion":"rootline.dev/v1","kind":"MetricSeries","labels":{},"points":[]}`, "names its query"},
		{"manifest without names", `{"apiVersion":"rootline.dev/v1","kind":"MetricQueries","queries":[{"file":"a.json"}]}`, "names its query"},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := decodeAll(t, "saved.json", []byte(tt.input), Options{})
			var e *Error
			if !errors.As(err, &e) || e.File != "saved.json" || !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one naming saved.json that says %q", err, tt.want)
			}
		})
	}
	t.Run("no series", func(t *testing.T) {
		objs, skipped, err := decodeAll(t, "node_cpu.json", []byte(`{"status":"success","data":{"resultType":"matrix","result":[]}}`), Options{})
		if err != nil || len(objs) != 0 || len(skipped) != 1 || !strings.Contains(skipped[0].Reason, "no series") {
			t.Errorf("empty answer: %v %+v %+v", err, objs, skipped)
		}
	})
	t.Run("within the budget", func(t *testing.T) {
		_, _, err := decodeAll(t, "big.json", []byte(answer), Options{MaxBytes: 64})
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("over the budget: %v", err)
		}
		// An answer of exactly the budget is read: its bytes are counted once.
		if objs, _, err := decodeAll(t, "exact.json", []byte(answer), Options{MaxBytes: int64(len(answer))}); err != nil || len(objs) != 1 {
			t.Errorf("at the budget: %v, %d objects", err, len(objs))
		}
	})
}
