package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// WriteJSON writes rep as a json.Encoder indenting by two spaces writes it, byte for byte, but
// a symptom group and a cause at a time: the JSON of a large incident's report (25 MB at
// 20,000 pods) is never held whole, only the rest of the report and its largest group.
func WriteJSON(w io.Writer, rep analysis.Report) error {
	symptoms, causes := rep.Symptoms, rep.Causes
	shell := rep
	shell.Symptoms, shell.Causes = nil, nil // written as null, then streamed in their place
	head, err := json.MarshalIndent(shell, "", "  ")
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	for _, f := range []struct {
		line string
		list func(*bufio.Writer) error
		null bool
	}{
		{"\n  \"symptoms\": null,", func(w *bufio.Writer) error { return writeList(w, "symptoms", symptoms) }, symptoms == nil},
		{"\n  \"causes\": null,", func(w *bufio.Writer) error { return writeList(w, "causes", causes) }, causes == nil},
	} {
		i := bytes.Index(head, []byte(f.line))
		if i < 0 {
			return fmt.Errorf("report: %q not found in the report's JSON", f.line)
		}
		bw.Write(head[:i])
		head = head[i+len(f.line):]
		if f.null {
			bw.WriteString(f.line)
			continue
		}
		if err := f.list(bw); err != nil {
			return err
		}
	}
	bw.Write(head)
	bw.WriteByte('\n')
	return bw.Flush()
}

// writeList writes the member name of the report as a list of items, each indented as the
// report's own members' members are, followed by the comma of the member after it.
func writeList[T any](w *bufio.Writer, name string, items []T) error {
	fmt.Fprintf(w, "\n  %q: [", name)
	for i, it := range items {
		b, err := json.MarshalIndent(it, "    ", "  ")
		if err != nil {
			return fmt.Errorf("report: %s: %w", name, err)
		}
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString("\n    ")
		w.Write(b)
	}
	if len(items) > 0 {
		w.WriteString("\n  ")
	}
	w.WriteString("],")
	return nil
}
