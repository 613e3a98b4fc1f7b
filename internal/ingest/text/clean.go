package text

import (
	"encoding/json"
	"html"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rootline-dev/rootline/internal/lazyre"
)

// lineKind is what cleaning made of a line.
type lineKind int

const (
	kindText    lineKind = iota // content to recognise
	kindBlank                   // empty after cleaning: ends describe blocks and tables
	kindSep                     // a code fence, a heading or markup: ends blocks and tables, says nothing
	kindSkip                    // markup with no content (a markdown table rule, a box border): ignored entirely
	kindCommand                 // a command line (behind a prompt, alone, or in a watch header): ends blocks and tables, and says what follows
)

var (
	// promptRe matches a shell prompt: "$ ", "user@host:~$ ", "[root@host ~]# ", "(venv) $ ",
	// "# ", "» ", "❯ ", "➜  ~ ", "% ", "bash-4.2$ ", "PS C:\> ", `C:\Users\me>`, and an empty
	// prompt. A markdown heading ("# Events") matches too, which is harmless: it carries no data.
	promptRe = lazyre.New(`^(?:\([\w.-]+\)\s*)?(?:` +
		`\[[^\]]*\]\s?[$#%>]` + // [root@host ~]#
		`|[\w.-]+@[\w.-]+(?::[^\s$#%>]*)?(?:\s[^\s$#%>]+){0,3}\s?[$#%>]` + // user@host:~$, user@host ~ %, user@host ~/dir (branch)$
		`|[\w.-]+:[~/][^\s$#%>]*\s?[$#%>]` + // root:~#, user:/tmp$
		`|(?:bash|sh|zsh)-[\d.]+[$#]` + // bash-4.2$
		`|➜\s+\S+` + // oh-my-zsh
		`|PS(?: [A-Za-z]:[^>]*)?>` + // PowerShell
		`|[$#%»❯➜]|#{2,6}` + // and Markdown headings
		`)(?:\s|$)|^[A-Za-z]:\\[^>]*>\s*`) // cmd.exe, with or without a space
	// tableRuleRe matches a markdown table's separator row: "|---|:--:|".
	tableRuleRe = lazyre.New(`^\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?$`)
	// htmlTagRe matches the HTML that issue trackers put around pasted output; kubectl's own
	// angle brackets ("<none>", "<unknown>", "<invalid>") are not tags and are kept.
	htmlTagRe = lazyre.New(`(?i)</?(?:details|summary|pre|code|br|p|b|i|strong|em|tt|kbd|samp|div|span|sub|sup|blockquote|ul|ol|li|h[1-6]|table|tr|td|th|thead|tbody|img|a)(?:\s[^<>]*)?/?>`)
	// boxRe matches a line of a terminal UI's box drawing with nothing in it (k9s, tables drawn
	// with ─ │ ┌ ┐ └ ┘ ├ ┤ ┬ ┴ ┼ and their heavy and rounded forms).
	boxRe = lazyre.New(`^[\s─━│┃┌┐└┘├┤┬┴┼╭╮╰╯═║╔╗╚╝╠╣╦╩╬]*$`)
	// watchRe matches the header `watch` prints: "Every 2.0s: kubectl get pods    host: Sun Dec 31 13:46:45 2017".
	watchRe = lazyre.New(`^Every \d+(?:\.\d+)?s: (.*?)(?:\s{2,}(\S+?):?\s+(\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d(?: \w+)? \d{4}))?\s*$`)
	// yamlApostropheRe is an apostrophe a single-quoted YAML string doubled, between letters.
	yamlApostropheRe = lazyre.New(`([A-Za-z])''([A-Za-z])`)
	// emphasisRe is a capitalised word in Markdown's italics, "_Word_" or "*Word*", standing
	// alone: a status or a reason a person emphasised. Object names are lower case.
	emphasisRe = lazyre.New(`(^|\s)[_*]([A-Z][A-Za-z:]*)[_*](\s|$)`)
	// ansiRe matches a terminal's escape sequences (SGR colours, cursor moves).
	ansiRe = lazyre.New(`\x1b\[[0-9;?]*[ -/]*[@-~]`)
	// jiraBlockRe matches a line that opens or closes a Jira or Confluence code block.
	jiraBlockRe = lazyre.New(`^\{(?:code|noformat)(?::[^}]*)?\}$`)
	// inlineCodeRe matches a line that is only an inline code span: "`kubectl get pods -o wide`".
	inlineCodeRe = lazyre.New("^`([^`]+)`:?$")
	// spansRe matches a line of two inline code spans or more with only spaces between them;
	// spanGapRe is the gap between two of them.
	spansRe   = lazyre.New("^`[^`]+`(?:[ \t]+`[^`]+`)+$")
	spanGapRe = lazyre.New("`[ \t]+`")
)

// cleaner cleans lines, keeping what spans them: whether a code fence or an HTML <pre> is open.
type cleaner struct {
	fence string // the fence that opened the code block ("```", "~~~"), or "<pre>"; "" outside
	// pipeCells is the number of cells of the Markdown table written without its outer pipes
	// ("NAME | READY", "-- | --") that the lines above began; 0 outside one.
	pipeCells int
	// strings is whether the line above was an element of an array of JSON strings with a comma
	// after it, so that this line may be the array's last (see stringLine).
	strings bool
	// diff is whether the open code fence is a diff's ("```diff"), whose lines begin with the
	// mark of what a change did to them.
	diff bool
}

// cleaned is one cleaned line.
type cleaned struct {
	text   string
	kind   lineKind
	code   bool     // inside a code fence or <pre>: pasted output, not prose
	bullet bool     // a list item ("- …"): a person's writing, outside code
	cmd    *command // for kindCommand: the command
	record          // the collector's record the line was taken out of, if any
}

// record is what a collector's record said of the line it wrapped (see unwrap).
type record struct {
	at    time.Time // the time it recorded, zero when none
	inner int       // the length of the line it wrapped, 0 when the line was not wrapped
}

// clean cleans one line with no state around it (for Sniff and tests).
func clean(s string) (string, lineKind) {
	var c cleaner
	r := c.clean(s)
	return r.text, r.kind
}

// clean takes a line out of a log collector's record (unwrap) and cleans it (cleanLine).
func (c *cleaner) clean(s string) cleaned {
	var rec record
	if in, at, ok := unwrap(strings.TrimRight(s, " \t\r\n")); ok {
		s = in
		rec = record{at: at, inner: len(strings.TrimRight(in, " \t\r\n"))}
	}
	r := c.cleanLine(s)
	r.record = rec
	return r
}

// cleanLine strips the markup people wrap kubectl output in, keeping the indentation that
// describe blocks depend on: trailing space and CR, HTML tags and entities, terminal box
// borders, markdown quote markers, bold markers, bullets, code fences, shell prompts; tabs
// become spaces at 8-column stops and markdown pipe tables become space-separated rows.
func (c *cleaner) cleanLine(s string) cleaned {
	s, cl, ok := c.unmark(s)
	if !ok {
		return cl
	}
	t := strings.TrimSpace(s)
	switch {
	case t == "":
		return cleaned{kind: kindBlank, code: c.fence != ""}
	case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
		return c.toggleFence(t)
	case jiraBlockRe.MatchString(t):
		// Jira's and Confluence's {code} and {noformat}: a fence with another name.
		switch c.fence {
		case "":
			c.fence = "{code}"
		case "{code}":
			c.fence = ""
		}
		return cleaned{kind: kindSep}
	}
	code := c.fence != ""
	if c, ok := c.command(t, code); ok {
		return c
	}
	if strings.HasPrefix(t, "`") && strings.HasSuffix(t, "`") && spansRe.MatchString(t) {
		// A line of output quoted in spans side by side ("`… binding volumes:` `provisioning
		// failed …`"): one span of their text, as one line of output.
		t = "`" + spanGapRe.ReplaceAllString(t[1:len(t)-1], " ") + "`"
	}
	if m := inlineCodeRe.FindStringSubmatch(t); m != nil {
		if cmd := parseCommand(m[1]); cmd != nil {
			return cleaned{kind: kindCommand, code: code, cmd: cmd}
		}
		if strings.HasSuffix(t, "`") && strings.TrimSpace(m[1]) != "" {
			// A line of output quoted whole in an inline code span ("`  Warning  Evicted  …`"):
			// the output, without the backticks its last cell would keep.
			s, t = m[1], strings.TrimSpace(m[1])
		}
	}
	if mayBeCommand(t) {
		if cmd := parseCommand(t); cmd != nil && cmd.bare {
			return cleaned{kind: kindCommand, code: code, cmd: cmd}
		}
	}
	if m := proseCommandRe.FindStringSubmatch(t); m != nil && !code {
		if cmd := parseCommand(m[1]); cmd != nil && cmd.name != "" {
			return cleaned{kind: kindCommand, cmd: cmd} // "After running oc describe pods web-1 -n prod"
		}
	}
	if strings.HasPrefix(t, "|") && strings.HasSuffix(t, "|") && len(t) > 1 {
		if tableRuleRe.MatchString(t) {
			return cleaned{kind: kindSkip, code: code}
		}
		return cleaned{text: pipeRow(t), kind: kindText, code: code}
	}
	if cl, ok := c.barePipeRow(t, code); ok {
		return cl
	}
	if strings.HasSuffix(t, "```") && c.fence == "```" {
		// Output whose closing fence is on its last line: "…  Running   0   5m```".
		c.fence = ""
		s = strings.TrimRight(strings.TrimSuffix(strings.TrimRight(s, " "), "```"), " ")
	}
	b := stripBullet(s)
	return cleaned{text: b, kind: kindText, code: code, bullet: len(b) < len(s)}
}

// unmark takes off what a terminal, a page or a markup language put around the text of the
// line: colours, tabs, a diff's marks, HTML, YAML's doubled apostrophes, no-break spaces, box
// drawing, quotes, a string's quoting, bold and italics. ok is false when the line is markup
// alone, and cl is then what it is.
func (c *cleaner) unmark(s string) (_ string, cl cleaned, ok bool) {
	s = strings.TrimRight(s, " \t\r\n")
	if strings.Contains(s, "\x1b[") {
		s = ansiRe.ReplaceAllString(s, "") // colours of kubecolor, k9s, a terminal's log
	}
	if strings.Contains(s, "\t") {
		s = expandTabs(s)
	}
	if c.diff && c.fence != "" {
		if d, ok := diffLine(s); ok {
			s = d
		} else {
			return s, cleaned{kind: kindSep, code: true}, false // a hunk's header, a file's, a fence the diff changed
		}
	}
	if strings.ContainsRune(s, '<') {
		var sep bool
		if s, sep = c.stripHTML(s); sep {
			return s, cleaned{kind: kindSep}, false
		}
	}
	if strings.ContainsRune(s, '&') {
		s = html.UnescapeString(s)
	}
	if strings.Contains(s, "''") {
		// A single-quoted YAML string escapes its apostrophes by doubling them ("didn''t"):
		// the words are the message's with one.
		s = yamlApostropheRe.ReplaceAllString(s, "$1'$2")
	}
	if strings.ContainsRune(s, '\u00a0') {
		s = strings.ReplaceAll(s, "\u00a0", " ")
	}
	if strings.ContainsAny(s, "─━│┃┌┐└┘├┤┬┴┼╭╮╰╯═║") {
		if boxRe.MatchString(s) {
			return s, cleaned{kind: kindSkip}, false
		}
		s = stripBox(s)
	}
	s = stripQuote(s)
	if in, more, ok := stringLine(s, c.strings); ok {
		s, c.strings = in, more
	} else {
		c.strings = false
	}
	if strings.Contains(s, "**") {
		s = strings.ReplaceAll(s, "**", "")
	}
	if strings.ContainsAny(s, "_*") {
		// A word a person set in italics ("_ErrImagePull_", "**_**ErrImagePull**_**" once its
		// bold is gone): the word.
		s = emphasisRe.ReplaceAllString(s, "$1$2$3")
	}
	return s, cleaned{}, true
}

// command reads a watch header or a prompt with its command; a prompt without kubectl, a shell
// comment or a Markdown heading is a separator (a heading keeps its text).
func (c *cleaner) command(t string, code bool) (cleaned, bool) {
	if strings.HasPrefix(t, "Every ") {
		if m := watchRe.FindStringSubmatch(t); m != nil {
			cmd := parseCommand(m[1])
			if cmd == nil {
				cmd = &command{text: m[1]}
			}
			cmd.host, cmd.at = m[2], m[3]
			return cleaned{kind: kindCommand, code: code, cmd: cmd}, true
		}
	}
	if !mayBePrompt(t) {
		return cleaned{}, false
	}
	loc := promptRe.FindStringIndex(t)
	if loc == nil {
		// A prompt written against its command ("$kubectl logs x", "#oc get job").
		if r, n := utf8.DecodeRuneInString(t); strings.ContainsRune("$#%", r) {
			if cmd := parseCommand(t[n:]); cmd != nil {
				return cleaned{kind: kindCommand, code: code, cmd: cmd}, true
			}
		}
		return cleaned{}, false
	}
	if cmd := parseCommand(t[loc[1]:]); cmd != nil {
		return cleaned{kind: kindCommand, code: code, cmd: cmd}, true
	}
	if strings.HasPrefix(t, "#") && !code {
		// A heading, or a shell comment: its text, and the level as that many "#".
		h := strings.TrimLeft(t, "#")
		return cleaned{kind: kindSep, text: t[:len(t)-len(h)] + " " + strings.TrimSpace(h)}, true
	}
	return cleaned{kind: kindSep, code: code}, true // a comment, a prompt without kubectl
}

// toggleFence opens or closes a code block at a fence line. A fence with text after it on the
// same line ("```kubectl get pods```", "``` NAME READY …") keeps the text.
func (c *cleaner) toggleFence(t string) cleaned {
	mark := t[:3]
	rest := strings.TrimLeft(t, mark[:1])
	switch c.fence {
	case "":
		c.fence = mark
		c.diff = strings.TrimSpace(rest) == "diff"
	case mark:
		c.fence, c.diff = "", false
	}
	rest = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), mark))
	if rest == "" || !strings.Contains(rest, " ") {
		return cleaned{kind: kindSep} // "```", "```console", "```yaml"
	}
	if cmd := parseCommand(strings.TrimLeft(rest, "$# ")); cmd != nil {
		return cleaned{kind: kindCommand, cmd: cmd}
	}
	return cleaned{text: rest, kind: kindText, code: true}
}

// stripHTML removes the HTML tags issue trackers wrap output in, noting <pre> blocks as code.
// sep is true when the line held only markup (or a <summary> title).
func (c *cleaner) stripHTML(s string) (out string, sep bool) {
	tags := htmlTagRe.FindAllStringIndex(s, -1)
	if tags == nil {
		return s, false
	}
	summary := false
	for _, loc := range tags {
		tag := strings.ToLower(s[loc[0]:loc[1]])
		switch {
		case strings.HasPrefix(tag, "<pre"):
			c.fence = "<pre>"
		case strings.HasPrefix(tag, "</pre"):
			if c.fence == "<pre>" {
				c.fence = ""
			}
		case strings.HasPrefix(tag, "<summary"):
			summary = true
		}
	}
	out = htmlTagRe.ReplaceAllString(s, "")
	return out, summary || strings.TrimSpace(out) == ""
}

// stripBox removes a terminal UI's box borders: "│ Events:   …   │" becomes "Events:   …".
func stripBox(s string) string {
	const borders = "│┃║"
	t := strings.TrimLeft(s, " ")
	for _, b := range borders {
		if rest, ok := strings.CutPrefix(t, string(b)); ok {
			t = strings.TrimPrefix(rest, " ")
			t = strings.TrimRight(t, " ")
			for _, e := range borders {
				t = strings.TrimSuffix(t, string(e))
			}
			return strings.TrimRight(t, " ")
		}
	}
	return s
}

// stringLine reads a line that is one element of an array of JSON strings and nothing else
// ("        \"NAME   READY   STATUS\",", as Ansible's debug task and stdout_lines print a
// command's output): the string's text, at the line's indentation, so that the rows of a table
// printed so keep their columns. An element is followed by a comma, but for the array's last,
// which is one only after one that was (after): a line that is a string alone is a structured
// log's message wrapped onto a line of its own, quotes and all. A line with anything outside
// its string (a key, a second string) is not one. more says whether a comma followed it.
func stringLine(s string, after bool) (in string, more, ok bool) {
	t := strings.TrimLeft(s, " ")
	lit, more := strings.CutSuffix(t, ",")
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' || !more && !after {
		return "", false, false
	}
	if json.Unmarshal([]byte(lit), &in) != nil || strings.ContainsAny(in, "\n\r") {
		return "", false, false
	}
	return s[:len(s)-len(t)] + in, more, true
}

// diffLine is a line of a diff's hunk without the mark of what the change did to it ("+" added,
// "-" removed, " " kept): the text of a file the diff changed, which may be a command, a
// paste, a document's words. A line with no mark (the fence that closes the diff; output a
// person marked here and there only to colour it) is itself. ok is false for the rest of a
// diff: a hunk's header ("@@ -1,4 +1,6 @@"), a file's ("--- a/README.md"), and a code fence of
// the changed file, which is not the diff's own.
func diffLine(s string) (string, bool) {
	switch {
	case s == "":
		return "", true
	case strings.HasPrefix(s, "@@") || strings.HasPrefix(s, "+++ ") || strings.HasPrefix(s, "--- ") || strings.HasPrefix(s, "diff --git "):
		return "", false
	case !strings.ContainsRune("+- ", rune(s[0])):
		return s, true
	}
	if t := strings.TrimSpace(s[1:]); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		return "", false
	}
	return s[1:], true
}

// stripQuote removes markdown quote markers ("> ", ">", nested "> > ") and up to three
// spaces before them.
func stripQuote(s string) string {
	for {
		t := strings.TrimLeft(s, " ")
		if len(s)-len(t) > 3 || !strings.HasPrefix(t, ">") {
			return s
		}
		s = strings.TrimPrefix(t[1:], " ")
	}
}

// stripBullet removes a list bullet ("- ", "* ", "• ") at the start of a line. Indented
// dashes are left alone: describe blocks print container args as "      -conf".
func stripBullet(s string) string {
	for _, b := range []string{"- ", "* ", "• "} {
		if rest, ok := strings.CutPrefix(s, b); ok && strings.TrimSpace(rest) != "" {
			return strings.TrimLeft(rest, " ")
		}
	}
	return s
}

// barePipeRow reads a Markdown table written without its outer pipes, as GitHub lets one be
// written and as a rendered table copies out of a page: a header of kubectl's column names
// ("NAME | READY | STATUS"), its rule ("-- | -- | --"), and the rows of as many cells below.
func (c *cleaner) barePipeRow(t string, code bool) (cleaned, bool) {
	n := strings.Count(t, "|") + 1
	switch {
	case n < 2 || code:
		c.pipeCells = 0
		return cleaned{}, false
	case tableRuleRe.MatchString(t):
		c.pipeCells = n
		return cleaned{kind: kindSkip}, true
	case n == c.pipeCells || pipeHeader(t):
		c.pipeCells = n
		return cleaned{text: pipeRow(t), kind: kindText}, true
	}
	c.pipeCells = 0
	return cleaned{}, false
}

// pipeHeader says whether every cell of a pipe row is a column name as kubectl prints them
// (upper case: "NAME", "LAST SEEN", "NOMINATED NODE").
func pipeHeader(t string) bool {
	for cell := range strings.SplitSeq(t, "|") {
		if !columnNameRe.MatchString(strings.TrimSpace(cell)) {
			return false
		}
	}
	return true
}

// columnNameRe is one column name of kubectl's tables.
var columnNameRe = lazyre.New(`^[A-Z][A-Z0-9_()%/-]*(?: [A-Z0-9_()%/-]+)*$`)

// pipeRow turns "| NAME | READY |" into "NAME   READY".
func pipeRow(t string) string {
	cells := strings.Split(strings.Trim(t, "|"), "|")
	for i, c := range cells {
		cells[i] = strings.TrimSpace(c)
	}
	return strings.Join(cells, "   ")
}

// expandTabs replaces tabs with spaces up to the next multiple of eight columns, and to the
// one after where that is a single space: a tab is a break between cells, which the readers
// know by two spaces or more ("jenkins-1-snmgs\tPod", a name of 15 characters from column 16).
func expandTabs(s string) string {
	var b strings.Builder
	col := 0
	for _, r := range s {
		if r == '\t' {
			n := 8 - col%8
			if n == 1 {
				n = 9
			}
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

// mayBePrompt is a quick look at whether a line may start with a prompt, before promptRe: every
// line of a paste is asked.
func mayBePrompt(t string) bool {
	if r, _ := utf8.DecodeRuneInString(t); strings.ContainsRune("$#%[(»❯➜", r) || strings.HasPrefix(t, "PS") || len(t) > 2 && t[1] == ':' {
		return true
	}
	first, _, _ := strings.Cut(t, " ")
	return strings.ContainsAny(first, "@:") || strings.HasSuffix(first, "$") || strings.HasSuffix(first, "#") || strings.HasSuffix(first, ">") ||
		strings.HasPrefix(first, "bash-") || strings.HasPrefix(first, "sh-") || strings.HasPrefix(first, "zsh-")
}

// proseCommandRe finds a sentence that ends in the command whose output follows ("After
// running oc describe pods web-1 -n prod", "I ran `kubectl logs web-1`:"): kubectl or oc, a
// verb that prints an object, its resource and name, and flags only, up to the line's end.
var proseCommandRe = lazyre.New("\\s`?((?:kubectl|oc)\\s+(?:describe|get|logs)\\s+[a-z][a-z0-9./-]*(?:\\s+[a-z0-9][a-z0-9.-]*)?(?:\\s+-{1,2}[a-z][a-z-]*(?:[= ][A-Za-z0-9._/-]+)?)*)`?\\s*[:.]?$")
