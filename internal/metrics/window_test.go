package metrics

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
)

func TestWindowFor(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct {
		name           string
		from, to, now  string
		wantFrom, want string
		step           time.Duration
		err            string
	}{
		{"two hours", "2023-02-01T16:59:00.28Z", "2023-02-01T17:06:21Z", "2026-01-01T00:00:00Z", "2023-02-01T16:29:00Z", "2023-02-01T17:21:30Z", 15 * time.Second, ""},
		{"a day", "2023-02-01T00:00:00Z", "2023-02-02T00:00:00Z", "2026-01-01T00:00:00Z", "2023-01-31T23:30:00Z", "2023-02-02T00:15:00Z", 3 * time.Minute, ""},
		{"until now", "2026-01-01T11:50:00Z", "2026-01-01T11:59:00Z", "2026-01-01T12:00:07Z", "2026-01-01T11:20:00Z", "2026-01-01T12:00:07Z", 15 * time.Second, ""},
		{"a month: the last week", "2023-01-01T00:00:00Z", "2023-02-01T00:00:00Z", "2026-01-01T00:00:00Z", "2023-01-25T00:15:00Z", "2023-02-01T00:15:45Z", 1215 * time.Second, ""},
		{"no times", "", "", "2026-01-01T00:00:00Z", "", "", 0, "no times"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var from, to time.Time
			if tt.from != "" {
				from, to = at(tt.from), at(tt.to)
			}
			w, err := WindowFor(from, to, at(tt.now))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if w.Step != tt.step || w.To.Sub(w.From)/w.Step > 501 {
				t.Errorf("step %v over %v, want %v and at most ~500 points", w.Step, w.To.Sub(w.From), tt.step)
			}
			if !w.To.Equal(at(tt.want)) || (tt.name != "a month: the last week" && !w.From.Equal(at(tt.wantFrom))) {
				t.Errorf("window %s to %s, want %s to %s", w.From.Format(time.RFC3339Nano), w.To.Format(time.RFC3339Nano), tt.wantFrom, tt.want)
			}
			if w.To.Sub(w.From) > MaxSpan+w.Step {
				t.Errorf("window of %v", w.To.Sub(w.From))
			}
		})
	}
}

func TestParseTargets(t *testing.T) {
	good := map[string]Targets{
		"":                                       {},
		"http://p:9090":                          {"": "http://p:9090"},
		"leap=http://p:9090, dev=https://q/prom": {"leap": "http://p:9090", "dev": "https://q/prom"},
		"leap=http://p:9090,http://all:9090":     {"leap": "http://p:9090", "": "http://all:9090"},
		"http://p:9090/api?x=a=b":                {"": "http://p:9090/api?x=a=b"},
	}
	for in, want := range good {
		got, err := ParseTargets(in)
		if err != nil || len(got) != len(want) {
			t.Errorf("%q: %v %v", in, got, err)
			continue
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%q: %q is %q, want %q", in, k, got[k], v)
			}
		}
	}
	if got, _ := ParseTargets("leap=http://p:9090,http://all:9090"); got.For("leap") != "http://p:9090" || got.For("dev") != "http://all:9090" {
		t.Errorf("For: %v", got)
	}
	for _, bad := range []string{"p:9090", "leap=", "leap=ftp://p", "leap=http://a,leap=http://b", "=http://a"} {
		if _, err := ParseTargets(bad); err == nil {
			t.Errorf("%q taken", bad)
		}
	}
}

func TestLoadQueries(t *testing.T) {
	dir := t.TempDir()
	write := func(s string) string {
		p := filepath.Join(dir, "q.json")
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	q, err := LoadQueries(write(`[{"name": "container_throttling", "query": "x", "what": "w"}]`))
	if err != nil || len(q) != 1 || q[0].Name != "container_throttling" || q[0].Expr != "x" {
		t.Errorf("%+v %v", q, err)
	}
	for _, bad := range []string{`[]`, `[{"name": "a"}]`, `[{"name": "a/b", "query": "x"}]`, `[{"name": "a", "query": "x"}, {"name": "a", "query": "y"}]`,
		`[{"name": "a", "query": "x", "other": 1}]`, `{`} {
		if _, err := LoadQueries(write(bad)); err == nil {
			t.Errorf("%s taken", bad)
		}
	}
}

// TestFilesReadBack: the files of a read (Files, Encode) decode back to the same series, and
// FromObjects names them as the manifest says.
func TestFilesReadBack(t *testing.T) {
	start := time.Date(2023, 2, 1, 17, 0, 0, 0, time.UTC)
	res := Result{Series: []Series{{Labels: map[string]string{"pod": "hub-1"}, Points: []Point{{start, 0.5}, {start.Add(time.Minute), 0.75}}}}}
	outcomes := []Outcome{{Query: Query{Name: "container_throttling", Expr: "expr"}, Result: res}, {Query: Query{Name: "node_cpu", Expr: "n"}, Gap: "no series"}}
	files, err := Files("prometheus", outcomes, Window{Step: 15 * time.Second})
	if err != nil || len(files) != 2 {
		t.Fatalf("%v %v", files, err)
	}
	back, err := DecodeBytes(files["prometheus/container_throttling.json"], "expr", Limits{})
	if err != nil || len(back.Series) != 1 || back.Series[0].Points[1].Value != 0.75 || !back.Series[0].Points[1].At.Equal(start.Add(time.Minute)) {
		t.Fatalf("read back: %+v %v", back, err)
	}
	objs, err := Objects("container_throttling", "", cluster.Source{File: "prometheus/container_throttling.json"}, back)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := ParseManifest(files["prometheus/queries.json"])
	if err != nil || len(entries) != 2 || entries[1].Gap != "no series" || entries[0].Step != "15s" {
		t.Fatalf("manifest: %+v %v", entries, err)
	}
	objs = append(objs, &cluster.Object{Kind: ManifestKind, Raw: files["prometheus/queries.json"]})
	answers, bad := FromObjects(objs)
	if bad != 0 || len(answers) != 1 || answers[0].Expr != "expr" || answers[0].Series[0].Points[0].Value != 0.5 {
		t.Errorf("answers %+v, bad %d", answers, bad)
	}
}

// FuzzCheckObject: whatever an input holds as a series object or a manifest, CheckObject
// either refuses it or keeps what FromObjects reads without error.
func FuzzCheckObject(f *testing.F) {
	f.Add([]byte(`{"apiVersion":"rootline.dev/v1","kind":"MetricSeries","query":"q","labels":{"a":"b"},"points":[[1,"0.5"],[2,"NaN"]]}`))
	f.Add([]byte(`{"apiVersion":"rootline.dev/v1","kind":"MetricQueries","queries":[{"file":"a.json","name":"q"}]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		kept, err := CheckObject(raw, Limits{}, nil)
		if err != nil {
			return
		}
		kind := SeriesKind
		if bytes.Contains(kept, []byte(`"kind":"`+ManifestKind+`"`)) || bytes.Contains(kept, []byte(`"kind": "`+ManifestKind+`"`)) {
			kind = ManifestKind
		}
		if _, bad := FromObjects([]*cluster.Object{{Kind: kind, Raw: kept}}); bad != 0 {
			t.Errorf("kept %s, which does not read back", kept)
		}
	})
}

func TestWithStep(t *testing.T) {
	from := time.Date(2023, 2, 1, 16, 29, 7, 0, time.UTC)
	w := Window{From: from, To: from.Add(2 * time.Hour), Step: 15 * time.Second}
	got, err := w.WithStep(time.Minute)
	if err != nil || got.Step != time.Minute || !got.From.Equal(time.Date(2023, 2, 1, 16, 29, 0, 0, time.UTC)) {
		t.Errorf("a minute: %+v %v", got, err)
	}
	if same, err := w.WithStep(0); err != nil || same != w {
		t.Errorf("0 changed the window: %+v %v", same, err)
	}
	for _, bad := range []time.Duration{time.Millisecond, 500 * time.Millisecond} {
		if _, err := w.WithStep(bad); err == nil {
			t.Errorf("step %s taken", bad)
		}
	}
	long := Window{From: from, To: from.Add(7 * 24 * time.Hour)}
	if _, err := long.WithStep(time.Second); err == nil || !strings.Contains(err.Error(), "more than Prometheus answers") {
		t.Errorf("a week at 1s: %v", err)
	}
}
