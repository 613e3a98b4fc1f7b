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
	"github.com/rootline-dev/rootline/internal/report/export"
)

func newExportCmd() *cobra.Command {
	var database, out, id string
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write the library, or one incident, as Markdown reports",
		Long: `Write every incident of the library (or one, --incident) as a report in the library's
Markdown format (README, "The incident library"), one file per incident named <id>.md, into
--out. A report holds everything the incident is: its fields, date, time window, cluster and
tags, its text, its report's signature (and a person's, under edited), and its notes. The folder
imports back into the same library with rootline import. With --incident and no --out, the
report goes to standard output: the same bytes as GET /api/v1/incidents/ID/export?format=md.`,
		Example: "  rootline export --out library/\n  rootline export --incident IL-0070 > IL-0070.md",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			database = databaseFlag(cmd, database)
			if out == "" && id == "" {
				return usageError{fmt.Errorf("--out DIR is required (or --incident ID, to write one report to standard output)")}
			}
			return exportReports(cmd.Context(), database, id, out, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&database, "database", config.DefaultDatabase, "SQLite file, sqlite://PATH, or postgres:// URL (env ROOTLINE_DATABASE)")
	cmd.Flags().StringVar(&out, "out", "", "folder to write the reports into (created if missing); with --incident and without it, standard output")
	cmd.Flags().StringVar(&id, "incident", "", "export only this incident")
	return cmd
}

// exportReports writes the reports of the library, or of incident id, into the folder out; one
// incident without a folder goes to stdout. Reports are made by export.Report, as the
// API's export, so that both give the same bytes.
func exportReports(ctx context.Context, database, id, out string, stdout io.Writer) error {
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
		if ids, err = st.IncidentIDs(ctx); err != nil {
			return &exitError{exitFailure, err}
		}
	}
	if out == "" {
		r, err := export.Report(ctx, st, id, nil)
		if err != nil {
			return &exitError{exitFailure, err}
		}
		if err := r.WriteMarkdown(stdout); err != nil {
			return &exitError{exitFailure, err}
		}
		return nil
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return &exitError{exitFailure, err}
	}
	for _, id := range ids {
		r, err := export.Report(ctx, st, id, nil)
		if err != nil {
			return &exitError{exitFailure, err}
		}
		if err := writeReport(filepath.Join(out, id+".md"), r); err != nil {
			return &exitError{exitFailure, err}
		}
	}
	fmt.Fprintf(stdout, "wrote %d report(s) to %s\n", len(ids), out)
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
