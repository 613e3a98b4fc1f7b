package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// cliDoc documents every command and flag.
const cliDoc = "../../docs/cli.md"

// freeDefaults are the flags whose default docs/cli.md says in words, because the flag's own
// default is worked out on the machine that runs it.
var freeDefaults = map[string]string{
	"rootline collect --spool-dir": "the user's cache folder differs from one machine to the next",
}

// TestDocsCLI keeps docs/cli.md and the commands together. Every command the binary has (as
// newRootCmd builds it) has a heading "`rootline COMMAND`" there; in the section it heads, a
// table row names each flag the command defines (its own, and the persistent ones it hands to
// its subcommands), with the flag's shorthand and its default as --help prints it, in
// backquotes (a default that is empty may be told in words). A row may not name a flag the
// command does not have, and no section may head a command the binary does not have.
func TestDocsCLI(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(cliDoc)
	if err != nil {
		t.Fatal(err)
	}
	sections := cliSections(string(data))

	seen := map[string]bool{}
	var walk func(cmd *cobra.Command)
	walk = func(cmd *cobra.Command) {
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
		if !cmd.HasParent() {
			return // the root: its help says what the commands are
		}
		path := cmd.CommandPath()
		seen[path] = true
		sec, ok := sections[path]
		if !ok {
			t.Errorf("docs/cli.md has no section for %q: add a heading \"## `%s`\" with what it does, its flags, exit codes and an example", path, path)
			return
		}
		rows := flagRows(sec)
		cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
			row, ok := rows[f.Name]
			if !ok {
				t.Errorf("%s --%s is not in docs/cli.md: add a row \"| `--%s` | default | meaning |\" to its section", path, f.Name, f.Name)
				return
			}
			delete(rows, f.Name)
			if f.Shorthand != "" && !strings.Contains(row[0], "`-"+f.Shorthand+"`") {
				t.Errorf("docs/cli.md: %s --%s: the row does not give its shorthand `-%s`: %q", path, f.Name, f.Shorthand, row[0])
			}
			key := path + " --" + f.Name
			if _, free := freeDefaults[key]; free || f.DefValue == "" || f.DefValue == "[]" {
				return
			}
			if len(row) < 2 || !strings.Contains(row[1], "`"+f.DefValue+"`") {
				t.Errorf("docs/cli.md: %s --%s: the default column should hold `%s` (what --help prints): %q", path, f.Name, f.DefValue, strings.Join(row, " | "))
			}
		})
		for name := range rows {
			t.Errorf("docs/cli.md documents %s --%s, which the command does not have", path, name)
		}
	}
	walk(newRootCmd())
	if len(seen) < 9 {
		t.Fatalf("found only %d commands: the test no longer walks the binary's commands", len(seen))
	}
	for path := range sections {
		if !seen[path] {
			t.Errorf("docs/cli.md has a section for %q, a command the binary does not have", path)
		}
	}
	for path := range freeDefaults {
		cmdPath, _, _ := strings.Cut(path, " --")
		if !seen[cmdPath] {
			t.Errorf("freeDefaults names %q, of no command", path)
		}
	}
}

// cliHeading is a section's heading: "## `rootline token create`".
var cliHeading = regexp.MustCompile("^#{2,4} `(rootline(?: [a-z][a-z-]*)+)`$")

// cliSections cuts the document into the sections of commands, by the command their heading
// names; a section ends at the next heading of any level.
func cliSections(doc string) map[string][]string {
	out := map[string][]string{}
	cur := ""
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "#") {
			cur = ""
			if m := cliHeading.FindStringSubmatch(line); m != nil {
				cur = m[1]
				out[cur] = []string{}
			}
			continue
		}
		if cur != "" {
			out[cur] = append(out[cur], line)
		}
	}
	return out
}

// flagName is a flag as a row's first cell writes it: `--page-size`.
var flagName = regexp.MustCompile("`--([a-z0-9][a-z0-9-]*)`")

// flagRows are a section's table rows that name flags in their first cell, by flag name, each
// as its cells.
func flagRows(lines []string) map[string][]string {
	out := map[string][]string{}
	for _, line := range lines {
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		for _, m := range flagName.FindAllStringSubmatch(cells[0], -1) {
			out[m[1]] = cells
		}
	}
	return out
}
