package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/oidc"
	"github.com/rootline-dev/rootline/internal/retention"
	"github.com/rootline-dev/rootline/internal/server"
	"github.com/rootline-dev/rootline/internal/store"
)

// memoryHeadroom is the memory beyond the upload budget that the soft memory limit of
// `rootline serve` allows: the pages, their analysis cache, the runtime.
const memoryHeadroom = 512 << 20

func newServeCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the web server",
		Long: `Run Rootline's web server and API.

The database is an embedded SQLite file (rootline.db in the working directory) unless
--database or ROOTLINE_DATABASE names another file, sqlite://PATH, postgres://USER@HOST/DB, or a
libpq keyword string (host=… user=… dbname=…).
Migrations are applied at start. The server listens on 127.0.0.1:8080; beyond loopback it
requires --auth on, and a token: ROOTLINE_API_TOKEN (which may do anything), or tokens made
with rootline token create (read, write or admin). SIGTERM or Ctrl-C stop it gracefully.

Raw evidence (events, the objects of snapshots, what the collector sent) is deleted in the
background once older than --retention (90 days; "off" keeps it): incidents, reports, notes
and signatures stay; the same files uploaded again after their objects expired are stored anew.

Uploads are received into the spool (--spool-dir) and then wait for their share of the memory
budget (--memory-budget, 1 GiB): the server's memory stays within it above idle whatever the
number of uploads at once; one that waits longer than --upload-wait is answered 503 with
Retry-After, having stored nothing. Request bodies that stall (--body-idle) or trickle
(--body-rate) are cut with 408.

Environment: ROOTLINE_DATABASE, ROOTLINE_ADDR, ROOTLINE_API_TOKEN(_FILE),
ROOTLINE_MAX_UPLOAD_BYTES, ROOTLINE_MAX_DECODED_BYTES, ROOTLINE_LOG_LEVEL, ROOTLINE_LOG_FORMAT,
ROOTLINE_RETENTION, ROOTLINE_UPLOAD_RATE, ROOTLINE_EVENTS_RATE, ROOTLINE_MEMORY_BUDGET,
ROOTLINE_SPOOL_DIR, ROOTLINE_SESSION_TTL, ROOTLINE_INSECURE_COOKIES, and
for sign-in through an OpenID Connect provider ROOTLINE_OIDC_ISSUER, ROOTLINE_OIDC_CLIENT_ID,
ROOTLINE_OIDC_CLIENT_SECRET(_FILE), ROOTLINE_OIDC_REDIRECT_URL, ROOTLINE_OIDC_ALLOWED_EMAILS,
ROOTLINE_OIDC_ALLOWED_DOMAINS and ROOTLINE_OIDC_SCOPE.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := config.Load(cmd.Flags(), os.Getenv)
			var fe *config.FlagError
			var ee *config.EnvError
			switch {
			case errors.As(err, &fe), errors.As(err, &ee):
				return usageError{err}
			case err != nil:
				return err
			}
			if err := cfg.Validate(); err != nil {
				return usageError{err}
			}
			return serve(cmd.Context(), cfg)
		},
	}
	config.DefineFlags(cmd.Flags())
	return cmd
}

func newLogger(cfg config.Config) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, opts))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, opts))
}

// serve runs the server until SIGINT or SIGTERM. Shutdown order: stop accepting connections
// and let requests in flight finish (an upload commits or rolls back whole), then close the
// database.
func serve(parent context.Context, cfg config.Config) error {
	if parent == nil {
		parent = context.Background()
	}
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := newLogger(cfg)
	log.Info("starting rootline", cfg.Dump()...)

	st, err := store.Open(ctx, cfg.Database, log)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Migrate(ctx); err != nil {
		return err
	}
	if cfg.Auth == "on" && cfg.APIToken == "" && cfg.OIDC.Issuer == "" {
		tokens, err := st.ActiveTokens(ctx)
		if err != nil {
			return err
		}
		accounts, err := st.ActiveAccounts(ctx)
		if err != nil {
			return err
		}
		if tokens+accounts == 0 {
			return usageError{errors.New("--auth on needs a way in: set ROOTLINE_API_TOKEN (16 characters or more), make a token with `rootline token create --name NAME --scope write`, add a person with `rootline user add NAME`, or configure ROOTLINE_OIDC_ISSUER")}
		}
	}
	deps := server.StoreDeps(st, log)
	keyPath, err := config.ValueKeyPath(cfg)
	if err != nil {
		return err
	}
	key, created, err := config.LoadValueKey(keyPath)
	if err != nil {
		return err
	}
	if created {
		log.Info("made the installation's value key: keep it with the database, out of its dumps (replicas need the same file: --value-key-file)", "path", keyPath)
	}
	deps.ValueKey = key
	if cfg.OIDC.Issuer != "" {
		// A wrong configuration stops the server; a provider that cannot be reached does not:
		// the server starts, says so, and discovers the provider when a sign-in needs it
		// (which answers 503 until then).
		p, err := oidc.NewLazy(oidc.Config{Issuer: cfg.OIDC.Issuer, ClientID: cfg.OIDC.ClientID, ClientSecret: cfg.OIDC.ClientSecret,
			RedirectURL: cfg.OIDC.RedirectURL, AllowedEmails: cfg.OIDC.AllowedEmails, AllowedDomains: cfg.OIDC.AllowedDomains})
		if err != nil {
			return err
		}
		go func() {
			if _, err := p.Provider(ctx); err != nil {
				log.Warn("the OpenID Connect provider cannot be reached: sign-in through it answers 503 until it can (tried again at the next sign-in, at most every 30 s)",
					"issuer", cfg.OIDC.Issuer, "error", err)
				return
			}
			log.Info("OpenID Connect provider discovered", "issuer", cfg.OIDC.Issuer)
		}()
		deps.OIDC = p
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// The uploads in flight stay within the budget by admission; the soft limit makes the
		// collector work harder before the heap's garbage doubles it.
		debug.SetMemoryLimit(cfg.MemoryBudget + memoryHeadroom)
	}
	srv := server.New(cfg, deps)
	go func() { _ = ingest.WarmUp(ctx) }() // the fast JSON decoders, compiled before the first upload
	// The chain's layout engine, loaded before the first incident page.
	go func() {
		if err := srv.StartLayout(ctx); err != nil && ctx.Err() == nil {
			log.Warn("starting the chain's layout engine; the first page will start it", "error", err)
		}
	}()
	go retention.Loop{Expirer: st, Age: time.Duration(cfg.Retention), Every: cfg.RetentionEvery, Log: log}.Run(ctx)

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	// Requests run under a context of the server's: cancelled when the shutdown's grace runs
	// out, so that work still in flight (a long decode, a query) stops and the process ends.
	reqCtx, cancelRequests := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelRequests()
	hs := &http.Server{
		Handler:           srv.Handler(),
		BaseContext:       func(net.Listener) context.Context { return reqCtx },
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	log.Info("listening", "url", "http://"+ln.Addr().String())

	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down", "timeout", cfg.ShutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		log.Warn("requests still running when the shutdown's grace ran out are cancelled", "error", err)
		cancelRequests()
		_ = hs.Close()
		_ = srv.Close(sctx) // cancels the signature refreshes the requests left
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := srv.Close(sctx); err != nil {
		log.Warn("signature refreshes still running when the shutdown's grace ran out are cancelled", "error", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	log.Info("stopped")
	return nil
}
