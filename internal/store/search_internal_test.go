package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestSearchTermsBounded (issue 15, item 3): a query's repeated words are one term, and the
// store searches at most MaxQueryTerms distinct words of the first MaxQueryBytes of a query,
// however long it is; CheckQuery refuses what would be cut.
func TestSearchTermsBounded(t *testing.T) {
	t.Parallel()
	var distinct []string
	for i := range 100 {
		distinct = append(distinct, fmt.Sprintf("w%d", i))
	}
	tests := []struct {
		name    string
		q       string
		want    int    // terms searched
		refused string // what CheckQuery says, "" when it takes the query
	}{
		{"one word 5,000 times", strings.Repeat("a ", 5000), 1, "longer than 512 bytes"},
		{"one word 250 times", strings.Repeat("a ", 250), 1, ""},
		{"a concept written twice", "OOM killed, oom-killed and oom", 2, ""}, // the concept once, and "and"
		{"32 words", strings.Join(distinct[:32], " "), 32, ""},
		{"40 words", strings.Join(distinct[:40], " "), MaxQueryTerms, "40 different words"},
		{"10 KB of words", strings.Repeat("abcdefg ", 1280), 1, "longer than 512 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := searchTerms(tt.q)
			if len(got) != tt.want {
				t.Errorf("%d terms, want %d: %.80q", len(got), tt.want, got)
			}
			err := CheckQuery(tt.q)
			switch {
			case tt.refused == "" && err != nil:
				t.Errorf("CheckQuery: %v", err)
			case tt.refused != "" && (err == nil || !strings.Contains(err.Error(), tt.refused)):
				t.Errorf("CheckQuery = %v, want one saying %q", err, tt.refused)
			}
		})
	}
}

// TestSnippetBounded: marking a query in a text compares each of the text's words with each
// distinct word of the query, at most, and stops at the end of the snippet; a concept written
// thousands of times is marked in one pass; a cancelled search stops within checkEvery words.
func TestSnippetBounded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	hostile := strings.Repeat("a ", 30_000)

	m := newMatcher(searchTerms(strings.Repeat("a ", 5000)))
	if parts, ok, err := m.snippet(ctx, hostile); err != nil || !ok || len(parts) == 0 {
		t.Fatalf("snippet = %v, %v, %v", parts, ok, err)
	}
	if m.compared > snippetWords+1 {
		t.Errorf("%d comparisons for a match in the first word: want at most %d", m.compared, snippetWords+1)
	}

	// The match at the end of 30,000 words: each word compared with each of 32 query words.
	var words []string
	for i := range MaxQueryTerms {
		words = append(words, fmt.Sprintf("w%d", i))
	}
	m = newMatcher(searchTerms(strings.Join(words, " ")))
	text := strings.Repeat("b ", 30_000) + "w31"
	parts, ok, err := m.snippet(ctx, text)
	if err != nil || !ok {
		t.Fatalf("snippet = %v, %v, %v", parts, ok, err)
	}
	if got := (Match{Parts: parts}).Text(); got != "… b b b b b b b b w31" {
		t.Errorf("snippet %q", got)
	}
	if limit := (30_000 + 1) * MaxQueryTerms; m.compared > limit {
		t.Errorf("%d comparisons, want at most %d", m.compared, limit)
	}

	// A concept written 20,000 times: marked, in one pass (once quadratic: every way of
	// writing it against every word).
	m = newMatcher(searchTerms("oom"))
	parts, ok, err = m.snippet(ctx, strings.Repeat("oom ", 20_000))
	if err != nil || !ok || !parts[0].Mark {
		t.Fatalf("snippet = %v, %v, %v", parts, ok, err)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	m = newMatcher(searchTerms("zzz"))
	if _, _, err := m.snippet(cancelled, hostile); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled snippet: %v, want context.Canceled", err)
	}
	if m.compared > checkEvery {
		t.Errorf("%d comparisons after the search was cancelled, want at most %d", m.compared, checkEvery)
	}
}
