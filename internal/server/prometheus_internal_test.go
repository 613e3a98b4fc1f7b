package server

import "testing"

// TestShownAddress: a Prometheus's address is shown (answers, the page, logs) without the
// password its URL may carry.
func TestShownAddress(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"http://rootline:s3cret@prometheus:9090/prom": "http://rootline:xxxxx@prometheus:9090/prom",
		"https://prometheus.monitoring:9090":          "https://prometheus.monitoring:9090",
		"http://[::1":                                 "a Prometheus",
	} {
		if got := shownAddress(in); got != want {
			t.Errorf("%s shown as %s, want %s", in, got, want)
		}
	}
}
