package store_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

func TestIncidentRoundTrip(t *testing.T) {
	t.Parallel()
	// Times given in another zone come back as the same instants in UTC.
	cet := time.FixedZone("CET", 3600)
	started := time.Date(2023, 2, 1, 18, 4, 10, 0, cet)
	ended := time.Date(2023, 2, 1, 19, 30, 0, 0, cet)
	tests := []struct {
		name string
		in   incident.Incident
		want incident.Incident // without CreatedAt and UpdatedAt, which are set on create
	}{
		{
			name: "full",
			in: incident.Incident{ID: "leap-2023-02-01", Title: "  Hub evicted on core-pool  ", Cluster: "leap",
				StartedAt: &started, EndedAt: &ended, Tags: []string{"Memory", "eviction", " memory "}},
			want: incident.Incident{ID: "leap-2023-02-01", Title: "Hub evicted on core-pool", Cluster: "leap",
				StartedAt: ptr(ts(t, "2023-02-01T17:04:10Z")), EndedAt: ptr(ts(t, "2023-02-01T18:30:00Z")),
				Tags: []string{"eviction", "memory"}, Date: "2023-02-01"},
		},
		{
			name: "bare",
			in:   incident.Incident{ID: "inc-1", Title: "Something broke"},
			want: incident.Incident{ID: "inc-1", Title: "Something broke", Tags: []string{}},
		},
		{
			name: "zero times are unknown",
			in:   incident.Incident{ID: "inc-2", Title: "When?", StartedAt: &time.Time{}},
			want: incident.Incident{ID: "inc-2", Title: "When?", Tags: []string{}},
		},
	}
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				in := tt.in
				if err := in.Validate(); err != nil {
					t.Fatal(err)
				}
				before := time.Now()
				if err := st.CreateIncident(t.Context(), &in); err != nil {
					t.Fatalf("CreateIncident: %v", err)
				}
				if in.CreatedAt.Before(before.Add(-time.Second)) || in.CreatedAt.After(time.Now()) ||
					in.CreatedAt.Location() != time.UTC || !in.UpdatedAt.Equal(in.CreatedAt) {
					t.Errorf("CreateIncident set CreatedAt %v, UpdatedAt %v; want now, in UTC", in.CreatedAt, in.UpdatedAt)
				}
				got, err := st.Incident(t.Context(), in.ID)
				if err != nil {
					t.Fatalf("Incident: %v", err)
				}
				want := tt.want
				want.CreatedAt, want.UpdatedAt = in.CreatedAt, in.UpdatedAt
				if want.Date == "" { // without a start, an incident's date is the day it was created
					want.Date = in.CreatedAt.Format(time.DateOnly)
				}
				// cmp compares time.Time with Equal, so check the zone separately.
				for _, tm := range []*time.Time{got.StartedAt, got.EndedAt, &got.CreatedAt, &got.UpdatedAt} {
					if tm != nil && tm.Location() != time.UTC {
						t.Errorf("time %v is not in UTC", tm)
					}
				}
				if diff := cmp.Diff(&want, got); diff != "" {
					t.Errorf("Incident (-want +got):\n%s", diff)
				}
			})
		}
	})
}

func TestIncidentErrors(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		ctx := t.Context()
		first := createIncident(t, st, "inc-1", "leap", "memory")

		again := &incident.Incident{ID: "inc-1", Title: "Another", Cluster: "other", Tags: []string{"cpu"}}
		wantErr(t, "CreateIncident with a taken id", st.CreateIncident(ctx, again), store.ErrExists)
		// The failed create changed nothing: not the incident, its tags, nor the clusters.
		got, err := st.Incident(ctx, "inc-1")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(first, got); diff != "" {
			t.Errorf("incident after a failed create (-want +got):\n%s", diff)
		}
		clusters, err := st.Clusters(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(clusters) != 1 || clusters[0].Name != "leap" {
			t.Errorf("Clusters = %+v, want only leap", clusters)
		}

		_, err = st.Incident(ctx, "inc-404")
		wantErr(t, "Incident of an unknown id", err, store.ErrNotFound)
	})
}

func TestIncidentsList(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, b storetest.Backend) {
		// Created in this order: newest first must not fall back to id order.
		createIncident(t, st, "a-oldest", "leap", "memory", "eviction")
		createIncident(t, st, "b-middle", "", "cpu")
		createIncident(t, st, "c-newest", "leap", "memory")
		tests := []struct {
			name string
			f    store.IncidentFilter
			want []string
		}{
			{"all", store.IncidentFilter{}, []string{"c-newest", "b-middle", "a-oldest"}},
			{"tag", store.IncidentFilter{Tag: "memory"}, []string{"c-newest", "a-oldest"}},
			{"other tag", store.IncidentFilter{Tag: "cpu"}, []string{"b-middle"}},
			{"unknown tag", store.IncidentFilter{Tag: "disk"}, nil},
			{"limit", store.IncidentFilter{Limit: 2}, []string{"c-newest", "b-middle"}},
			{"limit out of range", store.IncidentFilter{Limit: 5000}, []string{"c-newest", "b-middle", "a-oldest"}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				list, err := st.Incidents(t.Context(), tt.f)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, in := range list {
					got = append(got, in.ID)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("Incidents(%+v) (-want +got):\n%s", tt.f, diff)
				}
			})
		}
		// Listed incidents carry their cluster and all their tags, not only the one filtered on.
		list, err := st.Incidents(t.Context(), store.IncidentFilter{Tag: "eviction"})
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 1 {
			t.Fatalf("Incidents(eviction) = %d incidents, want 1", len(list))
		}
		if diff := cmp.Diff([]string{"eviction", "memory"}, list[0].Tags); diff != "" {
			t.Errorf("tags (-want +got):\n%s", diff)
		}
		if list[0].Cluster != "leap" {
			t.Errorf("Cluster = %q, want leap", list[0].Cluster)
		}
	})
}

func ptr[T any](v T) *T { return &v }
