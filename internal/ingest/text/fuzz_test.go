package text

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/corpustest"
)

// FuzzParse checks that no input panics Parse or makes it fail, and that every object it
// emits is one of the three typed kinds, or a claim.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.*")
	corpus := corpustest.Files(f, "*.txt")
	for _, s := range append(seeds, corpus...) {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("Name: x\nNamespace: y\nContainers:\n  c:\n    State: Terminated\n      Exit Code: 99999999999\n"))
	f.Add([]byte("@timestamp  object.involvedObject.name  object.message\nSep 7, 2023 @ 10:15:01.123  web-1  Liveness probe failed: HTTP probe failed\nSep 7, 2023 @ 10:15  x\n"))
	f.Add([]byte("\"@timestamp\",\"object.involvedObject.name\",\"object.reason\",\"object.message\"\n\"Mar 4, 2024 @ 10:02:11.000\",web-1,BackOff,\"Back-off \"\"restarting\"\"\"\nweb-2,Failed\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse(context.Background(), "fuzz", bytes.NewReader(data), time.Unix(1e9, 0), func(o *cluster.Object) error {
			typed := map[string]bool{cluster.KindPod: o.Pod != nil, cluster.KindNode: o.Node != nil, cluster.KindEvent: o.Event != nil,
				cluster.KindClaim: o.Raw != nil, "ConfigMap": o.Raw != nil && o.Name == cluster.AutoscalerStatusName}
			if !typed[o.Kind] || o.APIVersion == "" || o.Source.Line < 1 {
				t.Errorf("bad object %s: kind %q version %q at %s", o.Ref(), o.Kind, o.APIVersion, o.Source)
			}
			if _, err := o.JSON(); err != nil {
				t.Error(err)
			}
			return nil
		})
		if err != nil {
			t.Errorf("Parse: %v", err)
		}
	})
}

// TestParseErrors checks the only three ways Parse fails, and the line bound.
func TestParseErrors(t *testing.T) {
	events := "LAST SEEN  TYPE  REASON  OBJECT  MESSAGE\n1m  Warning  BackOff  pod/a  x\n1m  Warning  BackOff  pod/b  y\n"
	stop := errors.New("stop")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		in      string
		emitErr error
		want    error
	}{
		{"emit error is returned unchanged", context.Background(), events, stop, stop},
		{"cancelled", cancelled, events, nil, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.ctx, "in", strings.NewReader(tt.in), time.Time{}, func(*cluster.Object) error { return tt.emitErr })
			if !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
	t.Run("read error", func(t *testing.T) {
		_, err := Parse(context.Background(), "in", errReader{}, time.Time{}, func(*cluster.Object) error { return nil })
		if !errors.Is(err, errRead) {
			t.Errorf("err = %v, want %v", err, errRead)
		}
	})
	t.Run("long line is cut", func(t *testing.T) {
		in := "x OOMKilled " + strings.Repeat("a", MaxLine+10) + "\nprod  1m  Warning  BackOff  pod/a  x\n"
		objs, res := parseAll(t, "in", []byte(in))
		if !res.Truncated || len(objs) != 2 {
			t.Errorf("Truncated = %v, %d objects; want true, 2", res.Truncated, len(objs))
		}
		if n := len(objs[0].Event.Message); n > MaxLine {
			t.Errorf("message of %d bytes, longer than a line may be", n)
		}
	})
	t.Run("zero now leaves ages unset", func(t *testing.T) {
		var got *cluster.Object
		_, err := Parse(context.Background(), "in", strings.NewReader(events), time.Time{}, func(o *cluster.Object) error {
			got = o
			return nil
		})
		if err != nil || got == nil || !got.Event.LastTimestamp.IsZero() {
			t.Errorf("err %v, object %v: want a last timestamp left unset", err, got)
		}
	})
}

var errRead = errors.New("disk on fire")

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errRead }
