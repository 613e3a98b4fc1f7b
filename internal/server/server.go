// Package server is Rootline's HTTP face: the JSON API under /api/v1, the pages, health and
// metrics, on gin. Handlers depend on the small interfaces declared here, not on the store.
package server

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/rootline-dev/rootline/internal/access"
	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/evidence"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/markdown"
	"github.com/rootline-dev/rootline/internal/metrics"
	"github.com/rootline-dev/rootline/internal/picture"
	"github.com/rootline-dev/rootline/internal/store"
	"golang.org/x/time/rate"
)

// IncidentStore is what the incident handlers need.
type IncidentStore interface {
	CreateIncident(ctx context.Context, in *incident.Incident) error
	Incident(ctx context.Context, id string) (*incident.Incident, error)
	Incidents(ctx context.Context, f store.IncidentFilter) ([]*incident.Incident, error)
	UpdateIncident(ctx context.Context, in *incident.Incident) error
}

// TokenStore finds the API token a secret is (see `rootline token`).
type TokenStore interface {
	TokenFor(ctx context.Context, secret string) (store.Token, error)
}

// SessionStore checks the passwords of local accounts and keeps the sessions of people
// signed in to the pages.
type SessionStore interface {
	CheckAccount(ctx context.Context, name, password string) (store.Account, error)
	CreateSession(ctx context.Context, person string, scope access.Scope, ttl time.Duration) (string, store.Session, error)
	SessionFor(ctx context.Context, secret string) (store.Session, error)
	EndSession(ctx context.Context, secret string) error
}

// SnapshotStore is what the upload handler needs.
type SnapshotStore interface {
	WriteSnapshot(ctx context.Context, m store.SnapshotMeta, fill store.SnapshotFill) (*store.Snapshot, error)
	AttachSnapshot(ctx context.Context, digest, incidentID string) (*store.Snapshot, error)
	SnapshotHolder(ctx context.Context, digest string) (string, error)
	// BulkCache is the memory of this process the transaction storing a snapshot may take as
	// its page cache (SQLite's; nothing on PostgreSQL), which an upload is charged besides.
	BulkCache(m store.SnapshotMeta) int64
}

// ObjectStore holds what an incident is made of: the rows its evidence is loaded from (package
// evidence, which after new evidence decodes only what changed since an earlier load), and the
// version that says whether anything did.
type ObjectStore interface {
	evidence.Rows
	IncidentVersion(ctx context.Context, incidentID string) (store.Version, error)
}

// NoteStore keeps the notes of incidents.
type NoteStore interface {
	CreateNote(ctx context.Context, n *incident.Note) error
	Notes(ctx context.Context, incidentID string) ([]incident.Note, error)
}

// LibraryStore keeps the reports of the incident library.
type LibraryStore interface {
	ImportReports(ctx context.Context, reports []incident.Report, progress func(done int)) ([]bool, error)
	Report(ctx context.Context, id string) (incident.Report, error)
	RelatedCandidates(ctx context.Context, target incident.Candidate, limits store.RelatedLimits) ([]incident.Candidate, error)
	Signatures(ctx context.Context, id string) (incident.Signatures, error)
	SetAnalysisSignature(ctx context.Context, id string, sig incident.Signature) error
	MergeAnalysisSignature(ctx context.Context, id string, sig incident.Signature, from *time.Time) error
	SetEvidenceTime(ctx context.Context, id string, from *time.Time) error
	SetPersonSignature(ctx context.Context, id string, sig *incident.Signature) error
	LibraryCounts(ctx context.Context, f store.IncidentFilter) (store.Counts, error)
	SearchMatches(ctx context.Context, ids []string, query string) (map[string]store.Match, error)
}

// CollectStore keeps what `rootline collect` streams from live clusters.
type CollectStore interface {
	StoreCollected(ctx context.Context, clusterName string, objs []*cluster.Object, now time.Time) (store.CollectedCounts, error)
}

// Pinger reports whether the database answers, for /readyz.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Deps are the server's collaborators.
type Deps struct {
	Incidents IncidentStore
	Snapshots SnapshotStore
	Objects   ObjectStore
	Notes     NoteStore
	Library   LibraryStore
	Collected CollectStore
	Alerts    AlertStore   // nil: POST /api/v1/alerts answers 404
	Tokens    TokenStore   // nil: only the server's own token is known
	Sessions  SessionStore // nil: no one signs in to the pages
	OIDC      OIDCProvider // nil: no sign-in through an OpenID Connect provider
	// ValueKey keys the hashes that stand for ConfigMaps' values in what is stored
	// (change.KeyValues; config.LoadValueKey); empty: unkeyed hashes, as in tests.
	ValueKey []byte
	DB       Pinger
	Metrics  *Metrics // nil: a fresh set
	Log      *slog.Logger
}

// StoreDeps wires every collaborator to one store, as `rootline serve` does.
func StoreDeps(st *store.Store, log *slog.Logger) Deps {
	return Deps{Incidents: st, Snapshots: st, Objects: st, Notes: st, Library: st, Collected: st, Alerts: st, Tokens: st, Sessions: st, DB: st, Log: log}
}

// Server holds the handlers' shared state.
type Server struct {
	cfg       config.Config
	deps      Deps
	log       *slog.Logger
	metrics   *Metrics
	markdown  *markdown.Renderer
	chains    *picture.Layouter // lays out the causal chain; its Graphviz starts on the first page
	states    *stateCache
	uploads   *keyedLimiter // nil: no limit
	events    *keyedLimiter // collectors' batches; nil: no limit
	logins    *keyedLimiter // sign-in attempts by address and name
	hashing   chan struct{} // a slot for each password check that may run at once
	budget    *budget       // the memory of the uploads decoded and stored, and the incidents analysed, at once
	refreshes refreshes     // the signature refreshes asked for and running

	background     context.Context // the work a request leaves running (signature refreshes); ended by Close
	stopBackground context.CancelFunc
	spool          *spoolRoot      // nil: the system's temporary folder (the spool folder could not be made)
	openFor        alert.Selector  // the firing alerts that open an incident (--open-incidents-for); empty: none
	prometheus     metrics.Targets // each cluster's Prometheus (--prometheus); empty: none
	opening        *rate.Limiter   // incidents opened from alerts (openEvery, openBurst)
	openingMu      sync.Mutex      // one opening at a time: the limiter is spent only by one made
	queries        []metrics.Query // the range queries run on them (--prometheus-queries, or the default ones)
}

// New builds the server; Handler returns its routes.
func New(cfg config.Config, deps Deps) *Server {
	if deps.Metrics == nil {
		deps.Metrics = NewMetrics()
	}
	if deps.Log == nil {
		deps.Log = slog.New(slog.DiscardHandler)
	}
	srv := &Server{cfg: cfg, deps: deps, log: deps.Log, metrics: deps.Metrics, markdown: markdown.New(), chains: picture.NewLayouter(), states: newStateCache(stateCacheSize, stateCacheObjects)}
	srv.metrics.renders(srv.markdown)
	srv.logins, srv.hashing = newKeyedLimiter(loginRate, loginBurst), make(chan struct{}, passwordChecks)
	srv.opening = rate.NewLimiter(rate.Every(openEvery), openBurst)
	if cfg.UploadRate > 0 {
		srv.uploads = newKeyedLimiter(cfg.UploadRate, cfg.UploadBurst)
	}
	// The configuration is taken as it is, parsed and checked once by package config (Default,
	// Load, Validate): no default is applied again here, and nothing is parsed again.
	srv.openFor, srv.prometheus, srv.queries = cfg.OpenIncidentsFor, cfg.Prometheus, cfg.PrometheusQueries
	srv.background, srv.stopBackground = context.WithCancel(context.Background())
	srv.budget = newBudget(cfg.MemoryBudget, 0, cfg.UploadWait)
	if root, err := openSpool(cfg.SpoolDir, srv.log); err != nil {
		srv.log.Error("uploads are spooled in the temporary folder, and what a killed server leaves there is not removed", "error", err)
	} else {
		srv.spool = root
	}
	if cfg.EventsRate > 0 {
		srv.events = newKeyedLimiter(cfg.EventsRate, cfg.EventsBurst)
	}
	return srv
}

// spoolDir is the folder uploads are received into.
func (s *Server) spoolDir() string {
	if s.spool == nil {
		return ""
	}
	return s.spool.dir
}
