package server

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"path"
	"sort"
	"strings"
)

// spooledFile is one uploaded file, written to a temporary file while its hash is computed,
// so that the upload is received whole (and its size checked) before the database is touched:
// a slow client never holds a transaction open.
type spooledFile struct {
	name   string
	path   string
	sha256 string
	size   int64
}

// spool holds an upload's files and form fields.
type spool struct {
	files  []spooledFile
	fields map[string]string
	dir    string
	empty  []string // files that held nothing: listed as skipped, as analyze lists them
}

func (sp *spool) remove() {
	if sp.dir != "" {
		_ = os.RemoveAll(sp.dir)
	}
}

// total is the number of bytes received.
func (sp *spool) total() int64 {
	var n int64
	for _, f := range sp.files {
		n += f.size
	}
	return n
}

// digest identifies the upload: the SHA-256 of the bytes for one file, and for several the
// SHA-256 over the files' own hashes in name order, so the same files give the same snapshot
// whichever order they are sent in, and one file is the same snapshot sent either way.
func (sp *spool) digest() string {
	if len(sp.files) == 1 {
		return sp.files[0].sha256
	}
	h := sha256.New()
	for _, f := range sp.files {
		b, _ := hex.DecodeString(f.sha256)
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// maxParts bounds the number of files in one multipart upload.
const maxParts = 1000

// receive spools the request body into a new folder under dir (the server's spool; "" is the
// system's temporary folder): a multipart form with file parts (and small text fields), or a
// single body named by ?name=, Content-Disposition, or "upload". The body is limited to limit
// bytes; exceeding it fails with *http.MaxBytesError.
//
// check, if not nil, is run on the form's fields before its first file is read (and at the
// end, for a form without files): the form token of the upload page.
func receive(w http.ResponseWriter, r *http.Request, dir string, limit int64, check func(fields map[string]string) error) (*spool, error) {
	dir, err := os.MkdirTemp(dir, "upload-")
	if err != nil {
		return nil, fmt.Errorf("spool: %w", err)
	}
	sp := &spool{dir: dir, fields: map[string]string{}}
	body := http.MaxBytesReader(w, r.Body, limit)
	ok := false
	defer func() {
		if !ok {
			sp.remove()
		}
	}()
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if strings.HasPrefix(mt, "multipart/") {
		if err := sp.receiveMultipart(multipart.NewReader(body, params["boundary"]), check); err != nil {
			return nil, err
		}
	} else {
		if check != nil {
			if err := check(sp.fields); err != nil {
				return nil, err
			}
		}
		name := r.URL.Query().Get("name")
		if name == "" {
			if _, p, err := mime.ParseMediaType(r.Header.Get("Content-Disposition")); err == nil {
				name = p["filename"]
			}
		}
		if err := sp.add(cleanName(name, "upload"), body); err != nil {
			return nil, err
		}
	}
	sort.Slice(sp.files, func(i, j int) bool { return sp.files[i].name < sp.files[j].name })
	ok = true
	return sp, nil
}

func (sp *spool) receiveMultipart(mr *multipart.Reader, check func(map[string]string) error) error {
	seen := map[string]bool{}
	checked := check == nil
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			if !checked {
				return check(sp.fields)
			}
			return nil
		}
		if err != nil {
			var mbe *http.MaxBytesError
			var he *httpError
			switch {
			case errors.As(err, &mbe):
				return err
			case errors.As(err, &he):
				return he
			}
			return &httpError{Status: http.StatusUnprocessableEntity, Msg: "malformed multipart body: " + err.Error()}
		}
		if part.FileName() == "" { // a form field
			v, err := io.ReadAll(io.LimitReader(part, 4096))
			if err != nil {
				return err
			}
			sp.fields[part.FormName()] = strings.TrimSpace(string(v))
			continue
		}
		if !checked {
			if err := check(sp.fields); err != nil {
				return err
			}
			checked = true
		}
		if len(sp.files) >= maxParts {
			return errStatus(http.StatusRequestEntityTooLarge, fmt.Sprintf("more than %d files in one upload", maxParts))
		}
		name := cleanName(part.FileName(), fmt.Sprintf("file-%d", len(sp.files)+1))
		for base, n := name, 2; seen[name]; n++ {
			name = fmt.Sprintf("%s~%d", base, n)
		}
		seen[name] = true
		if err := sp.add(name, part); err != nil {
			return err
		}
	}
}

// spoolBuffer is the size of the writes to a spooled file.
const spoolBuffer = 256 << 10

// add writes one file to the spool, hashing it on the way.
func (sp *spool) add(name string, r io.Reader) error {
	f, err := os.CreateTemp(sp.dir, "part-")
	if err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	// A multipart part reads a few KiB at a time: buffered, the spool is written in large
	// writes rather than one system call for each (45,000 for a 175 MB upload).
	bw := bufio.NewWriterSize(f, spoolBuffer)
	n, err := io.Copy(io.MultiWriter(bw, h), r)
	if err == nil {
		err = bw.Flush()
	}
	if pe := (*os.PathError)(nil); errors.As(err, &pe) && pe.Op == "write" {
		// Writing the spool failed, not reading the client: a full disk (507) or worse (500),
		// the server's to fix and to log, and no path of it in the answer.
		return fmt.Errorf("spool: %w", err)
	}
	if err != nil {
		var mbe *http.MaxBytesError
		var he *httpError
		switch {
		case errors.As(err, &mbe):
			return err
		case errors.As(err, &he): // the body came too slowly (408)
			return he
		}
		return &httpError{Status: http.StatusBadRequest, Msg: "reading the upload failed: " + err.Error(), Err: err}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	if n == 0 {
		sp.empty = append(sp.empty, name) // it adds nothing; an upload of nothing at all is refused later
		return nil
	}
	sp.files = append(sp.files, spooledFile{name: name, path: f.Name(), sha256: hex.EncodeToString(h.Sum(nil)), size: n})
	return nil
}

// cleanName keeps the base name of a client-supplied file name, printable and short.
func cleanName(name, fallback string) string {
	name = path.Base(strings.ReplaceAll(name, "\\", "/"))
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, name)
	if name == "." || name == "/" || name == "" {
		return fallback
	}
	if len(name) > 200 {
		name = name[:200]
	}
	return name
}
