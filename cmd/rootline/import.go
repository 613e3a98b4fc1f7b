package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
)

func newImportCmd() *cobra.Command {
	var database string
	cmd := &cobra.Command{
		Use:   "import PATH…",
		Short: "Import incident reports (Markdown with YAML front matter) into the database",
		Long: `Import incident reports in the library's Markdown format (README, "The incident library")
into the library. PATH may be files or folders (read recursively for .md files; README.md is
skipped). Every report is read first: one that does not parse stops the import before anything
is stored, naming the file and line. The reports are then stored in one transaction: all of
them, or none. Importing a report again updates its incident; its notes are added once, and no
note is removed; nothing is duplicated. An export (rootline export) imports back to the same
incidents.

Exit codes: 0 imported, 1 a report that does not parse or a database error, 2 wrong usage.`,
		Example: "  rootline import examples/incidents\n  rootline import --database postgres://postgres@127.0.0.1/rootline IL-0070.md",
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			database = databaseFlag(cmd, database)
			return importReports(cmd.Context(), database, args, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&database, "database", config.DefaultDatabase, "SQLite file, sqlite://PATH, or postgres:// URL (env ROOTLINE_DATABASE)")
	return cmd
}

func importReports(ctx context.Context, database string, paths []string, out io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	files, err := reportFiles(paths)
	if err != nil {
		return &exitError{exitFailure, err}
	}
	reports := make([]incident.Report, 0, len(files))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return &exitError{exitFailure, err}
		}
		r, err := incident.ParseReport(f, data, analysis.SymptomKinds, analysis.CauseKinds)
		if err != nil {
			return &exitError{exitFailure, err}
		}
		reports = append(reports, r)
	}
	st, err := openStore(ctx, database)
	if err != nil {
		return err
	}
	defer st.Close()
	var progress func(int)
	if len(reports) > 1000 { // a large library: say how far it got, on stderr
		progress = func(done int) { fmt.Fprintf(os.Stderr, "\rstored %d of %d reports", done, len(reports)) }
		defer fmt.Fprintln(os.Stderr)
	}
	isNew, err := st.ImportReports(ctx, reports, progress)
	if err != nil {
		return &exitError{exitFailure, err}
	}
	created := 0
	for _, n := range isNew {
		if n {
			created++
		}
	}
	fmt.Fprintf(out, "imported %d report(s): %d new, %d updated\n", len(reports), created, len(reports)-created)
	return nil
}

// reportFiles lists the report files named and the .md files below the folders named.
func reportFiles(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			out = append(out, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(strings.ToLower(d.Name()), ".md") && !strings.EqualFold(d.Name(), "README.md") {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	if len(out) == 0 {
		return nil, errors.New("no .md reports found")
	}
	return out, nil
}

// openStore opens and migrates the database of a command that works on it directly (import,
// export); errors carry the command's exit code.
// databaseFlag is the --database value, or ROOTLINE_DATABASE when the flag was not given.
func databaseFlag(cmd *cobra.Command, database string) string {
	if !cmd.Flags().Changed("database") {
		if v := os.Getenv("ROOTLINE_DATABASE"); v != "" {
			return v
		}
	}
	return database
}

func openStore(ctx context.Context, database string) (*store.Store, error) {
	target, err := store.ParseTarget(database)
	if err != nil {
		return nil, usageError{err}
	}
	st, err := store.Open(ctx, target, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return nil, &exitError{exitFailure, err}
	}
	if err := st.Migrate(ctx); err != nil {
		st.Close()
		return nil, &exitError{exitFailure, err}
	}
	return st, nil
}
