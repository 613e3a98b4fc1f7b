package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/ingest/text"
)

func newAnalyzeCmd() *cobra.Command {
	var (
		format   string
		now      string
		ttl      time.Duration
		critical []string
	)
	cmd := &cobra.Command{
		Use:   "analyze PATH…",
		Short: "Analyse kubectl output offline: symptoms, causes, evidence, gaps",
		Long: `Analyse kubectl output without a server or a database. PATH may be files or folders
(read recursively). Prints the symptoms found, the causes that explain them and the evidence
that is missing, for people (--format text) or as JSON (--format json, the schema of the API's
/analysis endpoint).

Exit codes: 0 analysed, 1 unreadable input (the message names the file and position),
2 wrong usage.`,
		Example: `  rootline analyze incident-folder/
  rootline analyze --format json nodes.json pods.json events.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return usageError{fmt.Errorf("--format %q: use text or json", format)}
			}
			opts := analysis.Options{EventTTL: ttl, CriticalComponents: critical}
			if now != "" {
				t, err := time.Parse(time.RFC3339, now)
				if err != nil {
					return usageError{fmt.Errorf("--captured-at %q: use RFC 3339, e.g. 2023-02-01T18:30:00Z", now)}
				}
				opts.Now = t.UTC()
			}
			rep, err := analyzePaths(cmd.Context(), args, opts, cmd.ErrOrStderr())
			if err != nil {
				return &exitError{exitFailure, err}
			}
			if format == "json" {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			out := cmd.OutOrStdout()
			color := false
			if f, ok := out.(*os.File); ok && os.Getenv("NO_COLOR") == "" {
				color = term.IsTerminal(int(f.Fd()))
			}
			return analysis.WriteText(out, rep, analysis.TextOptions{Color: color})
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "text (for people) or json")
	cmd.Flags().StringVar(&now, "captured-at", "", "when the output was captured (RFC 3339), to judge which events had expired; default: the latest time it records")
	cmd.Flags().DurationVar(&ttl, "event-ttl", analysis.DefaultEventTTL, "the API server's event retention (kube-apiserver --event-ttl)")
	cmd.Flags().StringSliceVar(&critical, "critical", nil, "component kinds whose pods are critical, besides system-priority pods (default Hub,Proxy,Ingress,DNS,Autoscaler,Scheduler)")
	return cmd
}

// analyzePaths decodes every file under the paths into one model and analyses it. A file
// named on the command line must be readable; a file found in a folder that is not in a format
// Rootline reads (a README, a screenshot) is skipped with a note on stderr and in the gaps.
func analyzePaths(ctx context.Context, paths []string, opts analysis.Options, stderr io.Writer) (analysis.Report, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	files, err := expandPaths(paths)
	if err != nil {
		return analysis.Report{}, err
	}
	// Every object decoded is kept for the analysis, and decoding leaves about as much garbage
	// behind, so with the collector's default pacing the heap grew to twice what was live,
	// half as much again as the input (issue 7). A soft limit of the input's size has the
	// collector run more often once the heap comes near it, and only then.
	if limit := max(inputSize(files), minMemoryLimit); limit < debug.SetMemoryLimit(-1) {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
	}
	var (
		objs    []*cluster.Object
		read    []string
		skipped []analysis.Gap
	)
	dec := ingest.NewDecoder(ingest.Options{MaxBytes: 4 << 30})
	for _, f := range files {
		r, err := os.Open(f.path)
		if err != nil {
			return analysis.Report{}, err
		}
		var got []*cluster.Object
		err = dec.Decode(ctx, f.path, r, func(o *cluster.Object) error {
			got = append(got, o)
			return nil
		})
		r.Close()
		if err != nil && !f.explicit && errors.Is(err, ingest.ErrUnsupported) {
			fmt.Fprintf(stderr, "skipped %v\n", err)
			skipped = append(skipped, analysis.Gap{Kind: "file_skipped", Summary: fmt.Sprintf("not read: %v", err)})
			continue
		}
		var ie *ingest.Error
		if errors.As(err, &ie) && ie.Truncated {
			// Analyse a cut file as far as it goes: the objects read whole, and the signal
			// phrases in the part that was cut.
			more, serr := salvage(ctx, f.path, got)
			if serr != nil {
				return analysis.Report{}, serr
			}
			got = append(got, more...)
			skipped = append(skipped, analysis.Gap{Kind: "file_truncated", Summary: fmt.Sprintf("%v: analysed up to there, and the phrases after the last whole object", err)})
			err = nil
		}
		if err != nil {
			return analysis.Report{}, err
		}
		objs = append(objs, got...)
		read = append(read, f.path)
	}
	rep := analysis.Run(cluster.NewModel(read, objs), opts)
	rep.Gaps = append(rep.Gaps, skipped...)
	return rep, nil
}

// minMemoryLimit is the least memory limit analyze sets, so that small inputs are not
// collected over and over for a few megabytes.
const minMemoryLimit = 64 << 20

// inputSize is the size of the files once decompressed: gzip records it (modulo 4 GiB) in
// its last four bytes.
func inputSize(files []inputFile) int64 {
	var total int64
	for _, f := range files {
		fi, err := os.Stat(f.path)
		if err != nil {
			continue // reported when the file is read
		}
		size := fi.Size()
		if r, err := os.Open(f.path); err == nil {
			var head [2]byte
			var tail [4]byte
			if _, err := r.ReadAt(head[:], 0); err == nil && head == [2]byte{0x1f, 0x8b} && size >= 18 {
				if _, err := r.ReadAt(tail[:], size-4); err == nil {
					size = max(size, int64(binary.LittleEndian.Uint32(tail[:])))
				}
			}
			r.Close()
		}
		total += size
	}
	return total
}

// salvage reads a truncated file as text and keeps the signal phrases found after the last
// object that was read whole.
func salvage(ctx context.Context, path string, whole []*cluster.Object) ([]*cluster.Object, error) {
	after := 0
	for _, o := range whole {
		after = max(after, o.Source.Line)
	}
	r, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var out []*cluster.Object
	_, err = text.Parse(ctx, path, r, time.Time{}, func(o *cluster.Object) error {
		if o.Event != nil && o.Event.Annotations[text.LoosePhraseAnnotation] == "true" && o.Source.Line > after {
			out = append(out, o)
		}
		return nil
	})
	return out, err
}

// inputFile is a file to analyse; explicit when named on the command line.
type inputFile struct {
	path     string
	explicit bool
}

// expandPaths lists the files named, and the files below the folders named, sorted within
// each folder; hidden files are left out of folders.
func expandPaths(paths []string) ([]inputFile, error) {
	var out []inputFile
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			out = append(out, inputFile{path: p, explicit: true})
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if strings.HasPrefix(d.Name(), ".") && path != p {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.IsDir() {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		for _, f := range found {
			out = append(out, inputFile{path: f})
		}
	}
	return out, nil
}
