package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/analysis/rules"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/inputsize"
	"github.com/rootline-dev/rootline/internal/report"
)

func newAnalyzeCmd() *cobra.Command {
	var (
		format   string
		now      string
		ttl      time.Duration
		critical []string
		all      bool
	)
	cmd := &cobra.Command{
		Use:   "analyze PATH…",
		Short: "Analyse kubectl output offline: symptoms, causes, evidence, gaps",
		Long: `Analyse kubectl output without a server or a database. PATH may be files or folders
(read recursively). Prints the causal chain from the root cause to the symptoms, the causes with
their evidence and the changes the evidence points to, the symptoms as groups (worst first) and
the evidence that is missing, for people (--format text) or as JSON (--format json, the schema
of the API's /analysis endpoint, with every member of every group).

The text of a large incident shows its worst symptom groups and says how many more there are;
--all lists every group with every member, every gap and every change.

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
			// The memory limits analyze sets hold until the report is written: writing it
			// allocates, and without a limit the collector let the heap grow to twice what was
			// live (about 35 MB more at 20,000 pods).
			defer keepMemoryLimit()()
			rep, err := analyzeUnderLimit(cmd.Context(), args, opts, cmd.ErrOrStderr(), true)
			if err != nil {
				return &exitError{exitFailure, err}
			}
			if format == "json" {
				return report.WriteJSON(cmd.OutOrStdout(), rep)
			}
			out := cmd.OutOrStdout()
			color := false
			if f, ok := out.(*os.File); ok && os.Getenv("NO_COLOR") == "" {
				color = term.IsTerminal(int(f.Fd()))
			}
			return report.WriteText(out, rep, report.TextOptions{Color: color, All: all})
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "text (for people) or json")
	cmd.Flags().BoolVar(&all, "all", false, "text: list every symptom group with every member, every gap and every change")
	cmd.Flags().StringVar(&now, "captured-at", "", "when the output was captured (RFC 3339), to judge which events had expired; default: the latest time it records")
	cmd.Flags().DurationVar(&ttl, "event-ttl", analysis.DefaultEventTTL, "the API server's event retention (kube-apiserver --event-ttl)")
	cmd.Flags().StringSliceVar(&critical, "critical", nil, "component kinds whose pods are critical, besides system-priority pods (default Hub,Proxy,Ingress,DNS,Autoscaler,Scheduler)")
	return cmd
}

// analyzePaths decodes every file under the paths into one model and analyses it, through
// ingest's file policy, as the upload handler does: a file named on the command line must be
// readable; a file found in a folder that cannot be read (a README, a truth.json, a
// screenshot) is skipped, with a note on stderr and in the gaps; a truncated file is analysed
// as far as it goes and reported as a gap. A run where nothing at all could be read fails.
func analyzePaths(ctx context.Context, paths []string, opts analysis.Options, stderr io.Writer) (analysis.Report, error) {
	return analyzeDecoded(ctx, paths, opts, stderr, true)
}

// analyzeDecoded is analyzePaths, with pods and events decoded straight into what Rootline
// keeps of them (unstored, as rootline analyze does) or, as an upload decodes them, into the
// Kubernetes types first: the differential test compares the two.
func analyzeDecoded(ctx context.Context, paths []string, opts analysis.Options, stderr io.Writer, unstored bool) (analysis.Report, error) {
	defer keepMemoryLimit()()
	return analyzeUnderLimit(ctx, paths, opts, stderr, unstored)
}

// keepMemoryLimit returns what sets the process's soft memory limit back to what it is now.
func keepMemoryLimit() (restore func()) {
	limit := debug.SetMemoryLimit(-1)
	return func() { debug.SetMemoryLimit(limit) }
}

// analyzeUnderLimit is analyzeDecoded, lowering the soft memory limit as it goes (below) and
// leaving it there: the caller restores it (keepMemoryLimit) once it has done with the report.
func analyzeUnderLimit(ctx context.Context, paths []string, opts analysis.Options, stderr io.Writer, unstored bool) (analysis.Report, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	// The fast JSON decoders compile in the background while the files are found and opened;
	// the first items are decoded by encoding/json until they are ready.
	ingest.StartWarmUp()
	files, links, err := expandPaths(paths)
	if err != nil {
		return analysis.Report{}, err
	}
	// Every object decoded is kept for the analysis, and decoding leaves about as much garbage
	// behind, so with the collector's default pacing the heap grew to twice what was live
	// (issue 7). A soft limit has the collector run more often once the heap comes near it.
	// While decoding it is twice the input, which only stops the doubling (issue 16); once
	// decoded, it follows the model (below).
	if limit := max(2*inputSize(files), minMemoryLimit); limit < debug.SetMemoryLimit(-1) {
		debug.SetMemoryLimit(limit)
	}
	// While decoding, the collector runs each time the heap has grown by a quarter, not
	// doubled. Decoding leaves garbage among the objects it keeps (the strings, maps and slices
	// that the interner replaces with shared ones); what a collection frees is filled again by
	// the next objects kept, but what the last one frees stays as holes in the heap. At the
	// default pacing a quarter of the heap was holes once decoded (24 MiB at 20,000 pods,
	// /memory/classes/heap/unused); at a quarter, half as much, for no more CPU over the run
	// (the rules then collect less often).
	restorePacing := decodePacing()
	defer restorePacing()
	var (
		objs   []*cluster.Object
		read   []string
		gaps   []analysis.Gap
		unread []string
	)
	for _, l := range links {
		fmt.Fprintf(stderr, "skipped %s: %s\n", l, notFollowed)
		gaps = append(gaps, analysis.Gap{Kind: analysis.GapFileSkipped, Summary: fmt.Sprintf("not read: %s: %s", l, notFollowed)})
		unread = append(unread, l+": "+notFollowed)
	}
	dec := ingest.NewDecoder(ingest.Options{MaxBytes: 4 << 30, Unstored: unstored})
	keep := func(o *cluster.Object) error {
		objs = append(objs, o)
		return nil
	}
	for _, f := range files {
		r, err := os.Open(f.path)
		if err != nil {
			return analysis.Report{}, err
		}
		// MaxHeld zero: the objects of a folder's file are held until it is read to its end,
		// which costs nothing here, since every object is kept for the analysis anyway.
		res, err := dec.DecodeFile(ctx, ingest.File{Name: f.path, Content: r, Explicit: f.explicit}, keep)
		r.Close()
		if err != nil {
			return analysis.Report{}, err
		}
		switch res.Outcome {
		case ingest.FileSkipped:
			fmt.Fprintf(stderr, "skipped %s\n", res)
			gaps = append(gaps, analysis.Gap{Kind: analysis.GapFileSkipped, Summary: "not read: " + res.String()})
			unread = append(unread, res.String())
			continue
		case ingest.FileTruncated:
			fmt.Fprintf(stderr, "truncated %s\n", res)
			gaps = append(gaps, analysis.Gap{Kind: analysis.GapFileTruncated, Summary: res.String()})
		case ingest.FileRead:
			if res.Err != nil { // text named on purpose with nothing Rootline reads: read, nothing kept
				kind := analysis.GapFileNoMessage
				if ie := (*ingest.Error)(nil); errors.As(res.Err, &ie) && ie.Document {
					kind = analysis.GapFileProse
				}
				gaps = append(gaps, analysis.Gap{Kind: kind, Summary: res.String()})
			}
		}
		read = append(read, f.path)
	}
	if len(read) == 0 {
		if len(unread) == 0 {
			return analysis.Report{}, fmt.Errorf("no files to analyse in %s", strings.Join(paths, ", "))
		}
		return analysis.Report{}, fmt.Errorf("nothing could be read: %s", strings.Join(unread, "; "))
	}
	// Once decoded, what is live is what Rootline keeps of the objects (about half the input
	// at 20,000 pods), and the rules add about half as much again while they run: the limit
	// now follows the model, measured after a collection, rather than the input, so that the
	// report's garbage does not double the heap. The heap stays near the limit, so the limit is
	// most of the peak (modelLimitFactor).
	restorePacing()
	runtime.GC()
	if limit := max(int64(float64(liveHeap())*modelLimitFactor), minMemoryLimit); limit < debug.SetMemoryLimit(-1) {
		debug.SetMemoryLimit(limit)
	}
	rep := rules.Run(cluster.NewModel(read, objs), opts)
	rep.Gaps = append(rep.Gaps, gaps...)
	return rep, nil
}

// decodeGCPercent is the collector's pacing while analyze decodes (decodePacing).
const decodeGCPercent = 25

// modelLimitFactor is the soft memory limit once decoded, in times the live heap then. At
// 20,000 pods (issue 30): at 2 the collector took 0.7 s of CPU over the run; at 1.85, with the
// heap decoded at decodeGCPercent, 0.9 s, for 13 MB less peak; at 1.75, 4-5 MB less again
// for about 30% more CPU over the run, since the rules, which add about half the model while
// they run, then come within a fifth of the limit.
const modelLimitFactor = 1.85

// decodePacing sets the collector's pacing for decoding (decodeGCPercent), unless the
// process's is already lower or off (GOGC), and returns what sets it back; calling that again
// does nothing.
func decodePacing() (restore func()) {
	was := debug.SetGCPercent(decodeGCPercent)
	if was < decodeGCPercent {
		debug.SetGCPercent(was)
	}
	return sync.OnceFunc(func() { debug.SetGCPercent(was) })
}

// liveHeap is the heap the last garbage collection found live.
func liveHeap() uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}

// minMemoryLimit is the least memory limit analyze sets, so that small inputs are not
// collected over and over for a few megabytes.
const minMemoryLimit = 64 << 20

// inputSize is what the files are once read (inputsize.Decoded): decompressed, and pasted
// text as the objects it becomes, estimated as the server's memory budget estimates them.
func inputSize(files []inputFile) int64 {
	var total int64
	for _, f := range files {
		fi, err := os.Stat(f.path)
		if err != nil {
			continue // reported when the file is read
		}
		total += inputsize.Decoded(f.path, f.path, fi.Size(), 0)
	}
	return total
}

// inputFile is a file to analyse; explicit when named on the command line.
type inputFile struct {
	path     string
	explicit bool
}

// expandPaths lists the files named, and the files below the folders named (folderFiles);
// links are the symbolic links found in folders, which are not followed.
func expandPaths(paths []string) (files []inputFile, links []string, err error) {
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, nil, err
		}
		if !info.IsDir() {
			files = append(files, inputFile{path: p, explicit: true})
			continue
		}
		found, l, err := folderFiles(p)
		if err != nil {
			return nil, nil, err
		}
		for _, f := range found {
			files = append(files, inputFile{path: f})
		}
		links = append(links, l...)
	}
	return files, links, nil
}

// notFollowed is why a symbolic link in a folder is skipped.
const notFollowed = "a symbolic link, not followed"

// folderFiles lists the regular files below root, sorted, as analyze and upload both take
// them: hidden files and folders (.git, .DS_Store) are left out, and symbolic links are
// listed apart, in links, as they are not followed (a link could send a file from anywhere).
func folderFiles(root string) (files, links []string, err error) {
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && path != root {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			links = append(links, path)
		case d.Type().IsRegular():
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(files)
	sort.Strings(links)
	return files, links, nil
}
