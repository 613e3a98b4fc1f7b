// Package text reads the kubectl text output that people paste into tickets and chats:
// `kubectl get events` and `kubectl get pods` tables, `kubectl describe pod` and
// `kubectl describe node` blocks, and loose phrases in prose, often wrapped in markdown quotes,
// code fences and shell prompts. It reconstructs typed cluster.Objects from them, with the line
// each one starts on, so that pasted evidence is analysed like structured input.
//
// Parsing is forgiving: a line it cannot read is skipped, never fatal.
package text

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/catalog"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/lazyre"
)

// Result says what a text parse found beyond objects.
type Result struct {
	Objects   int  // objects emitted
	Truncated bool // the input ended mid-object or mid-table row, or a line was cut at MaxLine
	// Prose is set when the input is a document people wrote (sentences, headings, lists,
	// fences around output), with or without output in it.
	Prose bool
}

// MaxLine is the longest line Parse reads; the rest of a longer line is dropped.
const MaxLine = 1 << 20

// parser is the state of one Parse call: at most one table or one describe block is open.
type parser struct {
	ctx  context.Context
	name string
	now  time.Time
	emit func(*cluster.Object) error
	res  Result

	table tableParser // open table, or nil
	block *block      // open describe block, or nil
	// owner is the object the last describe block was about, so that an "Events:" section
	// separated from it by blank lines or a fence is still attributed to it.
	owner *ownerRef
	// pendingNode is a describe-node fragment without a name, held back so that the next
	// nameless fragment of the same paste is merged into it.
	pendingNode *nodeFragment
	// lastNode is the node the last describe node block named, for a nameless fragment after
	// it; "" once another object is described.
	lastNode string
	// cmd is the last command line pasted, and cmdLine its line: what follows is its output.
	cmd     *command
	cmdLine int
	// onePod is the first pod the paste named, manyPods set once it names another (notePod):
	// the pod of a describe fragment that names none, and of the orphans, the pod events of
	// sections nothing named a pod for, held to the end (orphans.go).
	onePod   *ownerRef
	manyPods bool
	orphans  []orphan
	// prose is what the paste says about itself, and the phrases held until its end.
	prose prose
	// held are the pods and nodes kept until the end, each merged from all its showings.
	held held
	// status is an open cluster-autoscaler status, and statusName a node group's "Name:"
	// line held until the next line says whether a status starts there.
	status     *statusBlock
	statusName *line
	// row is the event of the last table row, held until the next line says whether it
	// continues the row's message (a hard-wrapped paste).
	row *heldRow
	// scan is the scan of every line for the catalogue's messages (scan.go).
	scan scanState
	// gap is a blank line inside a describe held until the next line says whether the paste
	// is double-spaced (block.spaced): dropped if the block goes on after it, read if not.
	gap *line
}

// Parse reads kubectl text output (any mix of the formats below, with prose between) and
// emits one cluster.Object per pod, node or event it reconstructs, with Source.Line pointing
// at the line where the object starts: events as they are read; pods and nodes at the end,
// once each, merged from every time the paste showed them; then the claims of its prose. Now is the reference time for
// relative ages ("4m58s", "20h", "2d14h"); when zero, ages are left unset.
//
// It returns an error only when ctx is cancelled, emit fails (its error is returned unchanged)
// or r cannot be read.
func Parse(ctx context.Context, name string, r io.Reader, now time.Time, emit func(*cluster.Object) error) (Result, error) {
	p := &parser{ctx: ctx, name: name, now: now, emit: emit}
	p.scan.cat = catalog.Default()
	p.scan.sc = p.scan.cat.NewScanner(scanBudget)
	lr := newLineReader(r)
	for {
		ln, ok, err := lr.next()
		if err != nil {
			return p.res, fmt.Errorf("text: read %s: %w", name, err)
		}
		if !ok {
			break
		}
		if ln.cut {
			p.res.Truncated = true
		}
		if ln.num%64 == 0 {
			if err := ctx.Err(); err != nil {
				return p.res, err
			}
		}
		if ln.num == 1 {
			ln.text = cutName(ln.text)
		}
		if ln.inset && p.block != nil {
			continue // an empty value inside a describe block: the block goes on
		}
		if gap := p.gap; gap != nil {
			p.gap = nil
			if ln.num != gap.num+1 || p.block == nil || !p.block.spacedNext(ln) {
				if err := p.read(*gap); err != nil {
					return p.res, err
				}
			}
		}
		if ln.kind == kindBlank && p.block != nil && p.block.spaced(ln) {
			p.gap = &ln
			continue
		}
		if err := p.read(ln); err != nil {
			return p.res, err
		}
	}
	if gap := p.gap; gap != nil {
		p.gap = nil
		if err := p.read(*gap); err != nil {
			return p.res, err
		}
	}
	if err := ctx.Err(); err != nil {
		return p.res, err
	}
	err := p.finish(lr.lastEOL)
	if p.scan.sc.Exhausted() {
		p.res.Truncated = true // read in part: the scan stopped at its budget
	}
	return p.res, err
}

// read scans one line for the catalogue's messages and routes it.
func (p *parser) read(ln line) error {
	p.scanLine(ln)
	return p.line(ln)
}

// cutNameRe is the first line of a describe cut inside its first word: "ame:   web-1".
var cutNameRe = lazyre.New(`^(?:ame|me):(\s{2,}\S.*)$`)

// cutName restores the "Name:" of a describe a paste cut at its very start, so that the block
// and its object are read.
func cutName(s string) string {
	if m := cutNameRe.FindStringSubmatch(s); m != nil {
		return "Name:" + m[1]
	}
	return s
}

// line routes one cleaned line: to the open block, the open table, or the format detectors.
func (p *parser) line(ln line) error {
	if ln.kind == kindSkip {
		return nil
	}
	if ln.code {
		p.prose.fenced = true
	}
	if ln.kind == kindSep && ln.text != "" {
		marks, title, _ := strings.Cut(ln.text, " ")
		p.heading(title, len(marks), ln.num)
	}
	if p.block != nil {
		if p.block.accepts(ln) {
			p.block.add(ln)
			return nil
		}
		if err := p.flushBlock(); err != nil {
			return err
		}
	}
	if p.status != nil {
		if p.status.accepts(ln) {
			p.status.lines = append(p.status.lines, ln)
			return nil
		}
		if err := p.flushStatus(); err != nil {
			return err
		}
	}
	if p.table != nil {
		if ln.kind == kindText {
			ok, err := p.table.row(p, ln)
			if err != nil || ok {
				return err
			}
			if p.continueRow(ln) {
				return nil
			}
			if !ln.eol {
				p.res.Truncated = true // a last row cut short
			}
		}
		if err := p.closeTable(); err != nil {
			return err
		}
	}
	if err := p.flushRow(); err != nil {
		return err
	}
	switch ln.kind {
	case kindBlank:
		return nil
	case kindSep:
		if ln.text != "" { // a heading: what follows is not the output of the command before
			p.cmd = nil
		}
		return nil
	case kindCommand:
		// What follows is this command's output: a new context, whatever came before.
		p.cmd, p.cmdLine, p.owner = ln.cmd, ln.num, nil
		if ref := cmdRef(ln.cmd); ref.Kind == cluster.KindPod {
			p.notePod(ref.Namespace, ref.Name)
		}
		return nil
	}
	if c := trailingCommand(ln); c != nil {
		// "…pod in Pending and then kubectl describe pod gpu-1": a sentence that ends with
		// the command whose output follows.
		p.cmd, p.cmdLine = c, ln.num
	} else if c := introCommand(ln); c != nil {
		// "`pg-cluster-1` never becomes healthy:": a sentence that introduces the paste below
		// it by the one pod it names, as a describe of that pod would.
		p.cmd, p.cmdLine = c, ln.num
	}
	// Anything else between a describe block and a detached "Events:" breaks the link.
	owner := p.owner
	p.owner = nil
	return p.start(ln, owner)
}

// start recognises the line that opens a format, in priority order.
func (p *parser) start(ln line, owner *ownerRef) error {
	if held := p.statusName; held != nil && !statusStartRe.MatchString(ln.text) {
		// The indented "Name:" held for an autoscaler's status that did not follow: the first
		// line of a describe pasted indented as a whole, when this line goes on with it.
		p.statusName = nil
		if b := indentedBlock(*held, owner); b != nil && held.num == ln.num-1 {
			b.add(*held)
			if b.accepts(ln) {
				p.block = b
				b.add(ln)
				return nil
			}
		}
	}
	if p.startsStatus(ln) {
		return nil
	}
	if ok, err := p.logLine(ln); ok || err != nil {
		return err
	}
	if t := p.headerTable(ln.text); t != nil {
		p.table = t
		return nil
	}
	if ln.num == p.cmdLine+1 {
		if t := p.newJSONPathRows(); t != nil {
			ok, err := t.row(p, ln)
			if ok {
				p.table = t
			}
			if ok || err != nil {
				return err
			}
		}
	}
	if startsBlock(ln.text) {
		p.block = &block{owner: owner}
		p.block.add(ln)
		return nil
	}
	if b := indentedBlock(ln, owner); b != nil {
		p.block = b // a describe pasted indented as a whole
		p.block.add(ln)
		return nil
	}
	if t := headerlessEvents(ln.text); t != nil {
		ok, err := t.row(p, ln)
		if ok {
			p.table = t
		}
		return err
	}
	if _, _, ok := headerlessPodCells(ln); ok || halfPodRow(ln) {
		t := &podRows{}
		ok, err := t.row(p, ln)
		if ok {
			p.table = t
			return err
		}
	}
	if span, ok := codeSpan(ln); ok {
		if ref := cmdRef(parseCommand(strings.TrimLeft(span.text, "$# "))); ref.Kind == cluster.KindPod {
			// "When I ran `kubectl describe pods x`, it showed …": a pod the paste is about,
			// for events nothing else names a pod for (orphans.go).
			p.notePod(ref.Namespace, ref.Name)
		}
		// A pods row quoted in a sentence: "the chart fails with `kubeflow  op-85…  0/1
		// OOMKilled`." The span is read as the row it holds, the sentence as a phrase.
		if f, wide, ok := headerlessPodCells(span); ok {
			if pod, listed, ok := p.podRow(f, wide); ok {
				if err := p.emitListed(pod, listed, ln); err != nil {
					return err
				}
			}
		}
	}
	return p.phrase(ln)
}

// headerTable is the table whose header s is, of those kubectl prints (events, pods, nodes,
// claims, classes, or custom columns), or nil.
func (p *parser) headerTable(s string) tableParser {
	if t := newEventsTable(s); t != nil {
		return t
	}
	if t := newPodsTable(s); t != nil {
		return t
	}
	if t := newNodesTable(s); t != nil {
		return t
	}
	if t := newClaimsTable(s); t != nil {
		return t
	}
	if t := newClassesTable(s); t != nil {
		return t
	}
	if t := newCSVEventsTable(s); t != nil {
		return t
	}
	if t := p.newColumnsTable(s); t != nil {
		return t
	}
	return nil
}

// finish closes whatever is open at the end of the input. lastEOL says whether the input's
// last line ended with a newline; a describe block without one was cut mid-object.
func (p *parser) finish(lastEOL bool) error {
	if p.block != nil {
		if !lastEOL {
			p.res.Truncated = true
		}
		if err := p.flushBlock(); err != nil {
			return err
		}
	}
	if err := p.closeTable(); err != nil {
		return err
	}
	if err := p.flushRow(); err != nil {
		return err
	}
	if p.status != nil {
		if err := p.flushStatus(); err != nil {
			return err
		}
	}
	if err := p.flushPendingNode(); err != nil {
		return err
	}
	if err := p.flushHeld(); err != nil {
		return err
	}
	if err := p.flushOrphans(); err != nil {
		return err
	}
	if err := p.finishScan(); err != nil {
		return err
	}
	return p.finishPhrases()
}

// closer is a table that holds something back until it ends.
type closer interface {
	close(p *parser) error
}

// closeTable ends the open table.
func (p *parser) closeTable() error {
	t := p.table
	p.table = nil
	if c, ok := t.(closer); ok {
		return c.close(p)
	}
	return nil
}

// codeSpan returns the line's first inline code span ("`…`") of several words outside a code
// block, as a line of its own.
func codeSpan(ln line) (line, bool) {
	if ln.code {
		return line{}, false
	}
	_, rest, ok := strings.Cut(ln.text, "`")
	if !ok {
		return line{}, false
	}
	inner, _, ok := strings.Cut(rest, "`")
	if !ok || !strings.Contains(strings.TrimSpace(inner), " ") {
		return line{}, false
	}
	span := ln
	span.text = strings.TrimSpace(inner)
	return span, true
}

// trailingCmdRe finds a kubectl command a sentence ends with, unquoted.
var trailingCmdRe = lazyre.New(`(?:^|[\s，,;:])((?:sudo\s+)?kubectl\s+(?:describe|get|logs)\s+[^\s"'` + "`" + `]+(?:\s+[^\s"'` + "`" + `]+){0,5})\s*[:：]?$`)

// introCommand reads a sentence that ends with a colon and names one pod, in inline code, as
// the describe of that pod whose output follows: "`pg-cluster-1` never becomes healthy:". The
// name must be one a controller makes for a pod ("db-0", "web-6d4cf56db6-zp2lx"), so that a
// Deployment's or a container's name is not taken for it.
func introCommand(ln line) *command {
	t := strings.TrimSpace(ln.text)
	if ln.code || !strings.HasSuffix(t, ":") || strings.Count(t, "`") != 2 {
		return nil
	}
	_, rest, _ := strings.Cut(t, "`")
	name, _, _ := strings.Cut(rest, "`")
	name = strings.TrimPrefix(name, "pod/")
	if !podNameRe.MatchString(name) {
		return nil
	}
	return &command{text: t, verb: "describe", resource: "pod", name: name}
}

// trailingCommand returns the command a line of prose ends with, when it names the object
// whose output the next lines may be: "then kubectl describe pod gpu-1".
func trailingCommand(ln line) *command {
	if ln.code || !strings.Contains(ln.text, "kubectl ") {
		return nil
	}
	m := trailingCmdRe.FindStringSubmatch(ln.text)
	if m == nil {
		return nil
	}
	c := parseCommand(m[1])
	if cmdRef(c).Name == "" {
		return nil
	}
	return c
}
