package text

import (
	"slices"
	"strings"
)

// twoWordColumns are the column names kubectl prints with a space in them.
var twoWordColumns = []string{"LAST SEEN", "FIRST SEEN", "NOMINATED NODE", "READINESS GATES", "ACCESS MODES", "RECLAIM POLICY"}

// splitColumns are the one-word columns of kubectl's pods, events and nodes tables, for a
// name a paste split in two ("RESTART S", as a terminal's copy of a wide table gave it): two
// tokens that make one of them, the first not one itself, are that column.
var splitColumns = map[string]bool{"NAMESPACE": true, "READY": true, "STATUS": true, "RESTARTS": true, "REASON": true,
	"OBJECT": true, "MESSAGE": true, "ROLES": true, "VERSION": true, "SUBOBJECT": true}

// headerColumns reads a table header into column names, or nil when s is not an upper-case
// header line.
func headerColumns(s string) []string {
	cols, _ := headerCells(s)
	return cols
}

// headerCells is headerColumns with where each column starts in s.
func headerCells(s string) (cols []string, starts []int) {
	toks := tokens(s)
	for i := 0; i < len(toks); i++ {
		w, start := toks[i].text, toks[i].start
		if strings.ToUpper(w) != w || !strings.ContainsAny(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			return nil, nil
		}
		if i+1 < len(toks) && slices.Contains(twoWordColumns, w+" "+toks[i+1].text) {
			w += " " + toks[i+1].text
			i++
		} else if i+1 < len(toks) && !splitColumns[w] && splitColumns[w+toks[i+1].text] {
			w += toks[i+1].text // "RESTART S": a column's name a paste split
			i++
		}
		cols, starts = append(cols, w), append(starts, start)
	}
	return cols, starts
}

// eventsTable reads the rows of a `kubectl get events` table under its header: the current
// layout ([NAMESPACE] LAST SEEN TYPE REASON OBJECT MESSAGE, with -o wide's SUBOBJECT SOURCE
// before and FIRST SEEN COUNT NAME after the message) and the pre-1.14 one
// ([NAMESPACE] LASTSEEN FIRSTSEEN COUNT NAME KIND SUBOBJECT TYPE REASON SOURCE MESSAGE).
type eventsTable struct {
	cols    []string
	message int // index of MESSAGE in cols
}

// newEventsTable returns a table reader when s is an events header, or nil.
func newEventsTable(s string) *eventsTable {
	cols := headerColumns(s)
	mi := slices.Index(cols, "MESSAGE")
	if mi < 0 || !slices.Contains(cols, "REASON") {
		return nil
	}
	if !slices.Contains(cols, "LAST SEEN") && !slices.Contains(cols, "LASTSEEN") {
		return nil
	}
	return &eventsTable{cols: cols, message: mi}
}

func (t *eventsTable) row(p *parser, ln line) (bool, error) {
	toks := tokens(ln.text)
	f := map[string]string{}
	ti := 0
	for _, c := range t.cols[:t.message] {
		if ti >= len(toks) {
			return false, nil
		}
		w := toks[ti].text
		switch {
		case c == "SUBOBJECT" && !strings.HasPrefix(w, "spec.") && !strings.HasPrefix(w, "{"):
			continue // an empty cell
		case c == "SOURCE" && strings.HasSuffix(w, ",") && ti+1 < len(toks):
			f[c] = w + " " + toks[ti+1].text
			ti += 2
			continue
		case c == "SOURCE" && strings.HasPrefix(w, "{") && !strings.HasSuffix(w, "}"):
			// "{kubelet node-a}", as kubectl printed sources before 1.6.
			j := ti
			for j < len(toks) && !strings.HasSuffix(toks[j].text, "}") {
				j++
			}
			if j == len(toks) {
				return false, nil
			}
			parts := strings.Fields(strings.Trim(ln.text[toks[ti].start:toks[j].end], "{}"))
			f[c] = strings.Join(parts, ", ")
			ti = j + 1
			continue
		case c == "LAST SEEN" || c == "LASTSEEN":
			w, ti = glued(ln.text, toks, ti)
			f[c] = w
			continue
		}
		f[c] = w
		ti++
	}
	last := len(toks) - 1
	for k := len(t.cols) - 1; k > t.message; k-- {
		if last < ti {
			return false, nil
		}
		f[t.cols[k]] = toks[last].text
		last--
	}
	if ti <= last {
		f["MESSAGE"] = ln.text[toks[ti].start:toks[last].end]
	}
	r, ok := t.eventRow(f)
	if !ok {
		return ln.text == strings.Join(t.cols, " ") || headerColumns(ln.text) != nil, nil
	}
	return true, p.rowEvent(p.event(r), ln)
}

// eventRow checks and maps one row's cells.
func (t *eventsTable) eventRow(f map[string]string) (eventRow, bool) {
	seenCol := f["LAST SEEN"] + f["LASTSEEN"]
	sn, ok := parseSeen(seenCol)
	if !ok || !reasonRe.MatchString(f["REASON"]) {
		return eventRow{}, false
	}
	if typ, has := f["TYPE"]; has && typ != "Normal" && typ != "Warning" {
		return eventRow{}, false
	}
	r := eventRow{namespace: f["NAMESPACE"], typ: f["TYPE"], reason: f["REASON"], message: f["MESSAGE"],
		source: f["SOURCE"], fieldPath: f["SUBOBJECT"], seen: sn, count: f["COUNT"],
		first: f["FIRST SEEN"] + f["FIRSTSEEN"]}
	if obj, has := f["OBJECT"]; has {
		r.kind, r.name = splitObject(obj)
		r.eventName = f["NAME"]
	} else {
		// kubectl of 1.10 to 1.13 printed the event's own name here ("web-7d9f-x2x4q.1578834752099143"):
		// the object's name is what comes before the event's id.
		r.kind, r.name = kindOf(f["KIND"]), eventIDRe.ReplaceAllString(f["NAME"], "")
		if r.name != f["NAME"] {
			r.eventName = f["NAME"]
		}
	}
	if _, _, ok := parseAge(r.first); r.first != "" && !ok {
		return eventRow{}, false
	}
	if r.name == "" && generateNamed[r.kind] {
		r.name = refusedController(r.message) // the controller whose pod the API server refused
	}
	return r, true
}

// generateNamed are the controllers that name their pods "<controller>-" and a random suffix
// (pkg/controller/controller_utils.go, getPodsPrefix).
var generateNamed = map[string]bool{"ReplicaSet": true, "ReplicationController": true, "Job": true, "DaemonSet": true}

// glued returns the field at toks[i] with any parenthesised group after it ("5 (3m ago)"),
// and the index of the next field.
func glued(s string, toks []token, i int) (string, int) {
	j := i + 1
	if j < len(toks) && strings.HasPrefix(toks[j].text, "(") {
		depth := 0
		for ; j < len(toks); j++ {
			depth += strings.Count(toks[j].text, "(") - strings.Count(toks[j].text, ")")
			if depth <= 0 {
				j++
				break
			}
		}
	}
	return s[toks[i].start:toks[j-1].end], j
}
