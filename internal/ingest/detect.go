package ingest

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/ingest/text"
	"github.com/rootline-dev/rootline/internal/metrics"
)

// sniffLen is how much of an input format detection looks at.
const sniffLen = 8 << 10

// decode detects the container format (gzip, tar) and hands the contents to the right parser.
// compressed says whether r already comes out of a decompressor.
func (d *Decoder) decode(ctx context.Context, name string, r io.Reader, emit func(*cluster.Object) error, depth int) error {
	return d.decodeIn(ctx, name, r, emit, depth, false)
}

func (d *Decoder) decodeIn(ctx context.Context, name string, r io.Reader, emit func(*cluster.Object) error, depth int, compressed bool) error {
	if depth > maxNesting {
		return &Error{File: name, Msg: "archives nested too deeply", Err: ErrUnsupported}
	}
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(512)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return d.readError(name, err)
	}
	switch {
	case len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b:
		zr, err := gzip.NewReader(br)
		if err != nil {
			return &Error{File: name, Msg: "bad gzip header: " + err.Error(), Err: ErrMalformed}
		}
		defer zr.Close()
		return d.decodeIn(ctx, name, zr, emit, depth+1, true)
	case isTar(head):
		return d.decodeTar(ctx, name, br, emit, depth, compressed)
	}
	return d.decodeLeaf(ctx, name, br, emit, depth, compressed)
}

// isTar recognises a POSIX or GNU tar header by its magic at offset 257.
func isTar(head []byte) bool {
	return len(head) >= 262 && string(head[257:262]) == "ustar"
}

func (d *Decoder) decodeTar(ctx context.Context, name string, r io.Reader, emit func(*cluster.Object) error, depth int, compressed bool) error {
	tr := tar.NewReader(r)
	files := 0
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return &Error{File: name, Msg: "bad tar archive: " + err.Error(), Err: ErrMalformed}
		}
		if err := checkEntryName(hdr.Name); err != nil {
			return &Error{File: name, Msg: err.Error(), Err: ErrMalformed}
		}
		switch hdr.Typeflag {
		case tar.TypeReg:
		case tar.TypeDir, tar.TypeXGlobalHeader, tar.TypeXHeader:
			continue
		default:
			return &Error{File: name, Msg: fmt.Sprintf("tar entry %q is not a regular file or folder", hdr.Name), Err: ErrUnsupported}
		}
		base := path.Base(hdr.Name)
		if strings.HasPrefix(base, ".") || hdr.Size == 0 {
			// Editor and OS litter (._foo, .DS_Store) and empty files carry no objects. Their
			// bytes are read here rather than by the tar reader stepping over them, so that
			// they count against the budget and stop with ctx like the rest.
			if _, err := io.Copy(io.Discard, &budgetReader{ctx: ctx, r: tr, d: d}); err != nil {
				return d.readError(name, err)
			}
			continue
		}
		files++
		if notesName(base) { // a README beside the evidence: claims, never evidence (notes.go)
			if err := d.notesEntry(ctx, name+":"+hdr.Name, tr, emit, depth+1, compressed); err != nil {
				return err
			}
			continue
		}
		if err := d.decodeIn(ctx, name+":"+hdr.Name, tr, emit, depth+1, compressed); err != nil {
			return err
		}
	}
	if files == 0 {
		return &Error{File: name, Msg: "tar archive holds no files", Err: ErrMalformed}
	}
	return nil
}

// checkEntryName refuses archive paths that would escape a folder if anyone ever extracted them.
func checkEntryName(n string) error {
	if strings.HasPrefix(n, "/") || strings.Contains(n, "\\") {
		return fmt.Errorf("tar entry %q has an absolute or Windows path", n)
	}
	for _, part := range strings.Split(n, "/") {
		if part == ".." {
			return fmt.Errorf("tar entry %q climbs out of the archive with a \"..\" element", n)
		}
	}
	return nil
}

// decodeLeaf parses an uncompressed, unarchived document. Bytes count against the budget here,
// so that compressed and plain inputs are measured alike.
func (d *Decoder) decodeLeaf(ctx context.Context, name string, r *bufio.Reader, emit func(*cluster.Object) error, depth int, compressed bool) error {
	lim := &budgetReader{ctx: ctx, r: r, d: d}
	u := &utf8Check{r: lim}
	br := bufio.NewReaderSize(u, 64<<10)
	var bom int64
	if head, _ := br.Peek(len(utf8BOM)); bytes.Equal(head, utf8BOM) { // as Windows editors write: skipped
		bom = int64(len(utf8BOM))
		_, _ = br.Discard(len(utf8BOM))
	}
	lead, err := skipBlankLines(br)
	if err != nil {
		return d.readError(name, err)
	}
	head, err := br.Peek(sniffLen)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return d.readError(name, err)
	}
	perr := d.decodeSniffed(ctx, name, br, head, lead, bom, emit, depth)
	return d.leafError(name, perr, u, br, compressed)
}

// decodeSniffed decodes what br holds by what its head looks like: JSON (with a command line
// pasted above it or not), a saved Prometheus answer, Kubernetes YAML, kubectl's text, other
// YAML, or prose; binary data and whitespace alone are refused.
func (d *Decoder) decodeSniffed(ctx context.Context, name string, br *bufio.Reader, head []byte, lead leadingBlank, bom int64, emit func(*cluster.Object) error, depth int) error {
	start := skipSpace(head)
	switch {
	case start == len(head): // only whitespace: skipBlankLines leaves less than sniffLen of it
		return &Error{File: name, Msg: "empty input: no Kubernetes objects", Err: ErrMalformed}
	case !isText(head) && badUTF8(head) > 2 && badUTF8(head)*100 > len(head):
		// Before the JSON case: binary data may begin with '{' by chance. (A NUL alone in
		// JSON is left to the JSON decoder, which names its position.)
		return &Error{File: name, Msg: "binary data: not JSON, YAML or a gzip or tar archive", Err: ErrUnsupported, Binary: true}
	case head[start] == '{' && metrics.Sniff(head[start:]):
		// A saved answer of Prometheus's range query API, not a Kubernetes object.
		return d.decodeMetrics(name, br, emit)
	case (head[start] == '{' || head[start] == '[' && jsonArray(head[start:])) && (jsonStart(head[start:]) || jsonName(name)):
		return d.decodeJSON(ctx, name, br, emit, depth, lead.lines, bom+lead.bytes)
	case promptBeforeJSON(head[start:]):
		// "$ kubectl get pod -o json x" pasted above its output: skip the command line.
		blank := strings.Count(string(head[:start]), "\n")
		_, _ = br.Discard(start)
		prompt, _ := br.ReadString('\n')
		return d.decodeJSON(ctx, name, br, emit, depth, lead.lines+blank+1, bom+lead.bytes+int64(start+len(prompt)))
	case !isText(head) && !mostlyText(head):
		return &Error{File: name, Msg: "binary data: not JSON, YAML or a gzip or tar archive", Err: ErrUnsupported, Binary: true}
	case !isText(head):
		// Text with a few bytes that are not UTF-8: read on, and say where (below).
		_, _ = io.Copy(io.Discard, br)
		return nil
	case kubeYAML(head[start:]):
		return d.decodeYAML(ctx, name, br, emit, depth, lead.lines, bom+lead.bytes)
	case text.Sniff(head[start:]):
		return d.decodeText(ctx, name, lead.replay(br), emit)
	case looksLikeYAML(head[start:]):
		return d.decodeYAML(ctx, name, br, emit, depth, lead.lines, bom+lead.bytes)
	default:
		// Prose, a postmortem, a ticket: the text parser reads what output it holds, and the
		// claims its author makes; text with neither is refused there.
		return d.decodeText(ctx, name, lead.replay(br), emit)
	}
}

// leafError is the error a leaf's decode ends with: too large, not UTF-8 (the truer answer
// even where it also failed to parse), or for a compressed input that failed to parse, too
// large if it turns out to be a decompression bomb; else perr.
func (d *Decoder) leafError(name string, perr error, u *utf8Check, br *bufio.Reader, compressed bool) error {
	if own := (*Error)(nil); errors.As(perr, &own) && own.Err == ErrTooLarge {
		return perr // says which limit (a saved Prometheus answer has one of its own)
	}
	if errors.Is(perr, ErrTooLarge) {
		return d.tooLarge(name)
	}
	if off, line, bad := u.invalid(); bad && (perr == nil || errors.Is(perr, ErrMalformed)) {
		// Text that is not UTF-8: the truer answer, even where it also failed to parse.
		return &Error{File: name, Line: line, Offset: off, Err: ErrMalformed,
			Msg: fmt.Sprintf("invalid UTF-8 at byte %d: Kubernetes objects and kubectl output are UTF-8", off)}
	}
	if perr != nil && compressed && (errors.Is(perr, ErrUnsupported) || errors.Is(perr, ErrMalformed)) {
		// A decompression bomb usually fails to parse long before it ends; too large is the
		// truer answer, so read on (counting, not keeping) to see whether it is one.
		if _, err := io.Copy(io.Discard, br); errors.Is(err, ErrTooLarge) {
			return d.tooLarge(name)
		}
	}
	return perr
}

func (d *Decoder) tooLarge(name string) error {
	return &Error{File: name, Offset: d.read, Err: ErrTooLarge,
		Msg: fmt.Sprintf("input larger than the limit of %d bytes once decompressed", d.opts.MaxBytes)}
}

// readError turns a failure of the underlying reader into an Error when it is ours.
func (d *Decoder) readError(name string, err error) error {
	if errors.Is(err, ErrTooLarge) {
		return d.tooLarge(name)
	}
	if errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &Error{File: name, Offset: d.read, Msg: "damaged or truncated archive: " + err.Error(), Err: ErrMalformed}
	}
	return fmt.Errorf("read %s: %w", name, err)
}

// budgetReader counts decompressed bytes against the decoder's limit, and stops the read
// once ctx is done: every parser reads through it a buffer at a time, so that a long run of
// whitespace, a long token or a long line is given up promptly when the client has gone.
type budgetReader struct {
	ctx context.Context
	r   io.Reader
	d   *Decoder
}

func (b *budgetReader) Read(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	if b.d.read >= b.d.opts.MaxBytes {
		// Allow reading one more byte to tell "exactly at the limit" from "over it".
		p = p[:min(len(p), 1)]
	}
	n, err := b.r.Read(p)
	b.d.read += int64(n)
	if b.d.read > b.d.opts.MaxBytes {
		return n, ErrTooLarge
	}
	return n, err
}

// utf8BOM is the byte order mark some editors put before UTF-8 text.
var utf8BOM = []byte("\xef\xbb\xbf")

func skipSpace(b []byte) int {
	i := 0
	if bytes.HasPrefix(b, utf8BOM) {
		i = 3
	}
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// isText reports whether the sample is UTF-8 text without NUL bytes (a rune cut at the end of
// the sample is allowed).
func isText(b []byte) bool {
	if bytes.IndexByte(b, 0) >= 0 {
		return false
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return len(b)-i < utf8.UTFMax && !utf8.FullRune(b[i:])
		}
		i += size
	}
	return true
}

// mostlyText reports whether a sample that is not UTF-8 text is still text with a few bad
// bytes (two, or at most one in a hundred; no NUL), rather than binary data.
func mostlyText(b []byte) bool {
	if bytes.IndexByte(b, 0) >= 0 {
		return false
	}
	bad := badUTF8(b)
	return bad <= 2 || bad*100 <= len(b)
}

// badUTF8 counts the bytes of b that are not part of a valid UTF-8 sequence.
func badUTF8(b []byte) int {
	bad := 0
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			bad++
		}
		i += size
	}
	return bad
}

// shellPrompt matches a pasted command line: "$ kubectl …", "» kubectl …", "user@host:~$ kubectl …",
// "[root@host ~]# oc …".
var shellPrompt = regexp.MustCompile(`^[^\n]{0,80}?[$#»>%]\s*(?:sudo\s+)?(?:\S*kubectl\S*|oc|k)\s[^\n]*\r?\n\s*[\[{]`)

// promptBeforeJSON reports whether the input is a kubectl command line followed by JSON.
func promptBeforeJSON(b []byte) bool { return shellPrompt.Match(b) }

// yamlStart matches the first meaningful line of a YAML mapping or of a stream of them.
var yamlStart = regexp.MustCompile(`^(---|%YAML|#|[A-Za-z_"'][^:\n]*:([ \t]|\r?$))`)

// yamlTopLine matches what a line may start with at column 0 in a YAML stream: a key, a list
// item, a document marker, a directive or a comment. Prose ("Users were reporting …"), a
// Markdown quote ("> …") or a numbered list ("1. …") at column 0 is not YAML.
var yamlTopLine = regexp.MustCompile(`^(?:[A-Za-z_"'][^:]*:(?:\s|$)|-(?:\s|$)|---|\.\.\.|%|#|[ \t]|$)`)

// kubeKey matches the top-level keys of a Kubernetes object or list.
var kubeKey = regexp.MustCompile(`^(?:apiVersion|kind|metadata|spec|status|items)\s*:`)

// looksLikeYAML reports whether the sample starts like YAML and every whole line of it at
// column 0 is one YAML allows there: a Markdown document with a "- Source: …" list or a
// "# Title" is text, not YAML.
func looksLikeYAML(b []byte) bool {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	return yamlStart.Match(line) && yamlLines(b) && !notes(b)
}

// noteLineRe is a line of notes written as "Key: a sentence": "Root cause: the disk filled up".
var noteLineRe = regexp.MustCompile(`^[A-Za-z][\w ]*:\s+(?:[^\s\[{]\S*\s+){3,}\S`)

// notes reports whether a sample that parses as YAML is a person's notes instead: a key of two
// words, or a value of four words or more, at column 0. Kubernetes objects have neither.
func notes(b []byte) bool {
	for _, l := range wholeLines(b) {
		k, _, ok := strings.Cut(l, ":")
		if ok && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, " ") && (strings.Contains(strings.TrimSpace(k), " ") || noteLineRe.MatchString(l)) {
			return true
		}
	}
	return false
}

// kubeYAML reports whether the sample is YAML whose first key is one of a Kubernetes object's
// (after comments and document markers): an object, a list, or a fragment such as "status:"
// pasted alone.
func kubeYAML(b []byte) bool {
	for _, l := range wholeLines(b) {
		t := strings.TrimRight(l, " \t\r")
		if t == "" || t == "---" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "%") {
			continue
		}
		return kubeKey.MatchString(t) && yamlLines(b)
	}
	return false
}

// yamlLines reports whether every whole line of the sample's first document may start a YAML
// line at column 0: a later document that does not is a YAML error to report, not a sign that
// the input is not YAML.
func yamlLines(b []byte) bool {
	seen := false
	for _, l := range wholeLines(b) {
		l = strings.TrimRight(l, "\r")
		if l == "---" || strings.HasPrefix(l, "--- ") {
			if seen {
				return true
			}
			continue
		}
		if !yamlTopLine.MatchString(l) {
			return false
		}
		if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "#") {
			seen = true
		}
	}
	return true
}

// wholeLines splits a sample into lines, leaving out a last line the sample may have cut.
func wholeLines(b []byte) []string {
	lines := strings.Split(string(b), "\n")
	if len(b) >= sniffLen && len(lines) > 1 {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// jsonStart reports whether a sample starting with '{' or '[' begins as JSON: its first few
// tokens are JSON's. Text that starts with a brace ("{kubelet node-1}", the source column of
// an old events row; "[12:54:41] $ kubectl …", a prompt with the time) is read as text
// instead of refused as JSON that is not; a JSON document broken further on is JSON, and its
// error says where.
func jsonStart(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b[:min(len(b), 4<<10)]))
	for range 4 {
		if _, err := dec.Token(); err != nil {
			var se *json.SyntaxError
			return !errors.As(err, &se)
		}
	}
	return true
}

// jsonName reports a file named as JSON: what it holds is JSON, and where it is not, its error
// says where.
func jsonName(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".json", ".jsonl", ".ndjson":
		return true
	}
	return false
}

// jsonArray reports whether a sample starting with '[' is a JSON array rather than text such
// as a shell prompt ("[root@node-1 ~]# kubectl …") or an elision ("[...]").
func jsonArray(b []byte) bool {
	i := 1
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	if i == len(b) {
		return true
	}
	switch c := b[i]; {
	case c == '{' || c == '[' || c == ']' || c == '"' || c == '-' || (c >= '0' && c <= '9'):
		return true
	case c == 't' || c == 'f' || c == 'n':
		return bytes.HasPrefix(b[i:], []byte("true")) || bytes.HasPrefix(b[i:], []byte("false")) || bytes.HasPrefix(b[i:], []byte("null"))
	}
	return false
}

// decodeText parses pasted kubectl text (describe output, tables, phrases in prose). Text has
// no syntax to violate, so it never fails as malformed; an input that ends mid-object is
// reported through Options.OnTruncated.
func (d *Decoder) decodeText(ctx context.Context, name string, r io.Reader, emit func(*cluster.Object) error) error {
	res, err := text.Parse(ctx, name, r, d.opts.Now, func(o *cluster.Object) error {
		if err := textFault(o); err != nil {
			return err
		}
		redactObject(o)
		return emit(o)
	})
	if err != nil {
		return err
	}
	if res.Truncated && d.opts.OnTruncated != nil {
		d.opts.OnTruncated(name)
	}
	switch {
	case res.Objects == 0 && res.Prose:
		return &Error{File: name, Msg: "prose without kubectl output: no Kubernetes message found in it", Err: ErrUnsupported, Prose: true, Document: true}
	case res.Objects == 0:
		return &Error{File: name, Msg: "no Kubernetes message found: text that holds no kubectl output, log line or message of a Kubernetes component Rootline knows", Err: ErrUnsupported, Prose: true}
	}
	return nil
}
