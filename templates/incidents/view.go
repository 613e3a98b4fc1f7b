package incidents

// Page is the view model of an incident's workspace: the analysis, the timeline and the notes.
type Page struct {
	ID, Title, Cluster string
	Inputs             string // "3 files: 126 nodes, 306 pods, 53 events, 16:59–17:07 UTC"
	Causes             []Cause
	Symptoms           []Symptom
	Gaps               []string
	Context            []string // what the input shows that is not a symptom, and why
	Claims             []Claim  // what the input's authors claim, never observed evidence
	Entries            []Entry
	Total              int // entries the filter selects, of which Entries is a page
	Filter             Filter
	Notes              []Note
	NoteKinds          []string
	CauseKinds         []string
	FormError          string // a note form that was refused, kept with its input
	Form               NoteForm
	Pictures           []Picture
	Edit               EditForm
	Report             *ReportView // the report it was imported from; nil for an incident without one
}

// EditForm edits an incident's title, window, cluster and tags.
type EditForm struct {
	Title, Cluster, Tags, StartedAt, EndedAt, Error string
}

// Picture is an SVG drawn by internal/picture, which escapes every text it holds.
type Picture struct {
	Title, SVG string
}

// Claim is a sentence a person wrote in the input about why something happened.
type Claim struct {
	Loc, Text, Causes string
}

// Link points at a symptom or cause of the same page.
type Link struct {
	ID, Kind string
}

// Evidence is one quoted piece of the input.
type Evidence struct {
	Loc, Ref, Field, Value string
}

// Cause is a cause with what it explains.
type Cause struct {
	ID, Kind, Role, Confidence, Summary string
	Explains                            []Link
	Evidence                            []Evidence
	Missing                             []string
}

// Symptom is a symptom with the causes that explain it.
type Symptom struct {
	ID, Kind, At, Summary string
	Causes                []Link
	Evidence              []Evidence
}

// Entry is one line of the timeline.
type Entry struct {
	At, Type, Kind, Severity, Summary, Object, Node, Ref, Source string
	Count                                                        int
	Links                                                        []string
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
