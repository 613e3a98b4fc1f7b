package server

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/evidence"
	"github.com/rootline-dev/rootline/internal/incident"
)

// TestAlertsWeighInTheIncidentsShare: what an incident's analysis is charged for (the objects
// the cache remembers it by, and a page's load of it is charged by) counts its alerts beside its
// objects, so that an incident of thousands of alerts is not charged as one of none.
func TestAlertsWeighInTheIncidentsShare(t *testing.T) {
	t.Parallel()
	cfg, _ := config.Default(func(string) string { return "" })
	srv := New(cfg, Deps{})
	t.Cleanup(func() { _ = srv.Close(context.Background()) })
	ev := &evidence.Evidence{}
	for i := range 300 {
		ev.Alerts = append(ev.Alerts, alert.Alert{Fingerprint: fmt.Sprintf("%04x", i), Status: alert.Firing,
			StartsAt: time.Date(2023, 2, 1, 17, 0, i%60, 0, time.UTC), Labels: map[string]string{"alertname": "Flood"}})
	}
	srv.analyse(&incident.Incident{ID: "alerted", Title: "alerts"}, nil, ev)
	if w := srv.states.lastWeight("alerted"); w != 300 {
		t.Errorf("an incident of 300 alerts and no object weighs %d, want 300", w)
	}
}
