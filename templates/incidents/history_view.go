package incidents

// HistoryPage is the view model of an object's history over an incident.
type HistoryPage struct {
	IncidentID, IncidentTitle string
	Object                    string // "Deployment prod/hub"
	Window                    string // the span drawn
	SVG                       string // the swimlanes (internal/picture.History, escaped there)
	Notes                     []string
	Changes                   []HistoryChange
	Symptoms                  []HistoryLink // the symptoms marked, each linked to its card
	Related                   []HistoryLink // the histories that go with this one
	JSONURL                   string
}

// HistoryChange is a change of the object with its diff.
type HistoryChange struct {
	ID   string
	Diff *Diff
}

// HistoryLink is a link with its text.
type HistoryLink struct {
	Label, URL string
}
