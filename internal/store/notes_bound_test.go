package store_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestNotesBounded: an incident holds at most store.MaxNotes notes. A report imported again
// adds none of the notes it added before; one whose new notes would pass the bound adds none
// (ErrTooManyNotes) and changes nothing else; a note added past the bound is refused too.
func TestNotesBounded(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		ctx := t.Context()
		report := func(from, n int) incident.Report {
			r := incident.Report{ID: "NB-1", Title: "notes", Date: "2023-02-01"}
			for i := range n {
				r.Notes = append(r.Notes, incident.ReportNote{At: time.Date(2023, 2, 1, 10, 0, 0, 0, time.UTC).Add(time.Duration(from+i) * time.Second),
					Kind: incident.Observation, Body: fmt.Sprintf("note %d", from+i)})
			}
			return r
		}
		count := func() int {
			t.Helper()
			notes, err := st.Notes(ctx, "NB-1")
			if err != nil {
				t.Fatal(err)
			}
			return len(notes)
		}
		big := report(0, store.MaxNotes-10)
		if _, err := st.ImportReport(ctx, big); err != nil {
			t.Fatal(err)
		}
		if _, err := st.ImportReport(ctx, big); err != nil || count() != store.MaxNotes-10 {
			t.Fatalf("the same report again: %v, %d notes, want %d", err, count(), store.MaxNotes-10)
		}
		if _, err := st.ImportReport(ctx, report(store.MaxNotes, 11)); !errors.Is(err, store.ErrTooManyNotes) || count() != store.MaxNotes-10 {
			t.Errorf("11 new notes to an incident of %d: %v, %d notes", store.MaxNotes-10, err, count())
		}
		if _, err := st.ImportReport(ctx, report(store.MaxNotes, 10)); err != nil || count() != store.MaxNotes {
			t.Errorf("10 new notes to an incident of %d: %v, %d notes", store.MaxNotes-10, err, count())
		}
		n := incident.Note{IncidentID: "NB-1", At: time.Date(2023, 2, 2, 0, 0, 0, 0, time.UTC), Kind: incident.Observation, Body: "one more"}
		if err := st.CreateNote(ctx, &n); !errors.Is(err, store.ErrTooManyNotes) || count() != store.MaxNotes {
			t.Errorf("a note past the bound: %v, %d notes", err, count())
		}
	})
}
