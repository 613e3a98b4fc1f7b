// Command catalogcheck checks a file of message catalogue entries (the format of
// internal/catalog/messages.yaml): every field, every template, every example against its
// template. It prints each entry's anchor and pattern with -v.
//
//	go run ./scripts/catalogcheck [-v] FILE...
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/rootline-dev/rootline/internal/catalog"
)

func main() {
	verbose := flag.Bool("v", false, "print each entry's anchor")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: catalogcheck [-v] FILE...")
		os.Exit(2)
	}
	failed := false
	for _, name := range flag.Args() {
		data, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			failed = true
			continue
		}
		c, err := catalog.Parse(data)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			failed = true
			continue
		}
		fmt.Printf("%s: %d entries, all well formed, every example matching its template\n", name, len(c.Entries))
		if *verbose {
			for _, e := range c.Entries {
				fmt.Printf("  %-50s anchor %q\n", e.ID, e.Anchor())
			}
		}
	}
	if failed {
		os.Exit(1)
	}
}
