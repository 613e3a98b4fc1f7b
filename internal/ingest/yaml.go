package ingest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// maxYAMLLine bounds one line of YAML; longer lines are refused rather than buffered.
const maxYAMLLine = 4 << 20

// yamlStream decodes YAML: one object, several documents separated by "---", and lists, whose
// items (the "- " entries under a top-level "items:", as kubectl writes them) are cut out and
// decoded one at a time so that a large list never sits in memory whole.
type yamlStream struct {
	d     *Decoder
	ctx   context.Context
	name  string
	br    *bufio.Reader
	emit  func(*cluster.Object) error
	depth int

	lineNo  int   // number of the line last read
	lineOff int64 // offset of the line last read
	offset  int64 // offset of the next line
	objects int   // documents and items decoded
	cut     bool  // the last line read ended without a newline: the input may stop mid-object

	// the document being read
	header     docLines // its lines outside items
	headerLine int      // line number of its first line
	headerOff  int64
	headerKind string // the kind its lines so far give, when they give one
	listKind   string

	// the list items of the document being read
	inItems    bool
	itemIndent int // column of the items' "- "; -1 before the first item
	inItem     bool
	item       docLines
	itemLine   int
	itemOff    int64
}

var (
	itemsKey   = regexp.MustCompile(`^items:\s*(#.*)?$`)
	kindKey    = regexp.MustCompile(`^kind:\s*["']?([A-Za-z]+)`)
	yamlErrPos = regexp.MustCompile(`^(?:error converting YAML to JSON: )?yaml: line (\d+): `)
)

// decodeYAML decodes YAML that starts after skipLines lines and skipBytes bytes of the file
// (blank ones), so that positions still count from the file's start.
func (d *Decoder) decodeYAML(ctx context.Context, name string, r io.Reader, emit func(*cluster.Object) error, depth, skipLines int, skipBytes int64) error {
	s := &yamlStream{d: d, ctx: ctx, name: name, br: bufio.NewReaderSize(r, 64<<10), emit: emit, depth: depth,
		lineNo: skipLines, offset: skipBytes}
	s.resetDoc()
	for {
		line, err := s.readLine()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if isDocEnd(line) {
			if err := s.flushDoc(); err != nil {
				return err
			}
			continue
		}
		if err := s.add(line); err != nil {
			return err
		}
	}
	if err := s.flushLast(); err != nil {
		return err
	}
	if s.objects == 0 {
		return &Error{File: name, Msg: "YAML with no documents", Err: ErrMalformed}
	}
	return nil
}

// maxCutLines is how many lines at the end of a cut document are given up to read the rest.
const maxCutLines = 8

// flushLast decodes the last document. When the input stopped in the middle of it (its last
// line has no newline) and it does not parse, the lines at the cut are dropped until the rest
// parses: that much is emitted, and the error says the input was truncated, as for JSON.
func (s *yamlStream) flushLast() error {
	if !s.cut {
		return s.flushDoc()
	}
	lines, item := &s.header, false
	if s.inItem {
		lines, item = &s.item, true
	}
	all := docLines{buf: bytes.Clone(lines.buf), n: lines.n, starts: lines.starts}
	src := cluster.Source{File: s.name, Line: cluster.LineOf(s.headerLine), Offset: s.headerOff}
	if item {
		src = cluster.Source{File: s.name, Line: cluster.LineOf(s.itemLine), Offset: s.itemOff}
	}
	first := s.flushDoc()
	var ye *Error
	if first == nil || !errors.As(first, &ye) || !strings.HasPrefix(ye.Msg, "invalid YAML") {
		return first
	}
	kind := ""
	if item {
		kind = itemKind(s.listKind)
	}
	for drop := 1; drop <= maxCutLines && drop < all.n; drop++ {
		raw, err := s.toJSON(all.withoutLast(drop), src)
		if errors.Is(err, errRepeatedKey) {
			return err
		}
		if err != nil || bytes.Equal(raw, []byte("null")) {
			continue
		}
		s.objects++
		if err := s.d.object(s.ctx, raw, src, kind, "", s.namer(all.text()), s.depth); err != nil {
			return err
		}
		return &Error{File: s.name, Line: s.lineNo, Offset: s.lineOff, Err: ErrMalformed, Truncated: true,
			Msg: fmt.Sprintf("unexpected end of YAML: the input is truncated at line %d (the last %d line(s) of the object there were left out)", s.lineNo, drop)}
	}
	return first
}

// readLine returns the next line without its line ending.
func (s *yamlStream) readLine() (string, error) {
	var buf []byte
	for {
		chunk, err := s.br.ReadSlice('\n')
		if buf == nil && err == nil {
			buf = chunk // a whole line at once, as nearly always: not copied twice
		} else {
			buf = append(buf, chunk...)
		}
		if len(buf) > maxYAMLLine {
			return "", &Error{File: s.name, Line: s.lineNo + 1, Offset: s.offset, Err: ErrMalformed,
				Msg: fmt.Sprintf("line longer than %d bytes", maxYAMLLine)}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return "", err
		}
		if len(buf) == 0 && err != nil {
			return "", io.EOF
		}
		s.lineNo++
		s.lineOff = s.offset
		s.offset += int64(len(buf))
		s.cut = !bytes.HasSuffix(buf, []byte("\n"))
		line := strings.TrimSuffix(strings.TrimSuffix(string(buf), "\n"), "\r")
		return line, nil
	}
}

func isDocEnd(line string) bool {
	return line == "---" || line == "..." || strings.HasPrefix(line, "--- ") || strings.HasPrefix(line, "---\t")
}

func (s *yamlStream) resetDoc() {
	s.header.reset()
	s.item.reset()
	s.headerKind, s.listKind, s.inItems, s.itemIndent, s.inItem = "", "", false, -1, false
	s.headerLine, s.headerOff = s.lineNo+1, s.offset
}

func (s *yamlStream) add(line string) error {
	if !s.inItems {
		if itemsKey.MatchString(line) {
			s.inItems, s.itemIndent, s.listKind = true, -1, s.headerKind
			return nil
		}
		if s.header.n == 0 {
			if strings.TrimLeft(line, " \t\r") == "" {
				// Blank lines before a document are no part of it: it starts at its first
				// line of text. (A line of tabs there would be a YAML error, too.)
				return nil
			}
			s.headerLine, s.headerOff = s.lineNo, s.lineOff
		}
		if strings.HasPrefix(line, "kind:") {
			if m := kindKey.FindStringSubmatch(line); m != nil {
				s.headerKind = m[1]
			}
		}
		s.header.add(line)
		return nil
	}
	trimmed := strings.TrimLeft(line, " ")
	indent := len(line) - len(trimmed)
	isItem := trimmed == "-" || strings.HasPrefix(trimmed, "- ")
	switch {
	case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		if s.inItem {
			s.item.add("")
		}
		return nil
	case isItem && (s.itemIndent < 0 || indent == s.itemIndent):
		if err := s.flushItem(); err != nil {
			return err
		}
		s.itemIndent, s.itemLine, s.itemOff, s.inItem = indent, s.lineNo, s.lineOff, true
		s.item.add(strings.TrimPrefix(trimmed[1:], " "))
		return nil
	case s.itemIndent >= 0 && indent > s.itemIndent:
		s.inItem = true
		s.item.add(line[min(indent, s.itemIndent+2):])
		return nil
	}
	// A line back at the items' own level or left of it ends the list.
	if err := s.flushItem(); err != nil {
		return err
	}
	s.inItems = false
	return s.add(line)
}

func (s *yamlStream) flushItem() error {
	if !s.inItem {
		return nil
	}
	defer s.item.reset()
	s.inItem = false
	src := cluster.Source{File: s.name, Line: cluster.LineOf(s.itemLine), Offset: s.itemOff}
	return s.decodeDoc(s.item.text(), src, itemKind(s.listKind))
}

func (s *yamlStream) flushDoc() error {
	if err := s.flushItem(); err != nil {
		return err
	}
	hadItems := s.itemIndent >= 0 || s.inItems
	text := s.header.text()
	src := cluster.Source{File: s.name, Line: cluster.LineOf(s.headerLine), Offset: s.headerOff}
	defer s.resetDoc()
	if hadItems || len(bytes.TrimSpace(text)) == 0 {
		return nil // the list's own fields (apiVersion, kind, metadata) carry nothing to keep
	}
	return s.decodeDoc(text, src, "")
}

// decodeDoc decodes a document or an item; text is valid only for the call.
func (s *yamlStream) decodeDoc(text []byte, src cluster.Source, defaultKind string) error {
	raw, err := s.toJSON(text, src)
	if err != nil {
		return err
	}
	if bytes.Equal(raw, []byte("null")) {
		return nil // a document of comments only
	}
	s.objects++
	return s.d.object(s.ctx, raw, src, defaultKind, "", s.namer(text), s.depth)
}

// generatedPodRe is a pod name as controllers generate them: "istiod-b7c9f6f6d-q8zdb",
// "coredns-5dd5756b68-2zrhr", "web-0" is not one (too easily a word).
var generatedPodRe = regexp.MustCompile(`\b[a-z0-9](?:[a-z0-9-]*[a-z0-9])?-[a-z0-9]{5}\b`)

// namer names a pod that a document pasted without its metadata (`status:` alone) after the
// one generated pod name its comments mention ("# the istiod-b7c9f6f6d-q8zdb pod has no
// status.reason"), as a person reading it would.
func (s *yamlStream) namer(text []byte) func(*cluster.Object) error {
	if bytes.IndexByte(text, '#') < 0 {
		return s.emit
	}
	var names []string
	for _, l := range strings.Split(string(text), "\n") {
		if c, ok := strings.CutPrefix(strings.TrimSpace(l), "#"); ok {
			for _, n := range generatedPodRe.FindAllString(c, -1) {
				if !slices.Contains(names, n) {
					names = append(names, n)
				}
			}
		}
	}
	if len(names) != 1 {
		return s.emit
	}
	return func(o *cluster.Object) error {
		if o.Pod != nil && o.Name == "" && o.Pod.Name == "" {
			o.Name, o.Pod.Name = names[0], names[0]
			o.Raw = storedPodNamed(o.Raw, names[0])
		}
		return s.emit(o)
	}
}

// storedPodNamed is the stored JSON of a pod, raw, given the name its paste did not say; nil
// (the store then marshals the pod as Rootline keeps it) when there is none or it does not
// decode.
func storedPodNamed(raw []byte, name string) []byte {
	if raw == nil {
		return nil
	}
	p := new(corev1.Pod)
	if json.Unmarshal(raw, p) != nil {
		return nil
	}
	p.Name = name
	return storedJSON(p)
}

// yamlRepeat is how YAML's strict mode reports a key said twice.
var yamlRepeat = regexp.MustCompile(`line (\d+): key (.+) already set in map`)

// toJSON converts a document or an item, found at src, to JSON. Keys said twice are refused
// (see dupkeys.go) at any depth: YAML's strict mode finds them all, as kubectl's does, where
// the plain conversion keeps the last.
func (s *yamlStream) toJSON(text []byte, src cluster.Source) ([]byte, error) {
	raw, err := yaml.YAMLToJSONStrict(text)
	if err == nil {
		return raw, nil
	}
	if m := yamlRepeat.FindStringSubmatch(err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		return nil, &Error{File: s.name, Line: int(src.Line) + n - 1, Offset: src.Offset, Msg: "duplicate key " + m[2], Err: errRepeatedKey}
	}
	return nil, s.yamlErr(src, err)
}

// yamlErr reports a YAML error at its line in the file rather than in the document.
func (s *yamlStream) yamlErr(src cluster.Source, err error) error {
	msg := err.Error()
	line := int(src.Line)
	if m := yamlErrPos.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		line += n - 1
		msg = msg[len(m[0]):]
	} else {
		msg = strings.TrimPrefix(msg, "error converting YAML to JSON: ")
	}
	return &Error{File: s.name, Line: line, Offset: src.Offset, Msg: "invalid YAML: " + msg, Err: ErrMalformed}
}
