package text

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// pad joins lines as a terminal's screen copied without its line ends keeps them: each padded
// with spaces to the width.
func pad(width int, lines ...string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l + strings.Repeat(" ", width-len(l)))
	}
	return b.String()
}

// TestPadded checks that a line made of a screen's lines padded to its width is cut back into
// them, at the width that keeps kubectl's indentation, and that long lines of other kinds are
// left whole.
func TestPadded(t *testing.T) {
	describe := []string{"Name:           gpu-test-0", "Namespace:      admin", "Node:           <none>", "Status:         Pending",
		"Containers:", "  cuda:", "    State:          Waiting", "Events:",
		"  Type     Reason            Age   From               Message",
		"  Warning  FailedScheduling  2m    default-scheduler  0/1 nodes are available: 1 Insufficient nvidia.com/gpu."}
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"a describe at 210 columns", pad(210, describe...), describe},
		{"a describe at 110 columns", pad(110, describe...), describe},
		{"a long log line", "I0113 10:00:00.000000 1 scheduler.go:100] " + strings.Repeat("Unable to schedule pod; no fit; waiting ", 20), nil},
		{"a table row with wide cells", "web-1" + strings.Repeat(" ", 70) + "1/1     Running   0          5m" + strings.Repeat(" ", 80) + "10.0.0.1   node-1", nil},
		{"a short line", "Name:  x" + strings.Repeat(" ", 50) + "Namespace:  y", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, padded(tt.in)); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
}
