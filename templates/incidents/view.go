package incidents

import "github.com/rootline-dev/rootline/internal/kinds"

// Page is the view model of an incident's workspace: the analysis, the timeline and the notes.
type Page struct {
	ID, Title, Cluster string
	Inputs             string // "3 files: 126 nodes, 306 pods, 53 events, 16:59–17:07 UTC"
	Causes             []Cause
	Symptoms           []Symptom
	Gaps               []Gap
	Context            []string // what the input shows that is not a symptom, and why
	Claims             []Claim  // what the input's authors claim, never observed evidence
	Entries            []Entry
	Total              int // entries the filter selects, of which Entries is a page
	Filter             Filter
	Notes              []Note
	// NotesTotal are the incident's notes, of which Notes are those from NotesFrom to NotesTo
	// (1-based, in time order); NotesOlder and NotesNewer link the pages before and after ("" for
	// none).
	NotesTotal, NotesFrom, NotesTo int
	NotesOlder, NotesNewer         string
	NoteKinds                      []string
	CauseKinds                     []string
	FormError                      string // a note form that was refused, kept with its input
	Form                           NoteForm
	Pictures                       []Picture
	Edit                           EditForm
	Report                         *ReportView // the report it was imported from; nil for an incident without one
	Chain                          string      // the causal chain as SVG (internal/picture.Chain, escaped there); "" without causes
	Analysed                       bool        // a snapshot or collected evidence was analysed
	// Prometheus is the Prometheus the server reads for the incident's cluster ("" for none):
	// the page offers to read it over the incident's window.
	Prometheus string
	// Metrics says what the incident holds of metrics ("5 series of container_throttling, …"),
	// "" for none.
	Metrics string
	// MetricsError is why a read of Prometheus asked for from the page was refused.
	MetricsError string
	// Summary leads the page: nil when the analysis found no symptom.
	Summary *Summary
}

// Summary leads the incident page: what users felt, why, how sure the evidence makes it, and
// the incident's one ranked list of changes.
type Summary struct {
	WhatHappened, Why, Sure string
	Changes                 []RankedChange // the first few, shown
	MoreChanges             []RankedChange // the rest, folded
	Unlisted                int            // the changes the analysis' list leaves out
	Dropped                 []RankedChange // contradicted by other evidence, each with why
}

// RankedChange is a change of the incident's one list: its rank, the causes it answers and the
// symptoms it would have prevented, worst first.
type RankedChange struct {
	Rank             int
	Change, Why      string
	Causes, Prevents []Link
	Evidence         []Evidence
}

// kindName names a symptom or cause kind for people ("Pod evicted"); the page shows the kind
// itself small beside it.
func kindName(kind string) string { return kinds.Name(kind) }

// Gap is missing evidence, with the like items it stands for.
type Gap struct {
	Summary string
	Members []string
}

// EditForm edits an incident's title, window, cluster and tags.
type EditForm struct {
	Title, Cluster, Tags, StartedAt, EndedAt, Error string
}

// Picture is an SVG drawn by internal/picture, which escapes every text it holds.
type Picture struct {
	Title, SVG string
}

// Claim is a sentence a person wrote in the input about what happened and why: the causes it
// names and the symptoms it reports, as testimony.
type Claim struct {
	Loc, Text, Causes, Symptoms string
}

// Link points at a symptom or cause of the same page.
type Link struct {
	ID, Kind string
}

// Evidence is one quoted piece of the input.
type Evidence struct {
	Loc, Ref, Field, Value string
}

// Cause is a cause with what it explains, the links of the chain that start from it, and the
// changes its evidence points to.
type Cause struct {
	ID, Kind, Role, Confidence, Summary string
	Count                               int // the causes of one kind it stands for
	Explains                            []Link
	Links                               []Why
	Evidence                            []Evidence
	Missing                             []string
	Against                             []Evidence    // what speaks against it (a metric, a symptom before the change)
	MembersURL                          string        // the page of its members and all its changes
	Changes                             []CauseChange // the changes a recent_change cause stands on
	ChangeRanks                         []int         // the ranks of the summary's changes that answer it
}

// CauseChange is a change a cause stands on: its id (its timeline row), the changed object
// with the link to its history, and the diff.
type CauseChange struct {
	ID, Object, URL string
	Diff            *Diff
}

// Why is a link of the causal chain: to a cause or symptom of the page, and the reason.
type Why struct {
	ID, Kind, Why string
}

// Suggestion is a change computed from the evidence, with where it came from.
type Suggestion struct {
	Change   string
	Evidence []Evidence
}

// Symptom is a symptom group with the causes that explain it and its first members.
type Symptom struct {
	ID, Kind, At, Summary string
	Count                 int
	Critical              bool
	Where                 string // workloads and pools: "8 workloads (most users/nb0) · pool user"
	AtFrom                string // where a borrowed time came from
	Side                  string // for a kind users did not feel, what it is: "trigger, not felt"
	Causes                []Link
	Evidence              []Evidence
	Members               []Member // the first few
	MembersTotal          int
	MembersURL            string
}

// Member is one fact of a group: its id, time and summary.
type Member struct {
	ID, At, Summary string
}

// GroupPage lists the members of a symptom group or a merged cause, a page at a time.
type GroupPage struct {
	IncidentID, IncidentTitle string
	ID, Kind, Summary         string
	Total, Offset, Limit      int
	Members                   []GroupMember
	Objects                   []string // a group of one fact pages through its objects instead
	PrevURL, NextURL          string
}

// GroupMember is a member with its evidence and, for a cause, the changes it points to.
type GroupMember struct {
	ID, At, Summary string
	Evidence        []Evidence
	Suggestions     []Suggestion
}

// Entry is one line of the timeline.
type Entry struct {
	At, Type, Kind, Severity, Summary, Object, Node, Ref, Source string
	Count                                                        int
	Links                                                        []string
	// HistoryURL is the history view of the object the row names; "" when it has none.
	HistoryURL string
	// Diff is what a change row changed; nil for other rows.
	Diff *Diff
}

// Diff is a change's field, before and after, and when it was made ("between … and …").
type Diff struct {
	Field, Before, After, When string
}

// Filter is the timeline's filter as the URL carries it.
type Filter struct {
	From, To, Namespace, Node, Kind, Severity, Type, Group string
	Expand                                                 string // the group or folded row whose members are listed
	All                                                    bool   // routine rows one by one (collapse=off)
	Offset, Limit                                          int    // the page of rows; 0 for the first, of TimelinePageSize
}

// Note is a rendered note; a hypothesis carries the analysis for and against it.
type Note struct {
	At, Author, Kind string
	HTML             string // sanitised HTML of the Markdown body
	Causes           []string
	For              []string
	Against          []string
	Missing          []string
}

// NoteForm is what the note form holds.
type NoteForm struct {
	At, Author, Kind, Body string
	Causes                 []string
}
