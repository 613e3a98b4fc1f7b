// Command rootline is Rootline's one binary: the server, and the commands that feed it.
// This file only wires things together; the work is done in internal/.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
)

// Exit codes that scripts can rely on.
const (
	exitOK          = 0
	exitFailure     = 1 // anything else: an unreadable file, a server that would not start
	exitUsage       = 2 // wrong flags or arguments
	exitUnreachable = 3 // the server could not be reached
	exitRejected    = 4 // the server refused the input (4xx)
	exitServerError = 5 // the server failed (5xx)
)

// exitError carries the exit code a failure should end the process with.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func main() {
	os.Exit(runAs(filepath.Base(os.Args[0]), os.Args[1:], os.Stderr))
}

// runAs executes the command line of the binary installed under name, saying why a command
// failed on stderr, and returns the exit code: as kubectl-rootline it is a kubectl
// plugin (kubectl finds kubectl-* on the PATH and runs "kubectl rootline snapshot" as
// "kubectl-rootline snapshot"), and its help says "kubectl rootline".
func runAs(name string, args []string, stderr io.Writer) int {
	root := rootFor(name)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(stderr, "rootline:", err)
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if isUsage(err) {
		return exitUsage
	}
	return exitFailure
}

// rootFor is the root command of the binary installed under name.
func rootFor(name string) *cobra.Command {
	root := newRootCmd()
	if !strings.HasPrefix(strings.TrimSuffix(name, ".exe"), "kubectl-rootline") {
		return root
	}
	root.Annotations = map[string]string{cobra.CommandDisplayNameAnnotation: "kubectl rootline"}
	var plugin func(*cobra.Command)
	plugin = func(c *cobra.Command) {
		c.Example = commandLineRe.ReplaceAllString(c.Example, "${1}kubectl rootline ")
		c.Long = commandLineRe.ReplaceAllString(c.Long, "${1}kubectl rootline ")
		for _, sub := range c.Commands() {
			plugin(sub)
		}
	}
	plugin(root)
	return root
}

// commandLineRe finds a command line of the help's examples: "  rootline upload …".
var commandLineRe = regexp.MustCompile(`(?m)^(\s*)rootline `)

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "rootline",
		Short: "Rootline: why a Kubernetes cluster hurt its users",
		Long: `Rootline keeps what a Kubernetes cluster left behind after an incident (kubectl output,
events, notes) and links the symptoms to their root causes.

  rootline serve                         run the web server (SQLite file rootline.db by default)
  rootline upload --incident ID FILES…   send kubectl output to a server`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(newServeCmd(), newUploadCmd(), newAnalyzeCmd(), newImportCmd(), newExportCmd(), newSnapshotCmd(), newCollectCmd(), newTokenCmd(), newUserCmd())
	return root
}

// usageError marks a mistake on the command line.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

func isUsage(err error) bool {
	var ue usageError
	return errors.As(err, &ue)
}
