package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

func TestNotes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := context.Background()
		if err := st.CreateIncident(ctx, &incident.Incident{ID: "IL-0070", Title: "Hub restart"}); err != nil {
			t.Fatal(err)
		}
		at := time.Date(2023, 2, 1, 17, 20, 0, 0, time.UTC)
		later := &incident.Note{IncidentID: "IL-0070", At: at, Author: "yuvi", Kind: incident.Hypothesis, Body: "evicted?", Causes: []string{"capacity_exhaustion"}}
		earlier := &incident.Note{IncidentID: "IL-0070", At: at.Add(-10 * time.Minute), Kind: incident.Observation, Body: "hub memory steady"}
		for _, n := range []*incident.Note{later, earlier} {
			if err := st.CreateNote(ctx, n); err != nil {
				t.Fatal(err)
			}
		}
		got, err := st.Notes(ctx, "IL-0070")
		if err != nil {
			t.Fatal(err)
		}
		want := []incident.Note{*earlier, *later}
		want[0].Causes = nil
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("notes (-want +got):\n%s", diff)
		}
		if err := st.CreateNote(ctx, &incident.Note{IncidentID: "nope", Body: "x", At: at}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("note on a missing incident: %v, want ErrNotFound", err)
		}
		if _, err := st.Notes(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("notes of a missing incident: %v, want ErrNotFound", err)
		}
	})
}
