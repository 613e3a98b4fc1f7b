// Package apiclient calls Rootline's HTTP API (docs/api.md) from Go: the client `rootline
// upload` uses, and the one a Go program that sends evidence to a Rootline server would import.
// Its errors say what failed, for the caller to map (the CLI maps them to its exit codes): the
// server could not be reached (*UnreachableError), it refused (*StatusError), or its answer
// was not what the API returns (*AnswerError); any other error is the caller's own (a request
// that cannot be built, a file that cannot be read).
package apiclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
)

// maxAnswer bounds the bytes read of an answer.
const maxAnswer = 16 << 20

// Client calls the API of the server at Base (http://HOST:PORT, with no trailing slash),
// authorised by Token when it is set.
type Client struct {
	Base  string
	Token string
	HTTP  *http.Client
}

// UnreachableError is a request that got no whole answer: the server could not be reached,
// or its answer could not be read.
type UnreachableError struct {
	Base    string
	Reading bool // the answer began but could not be read
	Err     error
}

func (e *UnreachableError) Error() string {
	if e.Reading {
		return fmt.Sprintf("reading the answer of %s: %v", e.Base, e.Err)
	}
	return fmt.Sprintf("cannot reach %s: %v", e.Base, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// StatusError is an answer of status 300 or above: Msg is the API's error message, or the
// body when it gave none.
type StatusError struct {
	Code   int
	Status string // "422 Unprocessable Entity"
	Msg    string
}

func (e *StatusError) Error() string { return fmt.Sprintf("server answered %s: %s", e.Status, e.Msg) }

// AnswerError is an answer of success that is not what the API answers.
type AnswerError struct {
	Base string
	Err  error
}

func (e *AnswerError) Error() string {
	return fmt.Sprintf("unexpected answer from %s: %v", e.Base, e.Err)
}

func (e *AnswerError) Unwrap() error { return e.Err }

// Do sends a request to path (with its query) and decodes the JSON answer into out.
func (c *Client) Do(ctx context.Context, method, path, contentType string, body io.Reader, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, c.Base+path, body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Accept", "application/json")
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) { // the body's file, not the server
			return err
		}
		return &UnreachableError{Base: c.Base, Err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return &UnreachableError{Base: c.Base, Reading: true, Err: err}
	}
	if resp.StatusCode >= 300 {
		var e struct {
			Error string `json:"error"`
		}
		msg := strings.TrimSpace(string(data))
		if json.Unmarshal(data, &e) == nil && e.Error != "" {
			msg = e.Error
		}
		return &StatusError{Code: resp.StatusCode, Status: resp.Status, Msg: msg}
	}
	if err := json.Unmarshal(data, out); err != nil {
		return &AnswerError{Base: c.Base, Err: err}
	}
	return nil
}

// Upload is a snapshot to store (POST /api/v1/incidents/{id}/snapshots).
type Upload struct {
	Incident string // the incident's ID
	Create   bool   // create the incident, titled Title, with the snapshot
	Title    string
	Cluster  string // the cluster the evidence is from; empty: the server's default
	Name     string // the file's name, for a body of one file
	// Body and ContentType are the files: one file's bytes (application/octet-stream), or a
	// multipart form of several (Body).
	Body        io.Reader
	ContentType string
}

// UploadSnapshot stores a snapshot and returns the server's answer as it came (Snapshot
// reads it).
func (c *Client) UploadSnapshot(ctx context.Context, u Upload) (json.RawMessage, error) {
	q := url.Values{}
	if u.Create {
		q.Set("create", "true")
		q.Set("title", u.Title)
	}
	if u.Cluster != "" {
		q.Set("cluster", u.Cluster)
	}
	if u.Name != "" {
		q.Set("name", u.Name)
	}
	path := "/api/v1/incidents/" + url.PathEscape(u.Incident) + "/snapshots"
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	var raw json.RawMessage
	err := c.Do(ctx, http.MethodPost, path, u.ContentType, u.Body, &raw)
	return raw, err
}

// Snapshot is the answer to an upload.
type Snapshot struct {
	Snapshot string         `json:"snapshot"`
	Incident string         `json:"incident"`
	Created  bool           `json:"created"`
	Cluster  string         `json:"cluster"`
	Objects  map[string]int `json:"objects"`
	Existing bool           `json:"existing"`
	Skipped  []Skipped      `json:"skipped"`
}

// Skipped is an entry of an answer's skipped list: an object, or a file (kind FileKind)
// skipped or stored truncated.
type Skipped struct {
	File, Kind, Namespace, Name, Reason string
	Line                                int
	Truncated                           bool
}

// FileKind is the kind of a skipped entry that is a file (ingest.FileKind).
const FileKind = "File"

// IsFile reports whether the entry is a file, not an object.
func (s Skipped) IsFile() bool { return s.Kind == FileKind }

// File is a file to upload: its name, and how to read it.
type File struct {
	Name string
	Open func() (io.ReadCloser, error)
}

// Body streams files as an upload's body: one file as the body itself, several as the parts
// of a multipart form. What is sent is also written to progress when it is not nil.
func Body(files []File, progress io.Writer) (body io.Reader, contentType string) {
	pr, pw := io.Pipe()
	var dst io.Writer = pw
	if progress != nil {
		dst = io.MultiWriter(pw, progress)
	}
	if len(files) == 1 {
		go func() { pw.CloseWithError(copyFile(dst, files[0])) }()
		return pr, "application/octet-stream"
	}
	mw := multipart.NewWriter(pw)
	go func() {
		for _, f := range files {
			part, err := mw.CreateFormFile("file", f.Name)
			if err != nil {
				pw.CloseWithError(err)
				return
			}
			w := part
			if progress != nil {
				w = io.MultiWriter(part, progress)
			}
			if err := copyFile(w, f); err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.CloseWithError(mw.Close())
	}()
	return pr, mw.FormDataContentType()
}

func copyFile(w io.Writer, f File) error {
	r, err := f.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = io.Copy(w, r)
	return err
}
