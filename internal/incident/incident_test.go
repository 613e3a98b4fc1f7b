package incident

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestValidateIncident(t *testing.T) {
	start := time.Date(2023, 2, 1, 17, 0, 0, 0, time.UTC)
	end := start.Add(-time.Hour)
	tests := []struct {
		name string
		in   Incident
		err  string
	}{
		{"ok", Incident{ID: "IL-0070", Title: " Hub restart ", Tags: []string{"Kubernetes", "kubernetes", "observability"}}, ""},
		{"bad id", Incident{ID: "../x", Title: "t"}, "id"},
		{"no title", Incident{ID: "x", Title: " "}, "title is required"},
		{"ends before it starts", Incident{ID: "x", Title: "t", StartedAt: &start, EndedAt: &end}, "ended_at"},
		{"bad tag", Incident{ID: "x", Title: "t", Tags: []string{"has space"}}, "tag"},
		{"bad cluster", Incident{ID: "x", Title: "t", Cluster: "a b"}, "cluster"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.in.Validate()
			if tt.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				if tt.in.Title != "Hub restart" || strings.Join(tt.in.Tags, ",") != "kubernetes,observability" {
					t.Errorf("normalised to %q %v", tt.in.Title, tt.in.Tags)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("err = %v, want one about %s", err, tt.err)
			}
		})
	}
}

func TestValidateNote(t *testing.T) {
	now := time.Date(2023, 2, 1, 18, 0, 0, 0, time.UTC)
	causes := []string{"capacity_exhaustion", "cpu_starvation"}
	n := Note{Body: " hub restarted ", Kind: Hypothesis, Causes: []string{"cpu_starvation", "cpu_starvation"}}
	if err := n.Validate(now, causes); err != nil {
		t.Fatal(err)
	}
	if n.Body != "hub restarted" || !n.At.Equal(now) || len(n.Causes) != 1 {
		t.Errorf("normalised to %+v", n)
	}
	for _, bad := range []Note{{Body: ""}, {Body: "x", Kind: "rumour"}, {Body: "x", Kind: Hypothesis, Causes: []string{"gremlins"}},
		{Body: "x", Causes: []string{"cpu_starvation"}}, {Body: strings.Repeat("x", maxNoteBody+1)}} {
		if err := bad.Validate(now, causes); !errors.Is(err, ErrInvalid) {
			t.Errorf("Validate(%.40q) = %v, want ErrInvalid", bad.Body, err)
		}
	}
}

func TestNewID(t *testing.T) {
	id := NewID(time.Date(2023, 2, 1, 0, 0, 0, 0, time.UTC))
	in := Incident{ID: id, Title: "t"}
	if !strings.HasPrefix(id, "inc-20230201-") || in.Validate() != nil {
		t.Errorf("NewID = %q", id)
	}
}
