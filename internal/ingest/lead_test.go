package ingest

import (
	"fmt"
	"strings"
	"testing"
)

// leadingKinds are inputs preceded by whitespace in TestLeadingWhitespace; for YAML and text
// the whitespace ends with a newline, so that the first line keeps its indentation.
var leadingKinds = []struct {
	name, data, objName string
	eol                 bool
}{
	{"pod.json", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns"}}`, "p", false},
	{"pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: ns\n", "p", true},
	{"pods.txt", "NAME    READY   STATUS    RESTARTS   AGE\nweb-1   1/1     Running   0          5m\n", "web-1", true},
}

// TestLeadingWhitespace: whitespace before the first character (8,192 bytes and more gave an
// index out of range) is skipped however long it is, and lines still count from the file's
// start.
func TestLeadingWhitespace(t *testing.T) {
	for _, k := range leadingKinds {
		for _, n := range []int{0, 1, 8191, 8192, 8193, 65536, 1 << 20} {
			for _, fill := range []string{" ", "\n", "\t", "\r\n", " \t\n"} {
				lead := strings.Repeat(fill, n/len(fill)+1)[:n]
				if k.eol {
					lead += "\n"
				}
				t.Run(fmt.Sprintf("%s/%d/%q", k.name, n, fill), func(t *testing.T) {
					objs, _, err := decodeAll(t, k.name, []byte(lead+k.data), Options{})
					if err != nil {
						t.Fatal(err)
					}
					if len(objs) != 1 || objs[0].Name != k.objName {
						t.Fatalf("%d objects (%v), want %s", len(objs), objs, k.objName)
					}
					wantLine := 1 + strings.Count(lead, "\n")
					if k.name == "pods.txt" {
						wantLine++ // the pod is on the table's second line
					}
					if got := int(objs[0].Source.Line); got != wantLine {
						t.Errorf("object at line %d, want %d", got, wantLine)
					}
				})
			}
		}
	}
}
