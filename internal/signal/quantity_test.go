package signal

import (
	"math"
	"testing"
)

func TestBytes(t *testing.T) {
	tests := []struct {
		q      string
		want   int64
		wantOK bool
	}{
		{q: "1924152Ki", want: 1924152 * 1024, wantOK: true},
		{q: "471859200", want: 471859200, wantOK: true},
		{q: "7G", want: 7_000_000_000, wantOK: true},
		{q: "1Gi", want: 1 << 30, wantOK: true},
		{q: "0", want: 0, wantOK: true},
		{q: "-1234Ki", want: -1234 * 1024, wantOK: true},
		{q: "1.5Ki", want: 1536, wantOK: true},
		{q: "24GB", want: 24_000_000_000, wantOK: true},
		{q: "1GiB", want: 1 << 30, wantOK: true},
		{q: "9223372036854775807", want: math.MaxInt64, wantOK: true},
		{q: "9223372036854775808"},
		{q: "10E"},
		{q: "lots"},
		{q: "B"},
		{q: ""},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			got, ok := Bytes(tt.q)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("Bytes(%q) = %d, %v; want %d, %v", tt.q, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}
