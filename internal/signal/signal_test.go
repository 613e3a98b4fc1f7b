package signal

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitCounted(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   []ReasonCount
		wantOK bool
	}{
		{name: "one", in: "3 Insufficient memory", want: []ReasonCount{{3, "Insufficient memory"}}, wantOK: true},
		{
			name:   "comma inside a reason",
			in:     "1 node(s) had taint {a: }, that the pod didn't tolerate, 2 Too many pods",
			want:   []ReasonCount{{1, "node(s) had taint {a: }, that the pod didn't tolerate"}, {2, "Too many pods"}},
			wantOK: true,
		},
		{name: "overflowing count skipped", in: "99999999999999999999 x, 1 y", want: []ReasonCount{{1, "y"}}, wantOK: true},
		{name: "no leading count", in: `persistentvolumeclaim "x" not found`},
		{name: "count only", in: "12", wantOK: false},
		{name: "empty", in: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := splitCounted(tt.in)
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tt.wantOK)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
