package metrics

import "math"

// Downsample reduces points (oldest first) to at most n: the span from the first to the last is
// cut into n equal steps, and each step keeps its largest point (NaN only when a step holds
// nothing else), at that point's time: a spike, an OOM's peak, stays. Points of at most n are
// returned as they are.
func Downsample(points []Point, n int) []Point {
	if n <= 0 || len(points) <= n {
		return points
	}
	first, last := points[0].At, points[len(points)-1].At
	span := last.Sub(first)
	out := make([]Point, 0, n)
	bucket := -1
	for _, p := range points {
		b := 0
		if span > 0 {
			b = min(int(float64(p.At.Sub(first))/float64(span)*float64(n)), n-1)
		}
		if b != bucket {
			out = append(out, p)
			bucket = b
			continue
		}
		kept := &out[len(out)-1]
		if math.IsNaN(kept.Value) || p.Value > kept.Value {
			*kept = p
		}
	}
	return out
}
