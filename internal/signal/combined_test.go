package signal

import (
	"testing"
)

func TestStripCombined(t *testing.T) {
	tests := []struct {
		msg          string
		want         string
		wantCombined bool
	}{
		{msg: "(combined from similar events): Liveness probe failed: x", want: "Liveness probe failed: x", wantCombined: true},
		{msg: "Liveness probe failed: x", want: "Liveness probe failed: x"},
		{msg: "", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			got, combined := StripCombined(tt.msg)
			if got != tt.want || combined != tt.wantCombined {
				t.Errorf("got %q, %v; want %q, %v", got, combined, tt.want, tt.wantCombined)
			}
		})
	}
}
