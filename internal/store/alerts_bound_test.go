package store_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestClusterAlertsBounded: a cluster holds at most store.MaxClusterAlerts alerts: new ones
// past it are refused (counted, not stored), a stored firing is still closed, another cluster
// is not touched, and an incident's window loads the latest store.MaxWindowAlerts of them.
func TestClusterAlertsBounded(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		ctx := t.Context()
		start := time.Date(2023, 2, 1, 10, 0, 0, 0, time.UTC)
		firing := func(i int) alert.Alert {
			return alert.Alert{Fingerprint: fmt.Sprintf("%016x", i), Status: alert.Firing, StartsAt: start.Add(time.Duration(i) * time.Second),
				Labels: map[string]string{"alertname": "Flood"}, Annotations: map[string]string{}}
		}
		var total store.AlertCounts
		for from := 0; from < store.MaxClusterAlerts+5; from += 1000 {
			var batch []alert.Alert
			for i := from; i < min(from+1000, store.MaxClusterAlerts+5); i++ {
				batch = append(batch, firing(i))
			}
			n, err := st.StoreAlerts(ctx, "flooded", batch, start)
			if err != nil {
				t.Fatal(err)
			}
			total.New, total.Refused = total.New+n.New, total.Refused+n.Refused
		}
		if total.New != store.MaxClusterAlerts || total.Refused != 5 {
			t.Errorf("%d stored, %d refused; want %d and 5", total.New, total.Refused, store.MaxClusterAlerts)
		}
		resolved := firing(0)
		resolved.Status, resolved.EndsAt = alert.Resolved, start.Add(time.Hour)
		if n, err := st.StoreAlerts(ctx, "flooded", []alert.Alert{resolved, firing(store.MaxClusterAlerts + 9)}, start); err != nil || n.Resolved != 1 || n.Refused != 1 {
			t.Errorf("a resolution and a new firing of a full cluster: %+v, %v; want one resolved, one refused", n, err)
		}
		if n, err := st.StoreAlerts(ctx, "quiet", []alert.Alert{firing(1)}, start); err != nil || n.New != 1 {
			t.Errorf("another cluster: %+v, %v", n, err)
		}
		in := &incident.Incident{ID: "flood", Title: "flood", Cluster: "flooded", StartedAt: &start}
		end := start.Add(24 * time.Hour)
		in.EndedAt = &end
		if err := st.CreateIncident(ctx, in); err != nil {
			t.Fatal(err)
		}
		scope, err := st.IncidentScope(ctx, "flood")
		if err != nil {
			t.Fatal(err)
		}
		got, err := st.WindowAlerts(ctx, scope.Cluster, scope.From, scope.To)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != store.MaxWindowAlerts || got[len(got)-1].Fingerprint != fmt.Sprintf("%016x", store.MaxClusterAlerts-1) ||
			!got[0].StartsAt.Before(got[1].StartsAt) {
			t.Errorf("the window loads %d alerts, last %s; want the latest %d in the order of their starts", len(got), got[len(got)-1].Fingerprint, store.MaxWindowAlerts)
		}
	})
}
