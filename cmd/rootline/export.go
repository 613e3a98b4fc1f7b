package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
)

func newExportCmd() *cobra.Command {
	var database, out, id string
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write the library, or one incident, as Markdown reports",
		Long: `Write every incident of the library (or one, --incident) as a report in the Markdown format of
CONTRACT.md, one file per incident named <id>.md, into --out. The folder imports back into the
same library with rootline import.`,
		Example: "  rootline export --out library/\n  rootline export --incident IL-0070 --out .",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			database = databaseFlag(cmd, database)
			if out == "" {
				return usageError{fmt.Errorf("--out DIR is required")}
			}
			return exportReports(cmd.Context(), database, id, out, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&database, "database", config.DefaultDatabase, "SQLite file, sqlite://PATH, or postgres:// URL (env ROOTLINE_DATABASE)")
	cmd.Flags().StringVar(&out, "out", "", "folder to write the reports into (created if missing)")
	cmd.Flags().StringVar(&id, "incident", "", "export only this incident")
	return cmd
}

func exportReports(ctx context.Context, database, id, out string, w io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	st, err := openStore(ctx, database)
	if err != nil {
		return err
	}
	defer st.Close()
	ids := []string{id}
	if id == "" {
		list, err := st.Incidents(ctx, store.IncidentFilter{Limit: 1000})
		if err != nil {
			return &exitError{exitFailure, err}
		}
		ids = ids[:0]
		for _, in := range list {
			ids = append(ids, in.ID)
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return &exitError{exitFailure, err}
	}
	for _, id := range ids {
		r, err := st.Report(ctx, id)
		if err != nil {
			return &exitError{exitFailure, err}
		}
		if err := writeReport(filepath.Join(out, id+".md"), r); err != nil {
			return &exitError{exitFailure, err}
		}
	}
	fmt.Fprintf(w, "wrote %d report(s) to %s\n", len(ids), out)
	return nil
}

// writeReport writes a report through a temporary file, so that a failure leaves no half file.
func writeReport(path string, r incident.Report) error {
	var b bytes.Buffer
	if err := r.WriteMarkdown(&b); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
