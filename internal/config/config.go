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
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/access"
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
	Addr            string          // listen address
	Database        dbtarget.Target // --database / ROOTLINE_DATABASE, parsed
	Auth            string          // "on", "off" or "" (decided by Addr)
	APIToken        string          // with Auth on, a bearer token that may do anything (besides those of `rootline token`)
	MaxUploadBytes  int64           // limit on an upload's body
	MaxDecodedBytes int64           // limit on an upload's decompressed bytes
	ShutdownTimeout time.Duration   // how long in-flight requests get on SIGTERM
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
	ValueKeyFile    string        // the installation's key for ConfigMap values' hashes; "" is ValueKeyPath's default
	Retention       Age           // raw evidence older than this is deleted; 0 keeps it
	RetentionEvery  time.Duration // how often to look for what expired
	SessionTTL      time.Duration // how long a person stays signed in
	InsecureCookies bool          // with Auth on, cookies without Secure: for plain HTTP in tests only
	// OpenIncidentsFor is an alert selector ("severity=critical"): a firing alert it picks, of a
	// cluster with no open incident, opens one (ROOTLINE_OPEN_INCIDENTS_FOR); empty opens none.
	OpenIncidentsFor alert.Selector
	// Prometheus is the Prometheus of each cluster, read over an incident's window on request
	// (ROOTLINE_PROMETHEUS: "URL" for every cluster, or "cluster=URL,cluster=URL"); empty: none.
	Prometheus metrics.Targets
	// PrometheusQueries are the range queries run on them: the default ones, or those of the
	// JSON file ROOTLINE_PROMETHEUS_QUERIES names, read when the configuration is.
	PrometheusQueries []metrics.Query
	// PrometheusStep is the step of the range queries (ROOTLINE_PROMETHEUS_STEP); 0 divides the
	// window into about 500 points.
	PrometheusStep time.Duration
	OIDC           OIDC // optional sign-in through an OpenID Connect provider
}

// OIDC configures sign-in through an OpenID Connect provider; it is off while Issuer is empty.
type OIDC struct {
	Issuer         string       // ROOTLINE_OIDC_ISSUER
	ClientID       string       // ROOTLINE_OIDC_CLIENT_ID
	ClientSecret   string       // ROOTLINE_OIDC_CLIENT_SECRET or ROOTLINE_OIDC_CLIENT_SECRET_FILE
	RedirectURL    string       // ROOTLINE_OIDC_REDIRECT_URL: https://HOST/login/oidc/callback
	AllowedEmails  []string     // ROOTLINE_OIDC_ALLOWED_EMAILS, comma-separated
	AllowedDomains []string     // ROOTLINE_OIDC_ALLOWED_DOMAINS, comma-separated
	Scope          access.Scope // ROOTLINE_OIDC_SCOPE: what people signed in this way may do (default write)
}

// DefaultSessionTTL is how long a sign-in lasts.
const DefaultSessionTTL = 12 * time.Hour

// Default returns the defaults, overridden by the environment (envSettings: ROOTLINE_ADDR,
// ROOTLINE_DATABASE, …; ROOTLINE_DATABASE_FILE and the other _FILE variables read a secret from
// a file), each value parsed once: a bad one is an error naming the variable and its value.
// Flags given on the command line override these in turn (Load).
func Default(getenv func(string) string) (Config, error) {
	c := Config{
		Addr: DefaultAddr, MaxUploadBytes: DefaultMaxBytes, MaxDecodedBytes: DefaultMaxBytes,
		ShutdownTimeout: 20 * time.Second, LogLevel: slog.LevelInfo, LogFormat: "text",
		Retention: DefaultRetention, RetentionEvery: DefaultRetentionEvery,
		UploadRate: DefaultUploadRate, UploadBurst: DefaultUploadBurst, SessionTTL: DefaultSessionTTL,
		EventsRate: DefaultEventsRate, EventsBurst: DefaultEventsBurst, MemoryBudget: DefaultMemoryBudget,
		UploadWait: DefaultUploadWait, UploadTimeout: DefaultUploadTimeout, BodyIdle: DefaultBodyIdle, BodyRate: DefaultBodyRate,
		PrometheusQueries: metrics.DefaultQueries(),
		OIDC:              OIDC{Scope: access.Write},
	}
	var err error
	if c.Database, err = dbtarget.Parse(DefaultDatabase); err != nil {
		return c, fmt.Errorf("config: the default database: %w", err) // not the user's mistake
	}
	for _, s := range envSettings {
		v := getenv(s.env)
		if v == "" {
			continue
		}
		if err := s.set(&c, v); err != nil {
			shown := v
			if s.show != nil {
				shown = s.show(v)
			}
			return c, &EnvError{fmt.Errorf("config: %s=%q: %w", s.env, shown, err)}
		}
	}
	return c, nil
}

// EnvError is an environment variable's value that Default could not take: like a FlagError,
// a mistake in how the server was started.
type EnvError struct{ Err error }

func (e *EnvError) Error() string { return e.Err.Error() }
func (e *EnvError) Unwrap() error { return e.Err }

// Validate checks the settings' ranges and the options against each other, and decides Auth
// when it was left open. The values themselves were parsed when they were read (Default, Load).
func (c *Config) Validate() error {
	for _, check := range []func() error{c.decideAuth, c.checkLimits, c.checkTimes, c.checkRates, c.OIDC.validate} {
		if err := check(); err != nil {
			return fmt.Errorf("config: %w", err)
		}
	}
	return nil
}

// decideAuth turns authentication on beyond loopback when it was left open, and refuses it off
// there.
func (c *Config) decideAuth() error {
	host, _, err := net.SplitHostPort(c.Addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %w", c.Addr, err)
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
		return fmt.Errorf("--auth %q: use on or off", c.Auth)
	}
	if c.Auth == "off" && !loopback {
		return fmt.Errorf("--auth off is refused on %s: beyond loopback anyone could read and write incident data", c.Addr)
	}
	// With auth on and no server token, the tokens made with `rootline token create` are the
	// only way in: serve checks that there is one once the database is open.
	if c.APIToken != "" && len(c.APIToken) < 16 {
		return errors.New("ROOTLINE_API_TOKEN (or ROOTLINE_API_TOKEN_FILE) must be at least 16 characters")
	}
	return nil
}

// checkLimits checks the sizes.
func (c *Config) checkLimits() error {
	switch {
	case c.Database.DSN == "":
		return errors.New("--database: no database given")
	case c.MaxUploadBytes <= 0:
		return fmt.Errorf("--max-upload-bytes %d: must be positive", c.MaxUploadBytes)
	case c.MaxDecodedBytes <= 0:
		return fmt.Errorf("--max-decoded-bytes %d: must be positive", c.MaxDecodedBytes)
	case c.MemoryBudget < 16<<20:
		return fmt.Errorf("--memory-budget %d: 16 MiB at least", c.MemoryBudget)
	case c.BodyRate < 0:
		return fmt.Errorf("--body-rate %d: must not be negative", c.BodyRate)
	}
	return nil
}

// checkTimes checks the durations.
func (c *Config) checkTimes() error {
	switch {
	case c.PrometheusStep != 0 && c.PrometheusStep < time.Second:
		return fmt.Errorf("--prometheus-step %s: a second at least, or 0 for about 500 points a series", c.PrometheusStep)
	case c.Retention > 0 && time.Duration(c.Retention) < time.Hour:
		return fmt.Errorf("--retention %s: keep evidence an hour at least", c.Retention)
	case c.RetentionEvery < time.Minute:
		return fmt.Errorf("--retention-every %s: a minute at least", c.RetentionEvery)
	case c.UploadWait <= 0:
		return fmt.Errorf("--upload-wait %s: must be positive (an upload is given that long to find room)", c.UploadWait)
	case c.UploadTimeout < time.Second:
		return fmt.Errorf("--upload-timeout %s: a second at least", c.UploadTimeout)
	case c.BodyIdle < time.Second:
		return fmt.Errorf("--body-idle %s: a second at least", c.BodyIdle)
	case c.SessionTTL < time.Minute || c.SessionTTL > 90*24*time.Hour:
		return fmt.Errorf("--session-ttl %s: between a minute and 90 days", c.SessionTTL)
	}
	return nil
}

// checkRates checks the rate limits.
func (c *Config) checkRates() error {
	switch {
	case c.UploadRate < 0:
		return fmt.Errorf("--upload-rate %v: 0 (no limit) or more", c.UploadRate)
	case c.UploadBurst < 1:
		return fmt.Errorf("--upload-burst %d: 1 or more", c.UploadBurst)
	case c.EventsRate < 0:
		return fmt.Errorf("--events-rate %v: 0 (no limit) or more", c.EventsRate)
	case c.EventsBurst < 1:
		return fmt.Errorf("--events-burst %d: 1 or more", c.EventsBurst)
	}
	return nil
}

func (o OIDC) validate() error {
	switch {
	case o.Issuer == "":
		return nil
	case o.ClientID == "" || o.ClientSecret == "":
		return errors.New("ROOTLINE_OIDC_ISSUER needs ROOTLINE_OIDC_CLIENT_ID and ROOTLINE_OIDC_CLIENT_SECRET (or ROOTLINE_OIDC_CLIENT_SECRET_FILE)")
	case o.RedirectURL == "":
		return errors.New("ROOTLINE_OIDC_ISSUER needs ROOTLINE_OIDC_REDIRECT_URL, such as https://rootline.example.com/login/oidc/callback")
	case len(o.AllowedEmails) == 0 && len(o.AllowedDomains) == 0:
		return errors.New("ROOTLINE_OIDC_ISSUER needs ROOTLINE_OIDC_ALLOWED_EMAILS or ROOTLINE_OIDC_ALLOWED_DOMAINS: whom the provider may sign in")
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
	return []any{"addr", c.Addr, "database", c.Database.Display, "auth", c.Auth, "api_token_set", c.APIToken != "", "max_upload_bytes", c.MaxUploadBytes,
		"max_decoded_bytes", c.MaxDecodedBytes, "shutdown_timeout", c.ShutdownTimeout.String(), "log_level", c.LogLevel.String(),
		"retention", c.Retention.String(), "retention_every", c.RetentionEvery.String(),
		"session_ttl", c.SessionTTL.String(), "oidc_issuer", c.OIDC.Issuer, "memory_budget", c.MemoryBudget,
		"upload_wait", c.UploadWait.String(), "events_rate", c.EventsRate,
		"open_incidents_for", c.OpenIncidentsFor.String(), "prometheus_clusters", prometheusClusters(c.Prometheus), "prometheus_queries", len(c.PrometheusQueries)}
}

// prometheusClusters names the clusters that have a Prometheus, for the start-up log ("*" for
// the one of every cluster), without the URLs, which may carry credentials.
func prometheusClusters(t metrics.Targets) string {
	names := make([]string, 0, len(t))
	for name := range t {
		if name == "" {
			name = "*"
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return strings.Join(names, ",")
}
