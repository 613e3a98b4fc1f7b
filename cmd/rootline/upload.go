package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/rootline-dev/rootline/internal/apiclient"
	"github.com/rootline-dev/rootline/internal/incident"
)

type uploadOptions struct {
	server   string
	incident string
	cluster  string
	token    string
	title    string
	asJSON   bool
	progress bool
}

func newUploadCmd() *cobra.Command {
	var o uploadOptions
	cmd := &cobra.Command{
		Use:   "upload PATH…",
		Short: "Send kubectl output to a Rootline server",
		Long: `Send kubectl output (JSON, YAML, JSON Lines, describe output and tables, and gzip or tar
archives of them) to a Rootline server as one snapshot of an incident. PATH may be files or
folders; from folders, read recursively, every file is sent but hidden ones and symbolic links.
Of several files, the server reads each as ` + "`rootline analyze`" + ` reads a folder's: one it
cannot read (a README, a binary) is skipped, and a truncated one is stored as far as it goes;
both are printed on stderr with the reason. A file sent alone must be readable (a truncated one
is stored as far as it goes).

Without --incident a new incident is created with the snapshot (titled by --title); an upload
the server refuses creates none, and files already stored go to the incident that holds them,
so sending the same folder twice makes one incident. Of a folder, a README or notes (Markdown,
README.txt, NOTES) are what people wrote: read for their claims only, never as evidence.
Sending the same files again is harmless: the server answers with the stored snapshot.
Its last line on stdout is the address of the incident's page (--server and /incidents/ID),
to open in a browser (with --json, the server's answer alone).

Exit codes: 0 stored (or already stored), 1 a local problem (unreadable file),
2 wrong usage, 3 server unreachable, 4 input refused by the server, 5 server error.`,
		Example: `  rootline upload --incident IL-0070 --cluster leap nodes.json pods.json events.json
  kubectl get events -A -o json | rootline upload --incident IL-0070 -`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.token == "" {
				o.token = os.Getenv("ROOTLINE_TOKEN")
			}
			if !cmd.Flags().Changed("server") && os.Getenv("ROOTLINE_SERVER") != "" {
				o.server = os.Getenv("ROOTLINE_SERVER")
			}
			o.progress = term.IsTerminal(int(os.Stderr.Fd()))
			return upload(cmd.Context(), o, args, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.server, "server", "http://127.0.0.1:8080", "Rootline server URL (env ROOTLINE_SERVER)")
	f.StringVar(&o.incident, "incident", "", "incident to attach the snapshot to (default: create one)")
	f.StringVar(&o.cluster, "cluster", "", "name of the cluster the output comes from")
	f.StringVar(&o.token, "token", "", "API token (env ROOTLINE_TOKEN)")
	f.StringVar(&o.title, "title", "", "title of the incident created when --incident is not given")
	f.BoolVar(&o.asJSON, "json", false, "print the server's JSON answer")
	return cmd
}

// uploadFile is a file to send; path "-" is standard input.
type uploadFile struct {
	path string
	name string
	size int64
}

// collectFiles expands the arguments: files as given, folders recursed as analyze does
// (folderFiles: no hidden files, no symbolic links, which are noted on stderr).
func collectFiles(args []string, stderr io.Writer) ([]uploadFile, error) {
	var out []uploadFile
	for _, a := range args {
		if a == "-" {
			out = append(out, uploadFile{path: "-", name: "stdin"})
			continue
		}
		info, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			out = append(out, uploadFile{path: a, name: filepath.Base(a), size: info.Size()})
			continue
		}
		files, links, err := folderFiles(a)
		if err != nil {
			return nil, err
		}
		for _, l := range links {
			fmt.Fprintf(stderr, "skipped %s: %s\n", l, notFollowed)
		}
		for _, p := range files {
			info, err := os.Stat(p)
			if err != nil {
				return nil, err
			}
			rel, _ := filepath.Rel(a, p)
			out = append(out, uploadFile{path: p, name: filepath.ToSlash(rel), size: info.Size()})
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no files to upload (hidden files and symbolic links in folders are left out)")
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

func upload(ctx context.Context, o uploadOptions, args []string, stdout, stderr io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	base, err := url.Parse(strings.TrimSuffix(o.server, "/"))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return usageError{fmt.Errorf("--server %q: use http://HOST:PORT or https://HOST", o.server)}
	}
	files, err := collectFiles(args, stderr)
	if err != nil {
		return &exitError{exitFailure, err}
	}
	c := &apiclient.Client{Base: base.String(), Token: o.token, HTTP: &http.Client{Timeout: 30 * time.Minute}}
	up := apiclient.Upload{Incident: o.incident, Cluster: o.cluster}
	if o.incident == "" {
		// The server creates the incident with the snapshot, in one transaction: an upload it
		// refuses leaves no empty incident behind.
		title := o.title
		if title == "" {
			title = "Upload of " + uploadName(args, files) + " at " + time.Now().UTC().Format("2006-01-02 15:04 UTC")
		}
		up.Incident, up.Create, up.Title = incident.NewID(time.Now()), true, title
	}
	var total int64
	for _, f := range files {
		total += f.size
	}
	var bar *progressbar.ProgressBar
	var progress io.Writer
	if o.progress && total >= 1<<20 {
		bar = progressbar.DefaultBytes(total, "uploading")
		progress = bar
	}
	up.Body, up.ContentType = apiclient.Body(bodyFiles(files), progress)
	if len(files) == 1 {
		up.Name = files[0].name
	}
	raw, err := c.UploadSnapshot(ctx, up)
	if bar != nil {
		_ = bar.Finish()
		fmt.Fprintln(stderr)
	}
	if err != nil {
		return apiExit(err)
	}
	var answer struct {
		Incident string `json:"incident"`
		Created  bool   `json:"created"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil || answer.Incident == "" {
		return &exitError{exitServerError, fmt.Errorf("unexpected answer from %s: no incident in %.200s", c.Base, raw)}
	}
	if answer.Created {
		fmt.Fprintf(stderr, "created incident %s\n", answer.Incident)
	}
	if o.asJSON {
		if _, err := fmt.Fprintln(stdout, string(raw)); err != nil {
			return err
		}
		return printFileNotes(stderr, raw)
	}
	if err := printSummary(stdout, raw); err != nil {
		return err
	}
	// The page to open next: the server's address as it was given, and the incident's path.
	if _, err := fmt.Fprintln(stdout, incidentURL(base, answer.Incident)); err != nil {
		return err
	}
	return printFileNotes(stderr, raw)
}

// incidentURL is the address of an incident's page on the server at base.
func incidentURL(base *url.URL, id string) string {
	u := *base
	u.Path = strings.TrimSuffix(u.Path, "/") + "/incidents/" + url.PathEscape(id)
	u.RawPath, u.RawQuery, u.Fragment = "", "", ""
	return u.String()
}

// uploadName names what is uploaded, for the title of the incident it creates: the folder
// when one is given alone ("evicted", not the README that sorts first in it), else the first
// file.
func uploadName(args []string, files []uploadFile) string {
	if len(args) == 1 && args[0] != "-" {
		if info, err := os.Stat(args[0]); err == nil && info.IsDir() {
			if abs, err := filepath.Abs(args[0]); err == nil {
				return filepath.Base(abs)
			}
		}
	}
	return files[0].name
}

// bodyFiles are the files to upload as the API client reads them; "-" is standard input.
func bodyFiles(files []uploadFile) []apiclient.File {
	out := make([]apiclient.File, len(files))
	for i, f := range files {
		open := func() (io.ReadCloser, error) { return os.Open(f.path) }
		if f.path == "-" {
			open = func() (io.ReadCloser, error) { return io.NopCloser(os.Stdin), nil }
		}
		out[i] = apiclient.File{Name: f.name, Open: open}
	}
	return out
}

// apiExit is the exit an error of the API client ends the command with: the server could
// not be reached, refused the upload (a server error or not), or answered what the API does
// not; anything else failed here.
func apiExit(err error) error {
	var (
		se *apiclient.StatusError
		ue *apiclient.UnreachableError
		ae *apiclient.AnswerError
	)
	switch {
	case errors.As(err, &se) && se.Code >= 500:
		return &exitError{exitServerError, err}
	case errors.As(err, &se):
		return &exitError{exitRejected, err}
	case errors.As(err, &ue):
		return &exitError{exitUnreachable, err}
	case errors.As(err, &ae):
		return &exitError{exitServerError, err}
	}
	return &exitError{exitFailure, err}
}

// printSummary prints what was stored, and the objects skipped.
func printSummary(w io.Writer, raw []byte) error {
	var resp apiclient.Snapshot
	if err := json.Unmarshal(raw, &resp); err != nil {
		return fmt.Errorf("unexpected answer from the server: %w", err)
	}
	state := "stored"
	if resp.Existing {
		state = "already stored"
	}
	kinds := make([]string, 0, len(resp.Objects))
	for k := range resp.Objects {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%d %s", resp.Objects[k], k)
	}
	fmt.Fprintf(w, "snapshot %s %s for incident %s (cluster %s): %s\n", short(resp.Snapshot), state, resp.Incident, resp.Cluster, strings.Join(parts, ", "))
	for _, s := range resp.Skipped {
		if !s.IsFile() {
			fmt.Fprintf(w, "  skipped %s %s/%s: %s\n", s.Kind, s.Namespace, s.Name, s.Reason)
		}
	}
	return nil
}

// printFileNotes prints the files the server skipped or stored truncated, as analyze prints
// them: "skipped README.md: …", "truncated pods.json:120: …".
func printFileNotes(w io.Writer, raw []byte) error {
	var resp apiclient.Snapshot
	if err := json.Unmarshal(raw, &resp); err != nil {
		return fmt.Errorf("unexpected answer from the server: %w", err)
	}
	for _, s := range resp.Skipped {
		if !s.IsFile() {
			continue
		}
		what, pos := "skipped", s.File
		if s.Truncated {
			what = "truncated"
		}
		if s.Line > 0 {
			pos = fmt.Sprintf("%s:%d", s.File, s.Line)
		}
		fmt.Fprintf(w, "%s %s: %s\n", what, pos, s.Reason)
	}
	return nil
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
