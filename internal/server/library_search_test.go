package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestLibrarySearchBounds (issue 15, item 3): a search of more words than the library searches
// is refused with 422 naming q and the bound, on the page and the API; a query of one word
// repeated up to the bound is the search for that word, and finds the note of 60 KB of it.
func TestLibrarySearchBounds(t *testing.T) {
	t.Parallel()
	var words []string
	for i := range 40 {
		words = append(words, fmt.Sprintf("w%d", i))
	}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "hostile", "title": "Hub restart"}`)
		note, _ := json.Marshal(map[string]string{"body": strings.Repeat("x ", 30_000)})
		if status, b := call(t, "POST", base+"/api/v1/incidents/hostile/notes", "application/json", strings.NewReader(string(note))); status != http.StatusCreated {
			t.Fatalf("note: %d %s", status, b)
		}
		scenarios := []struct {
			name, path string
			status     int
			says       string
		}{
			{"40 words", "/api/v1/incidents?q=" + url.QueryEscape(strings.Join(words, " ")), 422, "q has 40 different words: a search takes at most 32"},
			{"600 bytes", "/api/v1/incidents?q=" + url.QueryEscape(strings.Repeat("x ", 300)), 422, "q is longer than 512 bytes"},
			{"5,000 words", "/api/v1/incidents?q=" + url.QueryEscape(strings.Repeat("x ", 5000)), 422, "q is longer than 512 bytes"},
			{"page, 40 words", "/?q=" + url.QueryEscape(strings.Join(words, " ")), 422, "at most 32"},
			{"one word 250 times", "/api/v1/incidents?q=" + url.QueryEscape(strings.Repeat("x ", 250)), 200, `"match":{"in":"note","snippet":"\u003cmark\u003ex\u003c/mark\u003e`},
			{"32 words", "/api/v1/incidents?q=" + url.QueryEscape(strings.Join(words[:32], " ")), 200, "[]"},
		}
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) {
				status, b := call(t, "GET", base+sc.path, "", nil)
				if status != sc.status || !strings.Contains(string(b), sc.says) {
					t.Errorf("%d %.300s; want %d saying %s", status, b, sc.status, sc.says)
				}
			})
		}
	})
}
