// Package config holds the server's settings: one struct, filled from flags and the
// environment with defaults, then checked as a whole by Validate. It is passed down
// explicitly; there is no global configuration.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/dbtarget"
	"github.com/rootline-dev/rootline/internal/metrics"
)

// Defaults.
const (
	DefaultAddr     = "127.0.0.1:8080"
	DefaultDatabase = "rootline.db"
	DefaultMaxBytes = 256 << 20

	// DefaultRetention is how long raw evidence is kept: events, snapshots' objects, collected
	// states, alerts. Incidents, reports, notes and signatures are kept for ever.
	DefaultRetention = Age(90 * 24 * time.Hour)
	// DefaultRetentionEvery is how often expired evidence is looked for.
	DefaultRetentionEvery = time.Hour

	// DefaultUploadRate and DefaultUploadBurst bound the uploads of one token: 30 a minute,
	// 10 at once.
	DefaultUploadRate  = 30
	DefaultUploadBurst = 10

	// DefaultEventsRate and DefaultEventsBurst bound the batches of one collector's token
	// (POST /api/v1/events): `rootline collect` sends at most one batch of 500 objects every
	// 2 s (30 a minute) once it runs, and up to a few hundred at once when it lists a large
	// cluster first or delivers its backlog after an outage; it waits on 429 and sends again.
	DefaultEventsRate  = 120
	DefaultEventsBurst = 300

	// DefaultMemoryBudget bounds the memory of the uploads and batches being decoded and
	// stored at once (their estimated cost; the rest wait in the spool): 1 GiB.
	DefaultMemoryBudget = 1 << 30
	// DefaultUploadWait is how long an upload waits in the spool for its share of the budget
	// before it is answered 503 with Retry-After.
	DefaultUploadWait = time.Minute
	// DefaultUploadTimeout bounds the decoding and storing of one upload, once it runs.
	DefaultUploadTimeout = 10 * time.Minute
	// DefaultBodyIdle and DefaultBodyRate bound a slow client: a request body that sends
	// nothing for 30 s, or less than 16 KiB/s on average once its first 30 s are over, is cut
	// with 408.
	DefaultBodyIdle = 30 * time.Second
	DefaultBodyRate = 16 << 10
)

// Age is a duration that may also be written in days ("90d"); "0" or "off" means never.
type Age time.Duration

// String writes whole days as days.
func (a Age) String() string {
	d := time.Duration(a)
	if d > 0 && d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	}
	return d.String()
}

// Set reads "90d", "36h", "0" or "off".
func (a *Age) Set(v string) error {
	v = strings.TrimSpace(v)
	switch {
	case v == "off" || v == "0":
		*a = 0
		return nil
	case strings.HasSuffix(v, "d"):
		n, err := strconv.Atoi(strings.TrimSuffix(v, "d"))
		if err != nil || n < 0 || n > 100*365 {
			return fmt.Errorf("%q: want a number of days such as 90d", v)
		}
		*a = Age(time.Duration(n) * 24 * time.Hour)
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return fmt.Errorf("%q: want a number of days (90d), a duration (36h), or off", v)
	}
	*a = Age(d)
	return nil
}

// Type names the flag's kind in help.
func (a *Age) Type() string { return "age" }

// Config is the effective configuration of `rootline serve`.
type Config struct {
	Addr            string        // listen address
	Database        string        // --database / ROOTLINE_DATABASE
	Auth            string        // "on", "off" or "" (decided by Addr)
	APIToken        string        // with Auth on, a bearer token that may do anything (besides those of `rootline token`)
	MaxUploadBytes  int64         // limit on an upload's body
	MaxDecodedBytes int64         // limit on an upload's decompressed bytes
	ShutdownTimeout time.Duration // how long in-flight requests get on SIGTERM
	LogLevel        slog.Level
	LogFormat       string        // "text" or "json"
	UploadRate      float64       // uploads a minute per token (auth on); 0: no limit
	UploadBurst     int           // uploads at once beyond the rate
	EventsRate      float64       // collector batches a minute per token (auth on); 0: no limit
	EventsBurst     int           // batches at once beyond the rate
	MemoryBudget    int64         // bytes the uploads in flight may cost together (ROOTLINE_MEMORY_BUDGET)
	UploadWait      time.Duration // longest wait in the spool for the budget before 503
	UploadTimeout   time.Duration // longest decoding and storing of one upload
	BodyIdle        time.Duration // a request body silent this long is cut (408)
	BodyRate        int64         // bytes a second a body must average after BodyIdle (408 otherwise)
	SpoolDir        string        // where uploads are received; "" is rootline-spool in the temporary folder
	Retention       Age           // raw evidence older than this is deleted; 0 keeps it
	RetentionEvery  time.Duration // how often to look for what expired
	SessionTTL      time.Duration // how long a person stays signed in
	InsecureCookies bool          // with Auth on, cookies without Secure: for plain HTTP in tests only
	// OpenIncidentsFor is an alert selector ("severity=critical"): a firing alert it picks, of a
	// cluster with no open incident, opens one (ROOTLINE_OPEN_INCIDENTS_FOR); "" opens none.
	OpenIncidentsFor string
	// Prometheus is the Prometheus of each cluster, read over an incident's window on request
	// (ROOTLINE_PROMETHEUS): "URL" for every cluster, or "cluster=URL,cluster=URL".
	Prometheus string
	// PrometheusQueries is a JSON file of the queries to run instead of the default ones
	// (ROOTLINE_PROMETHEUS_QUERIES); "" runs the default ones.
	PrometheusQueries string
	// PrometheusStep is the step of the range queries (ROOTLINE_PROMETHEUS_STEP); 0 divides the
	// window into about 500 points.
	PrometheusStep time.Duration
	OIDC           OIDC // optional sign-in through an OpenID Connect provider
}

// OIDC configures sign-in through an OpenID Connect provider; it is off while Issuer is empty.
type OIDC struct {
	Issuer         string   // ROOTLINE_OIDC_ISSUER
	ClientID       string   // ROOTLINE_OIDC_CLIENT_ID
	ClientSecret   string   // ROOTLINE_OIDC_CLIENT_SECRET or ROOTLINE_OIDC_CLIENT_SECRET_FILE
	RedirectURL    string   // ROOTLINE_OIDC_REDIRECT_URL: https://HOST/login/oidc/callback
	AllowedEmails  []string // ROOTLINE_OIDC_ALLOWED_EMAILS, comma-separated
	AllowedDomains []string // ROOTLINE_OIDC_ALLOWED_DOMAINS, comma-separated
	Scope          string   // ROOTLINE_OIDC_SCOPE: what people signed in this way may do (default write)
}

// DefaultSessionTTL is how long a sign-in lasts.
const DefaultSessionTTL = 12 * time.Hour

func splitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Default returns the defaults, overridden by the environment (ROOTLINE_DATABASE,
// ROOTLINE_ADDR, ROOTLINE_MAX_UPLOAD_BYTES, ROOTLINE_MAX_DECODED_BYTES, ROOTLINE_LOG_LEVEL,
// ROOTLINE_LOG_FORMAT, ROOTLINE_RETENTION, ROOTLINE_UPLOAD_RATE; ROOTLINE_DATABASE_FILE reads the database URL from a file, for secrets).
// Flags given on the command line override these in turn.
func Default(getenv func(string) string) (Config, error) {
	c := Config{
		Addr: DefaultAddr, Database: DefaultDatabase, MaxUploadBytes: DefaultMaxBytes, MaxDecodedBytes: DefaultMaxBytes,
		ShutdownTimeout: 20 * time.Second, LogLevel: slog.LevelInfo, LogFormat: "text",
		Retention: DefaultRetention, RetentionEvery: DefaultRetentionEvery,
		UploadRate: DefaultUploadRate, UploadBurst: DefaultUploadBurst, SessionTTL: DefaultSessionTTL,
		EventsRate: DefaultEventsRate, EventsBurst: DefaultEventsBurst, MemoryBudget: DefaultMemoryBudget,
		UploadWait: DefaultUploadWait, UploadTimeout: DefaultUploadTimeout, BodyIdle: DefaultBodyIdle, BodyRate: DefaultBodyRate,
		OIDC: OIDC{Scope: "write"},
	}
	if v := getenv("ROOTLINE_ADDR"); v != "" {
		c.Addr = v
	}
	if v := getenv("ROOTLINE_DATABASE"); v != "" {
		c.Database = v
	}
	if f := getenv("ROOTLINE_DATABASE_FILE"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			return c, fmt.Errorf("config: ROOTLINE_DATABASE_FILE: %w", err)
		}
		c.Database = strings.TrimSpace(string(b))
	}
	for _, e := range []struct {
		name string
		dst  *int64
	}{{"ROOTLINE_MAX_UPLOAD_BYTES", &c.MaxUploadBytes}, {"ROOTLINE_MAX_DECODED_BYTES", &c.MaxDecodedBytes}} {
		if v := getenv(e.name); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return c, fmt.Errorf("config: %s=%q: not a number of bytes", e.name, v)
			}
			*e.dst = n
		}
	}
	c.APIToken = getenv("ROOTLINE_API_TOKEN")
	if f := getenv("ROOTLINE_API_TOKEN_FILE"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			return c, fmt.Errorf("config: ROOTLINE_API_TOKEN_FILE: %w", err)
		}
		c.APIToken = strings.TrimSpace(string(b))
	}
	if v := getenv("ROOTLINE_LOG_LEVEL"); v != "" {
		if err := c.LogLevel.UnmarshalText([]byte(v)); err != nil {
			return c, fmt.Errorf("config: ROOTLINE_LOG_LEVEL: %w", err)
		}
	}
	if v := getenv("ROOTLINE_LOG_FORMAT"); v != "" {
		c.LogFormat = v
	}
	if v := getenv("ROOTLINE_UPLOAD_RATE"); v != "" {
		r, err := strconv.ParseFloat(v, 64)
		if err != nil || r < 0 {
			return c, fmt.Errorf("config: ROOTLINE_UPLOAD_RATE=%q: not a number of uploads a minute", v)
		}
		c.UploadRate = r
	}
	if v := getenv("ROOTLINE_EVENTS_RATE"); v != "" {
		r, err := strconv.ParseFloat(v, 64)
		if err != nil || r < 0 {
			return c, fmt.Errorf("config: ROOTLINE_EVENTS_RATE=%q: not a number of batches a minute", v)
		}
		c.EventsRate = r
	}
	c.OpenIncidentsFor = getenv("ROOTLINE_OPEN_INCIDENTS_FOR")
	c.Prometheus = getenv("ROOTLINE_PROMETHEUS")
	c.PrometheusQueries = getenv("ROOTLINE_PROMETHEUS_QUERIES")
	if v := getenv("ROOTLINE_PROMETHEUS_STEP"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return c, fmt.Errorf("config: ROOTLINE_PROMETHEUS_STEP=%q: not a duration (15s, 1m)", v)
		}
		c.PrometheusStep = d
	}
	if v := getenv("ROOTLINE_MEMORY_BUDGET"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return c, fmt.Errorf("config: ROOTLINE_MEMORY_BUDGET=%q: not a positive number of bytes", v)
		}
		c.MemoryBudget = n
	}
	c.SpoolDir = getenv("ROOTLINE_SPOOL_DIR")
	if v := getenv("ROOTLINE_RETENTION"); v != "" {
		if err := c.Retention.Set(v); err != nil {
			return c, fmt.Errorf("config: ROOTLINE_RETENTION: %w", err)
		}
	}
	if v := getenv("ROOTLINE_SESSION_TTL"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return c, fmt.Errorf("config: ROOTLINE_SESSION_TTL=%q: not a duration such as 12h", v)
		}
		c.SessionTTL = d
	}
	if v := getenv("ROOTLINE_INSECURE_COOKIES"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return c, fmt.Errorf("config: ROOTLINE_INSECURE_COOKIES=%q: use true or false", v)
		}
		c.InsecureCookies = b
	}
	c.OIDC.Issuer = getenv("ROOTLINE_OIDC_ISSUER")
	c.OIDC.ClientID = getenv("ROOTLINE_OIDC_CLIENT_ID")
	c.OIDC.ClientSecret = getenv("ROOTLINE_OIDC_CLIENT_SECRET")
	if f := getenv("ROOTLINE_OIDC_CLIENT_SECRET_FILE"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			return c, fmt.Errorf("config: ROOTLINE_OIDC_CLIENT_SECRET_FILE: %w", err)
		}
		c.OIDC.ClientSecret = strings.TrimSpace(string(b))
	}
	c.OIDC.RedirectURL = getenv("ROOTLINE_OIDC_REDIRECT_URL")
	c.OIDC.AllowedEmails = splitList(getenv("ROOTLINE_OIDC_ALLOWED_EMAILS"))
	c.OIDC.AllowedDomains = splitList(getenv("ROOTLINE_OIDC_ALLOWED_DOMAINS"))
	if v := getenv("ROOTLINE_OIDC_SCOPE"); v != "" {
		c.OIDC.Scope = v
	}
	return c, nil
}

// Validate checks the options against each other and decides Auth when it was left open.
func (c *Config) Validate() error {
	host, _, err := net.SplitHostPort(c.Addr)
	if err != nil {
		return fmt.Errorf("config: --addr %q: %w", c.Addr, err)
	}
	loopback := isLoopback(host)
	switch c.Auth {
	case "":
		c.Auth = "off"
		if !loopback {
			c.Auth = "on"
		}
	case "on", "off":
	default:
		return fmt.Errorf("config: --auth %q: use on or off", c.Auth)
	}
	if c.Auth == "off" && !loopback {
		return fmt.Errorf("config: --auth off is refused on %s: beyond loopback anyone could read and write incident data", c.Addr)
	}
	// With auth on and no server token, the tokens made with `rootline token create` are the
	// only way in: serve checks that there is one once the database is open.
	if c.APIToken != "" && len(c.APIToken) < 16 {
		return errors.New("config: ROOTLINE_API_TOKEN (or ROOTLINE_API_TOKEN_FILE) must be at least 16 characters")
	}
	if c.MaxUploadBytes <= 0 || c.MaxDecodedBytes <= 0 {
		return errors.New("config: upload limits must be positive")
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return fmt.Errorf("config: log format %q: use text or json", c.LogFormat)
	}
	if _, err := dbtarget.Parse(c.Database); err != nil {
		return fmt.Errorf("config: --database: %w", err)
	}
	if _, err := alert.ParseSelector(c.OpenIncidentsFor); err != nil {
		return fmt.Errorf("config: --open-incidents-for: %w", err)
	}
	if _, err := metrics.ParseTargets(c.Prometheus); err != nil {
		return fmt.Errorf("config: --prometheus: %w", err)
	}
	if c.PrometheusStep != 0 && c.PrometheusStep < time.Second {
		return fmt.Errorf("config: --prometheus-step %s: a second at least, or 0 for about 500 points a series", c.PrometheusStep)
	}
	if c.PrometheusQueries != "" {
		if _, err := metrics.LoadQueries(c.PrometheusQueries); err != nil {
			return fmt.Errorf("config: --prometheus-queries: %w", err)
		}
	}
	if c.Retention > 0 && time.Duration(c.Retention) < time.Hour {
		return fmt.Errorf("config: --retention %s: keep evidence an hour at least", c.Retention)
	}
	if c.UploadRate < 0 || c.UploadBurst < 1 {
		return errors.New("config: --upload-rate must be 0 (no limit) or more, --upload-burst 1 or more")
	}
	if c.EventsRate < 0 || c.EventsBurst < 1 {
		return errors.New("config: --events-rate must be 0 (no limit) or more, --events-burst 1 or more")
	}
	if c.MemoryBudget < 16<<20 {
		return fmt.Errorf("config: --memory-budget %d: 16 MiB at least", c.MemoryBudget)
	}
	if c.UploadWait < 0 || c.UploadTimeout < time.Second || c.BodyIdle < time.Second || c.BodyRate < 0 {
		return errors.New("config: --upload-wait must not be negative, --upload-timeout and --body-idle a second at least, --body-rate not negative")
	}
	if c.RetentionEvery < time.Minute {
		return fmt.Errorf("config: --retention-every %s: a minute at least", c.RetentionEvery)
	}
	if c.SessionTTL < time.Minute || c.SessionTTL > 90*24*time.Hour {
		return fmt.Errorf("config: --session-ttl %s: between a minute and 90 days", c.SessionTTL)
	}
	return c.OIDC.validate()
}

func (o OIDC) validate() error {
	if o.Issuer == "" {
		return nil
	}
	switch {
	case o.ClientID == "" || o.ClientSecret == "":
		return errors.New("config: ROOTLINE_OIDC_ISSUER needs ROOTLINE_OIDC_CLIENT_ID and ROOTLINE_OIDC_CLIENT_SECRET (or ROOTLINE_OIDC_CLIENT_SECRET_FILE)")
	case o.RedirectURL == "":
		return errors.New("config: ROOTLINE_OIDC_ISSUER needs ROOTLINE_OIDC_REDIRECT_URL, such as https://rootline.example.com/login/oidc/callback")
	case len(o.AllowedEmails) == 0 && len(o.AllowedDomains) == 0:
		return errors.New("config: ROOTLINE_OIDC_ISSUER needs ROOTLINE_OIDC_ALLOWED_EMAILS or ROOTLINE_OIDC_ALLOWED_DOMAINS: whom the provider may sign in")
	}
	switch o.Scope {
	case "read", "write", "admin":
	default:
		return fmt.Errorf("config: ROOTLINE_OIDC_SCOPE %q: use read, write or admin", o.Scope)
	}
	return nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// Dump returns the configuration for the start-up log, with the database password removed.
func (c Config) Dump() []any {
	db := dbtarget.Redact(c.Database)
	if t, err := dbtarget.Parse(c.Database); err == nil {
		db = t.Display
	}
	return []any{"addr", c.Addr, "database", db, "auth", c.Auth, "api_token_set", c.APIToken != "", "max_upload_bytes", c.MaxUploadBytes,
		"max_decoded_bytes", c.MaxDecodedBytes, "shutdown_timeout", c.ShutdownTimeout.String(), "log_level", c.LogLevel.String(),
		"retention", c.Retention.String(), "retention_every", c.RetentionEvery.String(),
		"session_ttl", c.SessionTTL.String(), "oidc_issuer", c.OIDC.Issuer, "memory_budget", c.MemoryBudget,
		"upload_wait", c.UploadWait.String(), "events_rate", c.EventsRate}
}
