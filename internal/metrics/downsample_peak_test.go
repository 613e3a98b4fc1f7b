package metrics

import (
	"math"
	"testing"
	"time"
)

// TestDownsampleKeepsThePeakAndItsTime: a step of a downsampled series is its largest point
// at the time it was seen, so that "peaked at 16:45" in a report is when the peak was, not
// when the step began; a NaN gives way to any number; the first and the last points stay in
// the first and the last step; a series that fits is returned as it is, and so is any series
// when the bound is not positive.
func TestDownsampleKeepsThePeakAndItsTime(t *testing.T) {
	t0 := time.Date(2023, 2, 1, 16, 0, 0, 0, time.UTC)
	at := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }
	// 0..40 minutes in 4 steps of 10: peaks at minutes 7, 12, 29 and 35 (a tie: the first).
	values := map[int]float64{7: 9, 12: 5, 29: 8, 35: 3, 38: 3}
	var points []Point
	for m := 0; m <= 40; m++ {
		v, ok := values[m]
		switch {
		case ok:
		case m == 20:
			v = math.NaN()
		default:
			v = 1
		}
		points = append(points, Point{At: at(m), Value: v})
	}
	got := Downsample(points, 4)
	want := []Point{{at(7), 9}, {at(12), 5}, {at(29), 8}, {at(35), 3}}
	if len(got) != len(want) {
		t.Fatalf("%d points, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if !got[i].At.Equal(want[i].At) || got[i].Value != want[i].Value {
			t.Errorf("step %d kept %v at %s, want %v at %s", i, got[i].Value, got[i].At.Format("15:04"), want[i].Value, want[i].At.Format("15:04"))
		}
	}

	// A step whose first point is NaN keeps the number that follows.
	nan := []Point{{at(0), 1}, {at(2), math.NaN()}, {at(3), 4}, {at(4), 2}}
	if got := Downsample(nan, 2); len(got) != 2 || got[1].Value != 4 || !got[1].At.Equal(at(3)) {
		t.Errorf("NaN first in its step: %v, want the 4 at 16:03 kept", got)
	}
	// All at one time: one step.
	same := []Point{{at(5), 1}, {at(5), 3}, {at(5), 2}}
	if got := Downsample(same, 2); len(got) != 1 || got[0].Value != 3 {
		t.Errorf("points at one time: %v, want one step holding 3", got)
	}
	// The steps cut the span from the first point to the last: 0-10 and 10-20 here, so the
	// 5 at minute 9 is the first step's.
	uneven := []Point{{at(0), 1}, {at(9), 5}, {at(10), 1}, {at(20), 1}}
	if got := Downsample(uneven, 2); len(got) != 2 || got[0].Value != 5 || !got[0].At.Equal(at(9)) || !got[1].At.Equal(at(10)) {
		t.Errorf("uneven points in 2 steps: %v, want 5 at 16:09 and 1 at 16:10", got)
	}
	// A series of n points stays whole, however close some of them are.
	close := []Point{{at(0), 1}, {at(1), 2}, {at(2), 3}, {at(20), 4}}
	if got := Downsample(close, len(close)); len(got) != len(close) {
		t.Errorf("a series of exactly n points lost %d", len(close)-len(got))
	}
	if got := Downsample(points, 1); len(got) != 1 || got[0].Value != 9 || !got[0].At.Equal(at(7)) {
		t.Errorf("one step: %v, want the 9 at 16:07", got)
	}
	if got := Downsample(points, 0); len(got) != len(points) {
		t.Errorf("n = 0 dropped points: %d of %d", len(got), len(points))
	}
}
