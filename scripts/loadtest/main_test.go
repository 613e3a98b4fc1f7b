package main

import (
	"testing"
	"time"
)

// TestLoopbackURL: the load test runs against this machine only.
func TestLoopbackURL(t *testing.T) {
	for raw, ok := range map[string]bool{
		"http://127.0.0.1:8080":      true,
		"http://localhost:8080/":     true,
		"http://[::1]:8080":          true,
		"http://127.8.9.10":          true,
		"http://10.0.0.1:8080":       false,
		"http://rootline.example":    false,
		"https://0.0.0.0:8080":       false,
		"ftp://127.0.0.1/":           false,
		"http://127.0.0.1.nip.io:80": false,
	} {
		if _, err := loopbackURL(raw); (err == nil) != ok {
			t.Errorf("loopbackURL(%q): err = %v, want allowed %v", raw, err, ok)
		}
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	for p, want := range map[float64]time.Duration{0.5: 50 * time.Millisecond, 0.99: 99 * time.Millisecond, 1: 100 * time.Millisecond, 0: time.Millisecond} {
		if got := percentile(d, p); got != want {
			t.Errorf("percentile(%v) = %s, want %s", p, got, want)
		}
	}
	if percentile(nil, 0.5) != 0 {
		t.Error("percentile of nothing")
	}
}
