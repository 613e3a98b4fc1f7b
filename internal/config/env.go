package config

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/access"
	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/dbtarget"
	"github.com/rootline-dev/rootline/internal/metrics"
)

// envSetting is an environment variable of `rootline serve`: set parses its value (never
// empty) into the configuration; show, when set, is how an error quotes the value (a database
// URL without its password).
type envSetting struct {
	env  string
	set  func(c *Config, v string) error
	show func(v string) string
}

// envSettings are read in this order, so that a _FILE variable wins over the variable itself.
var envSettings = []envSetting{
	{env: "ROOTLINE_ADDR", set: func(c *Config, v string) error { c.Addr = v; return nil }},
	{env: "ROOTLINE_DATABASE", set: func(c *Config, v string) (err error) { c.Database, err = parseDatabase(v); return err }, show: dbtarget.Redact},
	{env: "ROOTLINE_DATABASE_FILE", set: fromFile(func(c *Config, v string) (err error) { c.Database, err = parseDatabase(v); return err })},
	{env: "ROOTLINE_MAX_UPLOAD_BYTES", set: bytesEnv(func(c *Config) *int64 { return &c.MaxUploadBytes })},
	{env: "ROOTLINE_MAX_DECODED_BYTES", set: bytesEnv(func(c *Config) *int64 { return &c.MaxDecodedBytes })},
	{env: "ROOTLINE_API_TOKEN", set: func(c *Config, v string) error { c.APIToken = v; return nil }, show: hidden},
	{env: "ROOTLINE_API_TOKEN_FILE", set: fromFile(func(c *Config, v string) error { c.APIToken = v; return nil })},
	{env: "ROOTLINE_LOG_LEVEL", set: func(c *Config, v string) error { return c.LogLevel.UnmarshalText([]byte(v)) }},
	{env: "ROOTLINE_LOG_FORMAT", set: func(c *Config, v string) (err error) { c.LogFormat, err = parseLogFormat(v); return err }},
	{env: "ROOTLINE_UPLOAD_RATE", set: rateEnv("uploads", func(c *Config) *float64 { return &c.UploadRate })},
	{env: "ROOTLINE_EVENTS_RATE", set: rateEnv("batches", func(c *Config) *float64 { return &c.EventsRate })},
	{env: "ROOTLINE_OPEN_INCIDENTS_FOR", set: func(c *Config, v string) (err error) { c.OpenIncidentsFor, err = alert.ParseSelector(v); return err }},
	{env: "ROOTLINE_PROMETHEUS", set: func(c *Config, v string) (err error) { c.Prometheus, err = metrics.ParseTargets(v); return err }},
	{env: "ROOTLINE_PROMETHEUS_QUERIES", set: setQueries},
	{env: "ROOTLINE_PROMETHEUS_STEP", set: durationEnv("15s, 1m", func(c *Config) *time.Duration { return &c.PrometheusStep })},
	{env: "ROOTLINE_MEMORY_BUDGET", set: func(c *Config, v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return errors.New("not a positive number of bytes")
		}
		c.MemoryBudget = n
		return nil
	}},
	{env: "ROOTLINE_SPOOL_DIR", set: func(c *Config, v string) error { c.SpoolDir = v; return nil }},
	{env: "ROOTLINE_VALUE_KEY_FILE", set: func(c *Config, v string) error { c.ValueKeyFile = v; return nil }},
	{env: "ROOTLINE_RETENTION", set: func(c *Config, v string) error { return c.Retention.Set(v) }},
	{env: "ROOTLINE_SESSION_TTL", set: durationEnv("12h", func(c *Config) *time.Duration { return &c.SessionTTL })},
	{env: "ROOTLINE_INSECURE_COOKIES", set: func(c *Config, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return errors.New("use true or false")
		}
		c.InsecureCookies = b
		return nil
	}},
	{env: "ROOTLINE_OIDC_ISSUER", set: func(c *Config, v string) error { c.OIDC.Issuer = v; return nil }},
	{env: "ROOTLINE_OIDC_CLIENT_ID", set: func(c *Config, v string) error { c.OIDC.ClientID = v; return nil }},
	{env: "ROOTLINE_OIDC_CLIENT_SECRET", set: func(c *Config, v string) error { c.OIDC.ClientSecret = v; return nil }, show: hidden},
	{env: "ROOTLINE_OIDC_CLIENT_SECRET_FILE", set: fromFile(func(c *Config, v string) error { c.OIDC.ClientSecret = v; return nil })},
	{env: "ROOTLINE_OIDC_REDIRECT_URL", set: func(c *Config, v string) (err error) { c.OIDC.RedirectURL, err = parseRedirectURL(v); return err }},
	{env: "ROOTLINE_OIDC_ALLOWED_EMAILS", set: func(c *Config, v string) error { c.OIDC.AllowedEmails = splitList(v); return nil }},
	{env: "ROOTLINE_OIDC_ALLOWED_DOMAINS", set: func(c *Config, v string) error { c.OIDC.AllowedDomains = splitList(v); return nil }},
	{env: "ROOTLINE_OIDC_SCOPE", set: func(c *Config, v string) (err error) { c.OIDC.Scope, err = access.ParseScope(v); return err }},
}

// hidden is how an error quotes a secret.
func hidden(string) string { return "…" }

// fromFile reads a secret from the file a _FILE variable names, then sets it as set would.
func fromFile(set func(c *Config, v string) error) func(c *Config, path string) error {
	return func(c *Config, path string) error {
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return set(c, strings.TrimSpace(string(b)))
	}
}

func bytesEnv(field func(*Config) *int64) func(c *Config, v string) error {
	return func(c *Config, v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return errors.New("not a number of bytes")
		}
		*field(c) = n
		return nil
	}
}

func rateEnv(what string, field func(*Config) *float64) func(c *Config, v string) error {
	return func(c *Config, v string) error {
		r, err := strconv.ParseFloat(v, 64)
		if err != nil || r < 0 {
			return fmt.Errorf("not a number of %s a minute", what)
		}
		*field(c) = r
		return nil
	}
}

func durationEnv(example string, field func(*Config) *time.Duration) func(c *Config, v string) error {
	return func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("not a duration such as %s", example)
		}
		*field(c) = d
		return nil
	}
}

// parseDatabase reads --database: a SQLite file, sqlite://PATH, or a PostgreSQL URL or
// keyword string.
func parseDatabase(v string) (dbtarget.Target, error) { return dbtarget.Parse(v) }

// setQueries reads the file of Prometheus queries a setting names; "" keeps the default ones.
func setQueries(c *Config, path string) (err error) {
	if path == "" {
		c.PrometheusQueries = metrics.DefaultQueries()
		return nil
	}
	c.PrometheusQueries, err = metrics.LoadQueries(path)
	return err
}

// parseLogFormat reads --log-format.
func parseLogFormat(v string) (string, error) {
	if v != "text" && v != "json" {
		return "", errors.New("use text or json")
	}
	return v, nil
}

// parseRedirectURL reads ROOTLINE_OIDC_REDIRECT_URL: an absolute http(s) URL.
func parseRedirectURL(v string) (string, error) {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", errors.New("an absolute http:// or https:// URL is needed, such as https://rootline.example.com/login/oidc/callback")
	}
	return v, nil
}

// splitList reads a comma-separated list, its blanks left out.
func splitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
