package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/rootline-dev/rootline/internal/access"
	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/store"
)

func newTokenCmd() *cobra.Command {
	var database string
	cmd := &cobra.Command{
		Use:   "token",
		Short: "Create, list and revoke API tokens",
		Long: `Manage the API tokens that the API, the CLI and the collector send (Authorization: Bearer)
when the server runs with --auth on. A token has a name and a scope: read (pages and GET
requests), write (also uploads, incidents, notes, signatures and the collector's batches) or
admin. Only a token's SHA-256 is stored: its secret is printed once, by create.

These commands work on the database directly, as the server's operators do: --database or
ROOTLINE_DATABASE names it, as for serve.`,
		Example: "  rootline token create --name collector-prod --scope write\n  rootline token list\n  rootline token revoke collector-prod",
		PersistentPreRun: func(cmd *cobra.Command, _ []string) {
			database = databaseFlag(cmd, database)
		},
	}
	cmd.PersistentFlags().StringVar(&database, "database", config.DefaultDatabase, "SQLite file, sqlite://PATH, or postgres:// URL (env ROOTLINE_DATABASE)")

	var name, scope string
	create := &cobra.Command{
		Use:   "create --name NAME [--scope read|write|admin]",
		Short: "Create a token and print its secret (shown only this once)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			sc, err := access.ParseScope(scope)
			if err != nil {
				return usageError{fmt.Errorf("--scope: %w", err)}
			}
			if err := access.ValidName(name); err != nil {
				return usageError{fmt.Errorf("--name: %w", err)}
			}
			return withStore(cmd.Context(), database, func(st *store.Store) error {
				secret, t, err := st.CreateToken(cmd.Context(), name, sc)
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "created token %s (%s); its secret, shown only now:\n", t.Name, t.Scope)
				fmt.Fprintln(cmd.OutOrStdout(), secret)
				return nil
			})
		},
	}
	create.Flags().StringVar(&name, "name", "", "the token's name: who or what uses it (required)")
	create.Flags().StringVar(&scope, "scope", string(access.Read), "read, write or admin")
	_ = create.MarkFlagRequired("name")

	list := &cobra.Command{
		Use:   "list",
		Short: "List the tokens: name, scope, when made and when revoked",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withStore(cmd.Context(), database, func(st *store.Store) error {
				ts, err := st.Tokens(cmd.Context())
				if err != nil {
					return err
				}
				return writeTokens(cmd.OutOrStdout(), ts)
			})
		},
	}

	revoke := &cobra.Command{
		Use:   "revoke NAME",
		Short: "Revoke a token: requests with it are refused from now on",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStore(cmd.Context(), database, func(st *store.Store) error {
				if err := st.RevokeToken(cmd.Context(), args[0]); err != nil {
					if errors.Is(err, store.ErrNotFound) {
						return &exitError{exitFailure, fmt.Errorf("no token is named %s", args[0])}
					}
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "revoked token %s\n", args[0])
				return nil
			})
		},
	}
	cmd.AddCommand(create, list, revoke)
	return cmd
}

// withStore opens and migrates the database, runs f, and closes it.
func withStore(ctx context.Context, database string, f func(*store.Store) error) error {
	st, err := openStore(ctx, database)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := f(st); err != nil {
		var ee *exitError
		if errors.As(err, &ee) {
			return err
		}
		return &exitError{exitFailure, err}
	}
	return nil
}

func writeTokens(w io.Writer, ts []store.Token) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSCOPE\tCREATED\tREVOKED")
	for _, t := range ts {
		revoked := "-"
		if t.RevokedAt != nil {
			revoked = t.RevokedAt.Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.Name, t.Scope, t.CreatedAt.Format(time.RFC3339), revoked)
	}
	return tw.Flush()
}
