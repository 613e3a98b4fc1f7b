package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/rootline-dev/rootline/internal/access"
	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/store"
)

func newUserCmd() *cobra.Command {
	var database string
	cmd := &cobra.Command{
		Use:   "user",
		Short: "Add, list and disable the people who sign in to the pages",
		Long: `Manage the local accounts of the people who sign in to Rootline's pages when the server runs
with --auth on. An account has a name, a password (stored as an argon2id hash, never as it is)
and a scope: read (look at incidents), write (also upload, create, edit, write notes) or admin.
People may also sign in through an OpenID Connect provider (ROOTLINE_OIDC_*): those need no
account here.

A password is read from the terminal (typed twice, not shown), or else as the first line of
standard input, so that scripts can pipe it in. It needs at least 12 characters.

These commands work on the database directly, as the server's operators do: --database or
ROOTLINE_DATABASE names it, as for serve.`,
		Example: "  rootline user add alice --scope write\n  printf '%s\\n' \"$PASSWORD\" | rootline user add ci-bot --scope read\n  rootline user list\n  rootline user password alice\n  rootline user disable alice",
		PersistentPreRun: func(cmd *cobra.Command, _ []string) {
			database = databaseFlag(cmd, database)
		},
	}
	cmd.PersistentFlags().StringVar(&database, "database", config.DefaultDatabase, "SQLite file, sqlite://PATH, or postgres:// URL (env ROOTLINE_DATABASE)")

	var scope string
	add := &cobra.Command{
		Use:   "add NAME [--scope read|write|admin]",
		Short: "Add an account; its password is asked for",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sc, err := access.ParseScope(scope)
			if err != nil {
				return usageError{fmt.Errorf("--scope: %w", err)}
			}
			if err := access.ValidName(args[0]); err != nil {
				return usageError{err}
			}
			pw, err := readPassword(cmd, "Password for "+args[0])
			if err != nil {
				return err
			}
			return withStore(cmd.Context(), database, func(st *store.Store) error {
				a, err := st.CreateAccount(cmd.Context(), args[0], sc, pw)
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "added %s (%s)\n", a.Name, a.Scope)
				return nil
			})
		},
	}
	add.Flags().StringVar(&scope, "scope", string(access.Write), "read, write or admin")

	list := &cobra.Command{
		Use:   "list",
		Short: "List the accounts: name, scope, when added and when disabled",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withStore(cmd.Context(), database, func(st *store.Store) error {
				as, err := st.Accounts(cmd.Context())
				if err != nil {
					return err
				}
				return writeAccounts(cmd.OutOrStdout(), as)
			})
		},
	}

	password := &cobra.Command{
		Use:   "password NAME",
		Short: "Set an account's password; its sessions end",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pw, err := readPassword(cmd, "New password for "+args[0])
			if err != nil {
				return err
			}
			return withStore(cmd.Context(), database, func(st *store.Store) error {
				if err := st.SetPassword(cmd.Context(), args[0], pw); err != nil {
					return noAccount(args[0], err)
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "set the password of %s; its sessions ended\n", args[0])
				return nil
			})
		},
	}

	setDisabled := func(use, short, done string, disabled bool) *cobra.Command {
		return &cobra.Command{
			Use:   use + " NAME",
			Short: short,
			Args:  cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				return withStore(cmd.Context(), database, func(st *store.Store) error {
					if err := st.SetAccountDisabled(cmd.Context(), args[0], disabled); err != nil {
						return noAccount(args[0], err)
					}
					fmt.Fprintf(cmd.ErrOrStderr(), "%s %s\n", done, args[0])
					return nil
				})
			},
		}
	}
	cmd.AddCommand(add, list, password,
		setDisabled("disable", "Disable an account: it can no longer sign in, and its sessions end", "disabled", true),
		setDisabled("enable", "Enable a disabled account again", "enabled", false))
	return cmd
}

func noAccount(name string, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return &exitError{exitFailure, fmt.Errorf("no account is named %s", name)}
	}
	return err
}

// readPassword asks for a password twice on a terminal, or reads the first line of standard
// input otherwise.
func readPassword(cmd *cobra.Command, prompt string) (string, error) {
	in := cmd.InOrStdin()
	if f, ok := in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		ask := func(p string) (string, error) {
			fmt.Fprintf(cmd.ErrOrStderr(), "%s: ", p)
			b, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(cmd.ErrOrStderr())
			return string(b), err
		}
		pw, err := ask(prompt)
		if err != nil {
			return "", fmt.Errorf("reading the password: %w", err)
		}
		again, err := ask("Again")
		if err != nil {
			return "", fmt.Errorf("reading the password: %w", err)
		}
		if pw != again {
			return "", usageError{errors.New("the two passwords differ")}
		}
		return pw, checkPassword(pw)
	}
	line, err := bufio.NewReader(io.LimitReader(in, 4096)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("reading the password from standard input: %w", err)
	}
	pw := strings.TrimRight(line, "\r\n")
	if pw == "" {
		return "", usageError{errors.New("no password: type it on a terminal, or give it as the first line of standard input")}
	}
	return pw, checkPassword(pw)
}

func checkPassword(pw string) error {
	if err := access.ValidPassword(pw); err != nil {
		return usageError{err}
	}
	return nil
}

func writeAccounts(w io.Writer, as []store.Account) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSCOPE\tADDED\tDISABLED")
	for _, a := range as {
		disabled := "-"
		if a.DisabledAt != nil {
			disabled = a.DisabledAt.Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", a.Name, a.Scope, a.CreatedAt.Format(time.RFC3339), disabled)
	}
	return tw.Flush()
}
