package rules

import "testing"

// TestMemoryTextKeepsTheTenth: evidence and summaries say a memory quantity as a user would
// read it off the object, to a tenth of a GiB: 1.5 GiB is 1.5Gi, not 2Gi; a whole number of
// GiB has no decimal; below a GiB it is whole MiB.
func TestMemoryTextKeepsTheTenth(t *testing.T) {
	const mi, gi = 1 << 20, 1 << 30
	for _, tc := range []struct {
		bytes int64
		want  string
	}{
		{0, "0"},
		{512 * mi, "512Mi"},
		{1023 * mi, "1023Mi"},
		{gi, "1Gi"},
		{gi + gi/2, "1.5Gi"},
		{1900004 << 10, "1.8Gi"},
		{2 * gi, "2Gi"},
		{4000 * mi, "3.9Gi"},
		{20 * gi, "20Gi"},
	} {
		if got := memString(tc.bytes); got != tc.want {
			t.Errorf("memString(%d) = %q, want %q", tc.bytes, got, tc.want)
		}
	}
}
