package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestNotesPaged: the incident page shows the latest 50 notes, in time order, saying which of
// how many, and links the pages of older ones; only the notes shown are rendered; a page past
// the last is 404 and one that is no number 400.
func TestNotesPaged(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		var b strings.Builder
		b.WriteString("---\nid: NP-1\ntitle: many notes\ndate: 2023-02-01\nnotes:\n")
		for i := range 120 {
			fmt.Fprintf(&b, "- {at: \"2023-02-01T10:%02d:%02dZ\", body: \"note number %03d\"}\n", i/60, i%60, i)
		}
		b.WriteString("---\n")
		if status, body := call(t, "POST", base+"/api/v1/incidents/import?name=NP-1.md", "text/markdown", strings.NewReader(b.String())); status != http.StatusCreated {
			t.Fatalf("import: %d %s", status, body)
		}
		before := markdownRenders(t, base)
		for _, tt := range []struct {
			query          string
			notes          int
			says, has, not string
		}{
			{"", 50, "notes 71–120 of 120", "note number 119", "note number 069"},
			{"?notes_page=2", 50, "notes 21–70 of 120", "note number 020", "note number 019"},
			{"?notes_page=3", 20, "notes 1–20 of 120", "note number 000", "note number 020"},
		} {
			status, body := call(t, "GET", base+"/incidents/NP-1"+tt.query, "", nil)
			page := string(body) // the notes' section (the timeline lists notes too)
			if i, j := strings.Index(page, `data-testid="notes"`), strings.Index(page, `data-testid="note-form"`); i >= 0 && j > i {
				page = page[i:j]
			}
			if status != http.StatusOK || strings.Count(page, `data-testid="note"`) != tt.notes || !strings.Contains(page, tt.says) ||
				!strings.Contains(page, tt.has) || strings.Contains(page, tt.not) {
				t.Errorf("page%s: %d, %d notes; want %d, %q, %q and not %q", tt.query, status, strings.Count(page, `data-testid="note"`), tt.notes, tt.says, tt.has, tt.not)
			}
			if older := strings.Contains(page, `data-testid="notes-older"`); older != (tt.query != "?notes_page=3") {
				t.Errorf("page%s: a link to older notes: %v", tt.query, older)
			}
		}
		if n := markdownRenders(t, base) - before; n > 120 {
			t.Errorf("three pages of 120 notes rendered %d Markdown texts, want those shown", n)
		}
		if status, _ := call(t, "GET", base+"/incidents/NP-1?notes_page=4", "", nil); status != http.StatusNotFound {
			t.Errorf("a page past the last: %d, want 404", status)
		}
		if status, _ := call(t, "GET", base+"/incidents/NP-1?notes_page=x", "", nil); status != http.StatusBadRequest {
			t.Errorf("a page that is no number: %d, want 400", status)
		}
	})
}
