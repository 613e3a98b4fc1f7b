package config

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/dbtarget"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name     string
		addr     string
		auth     string
		token    string
		database string
		wantAuth string
		wantErr  string
	}{
		{"loopback default", "127.0.0.1:8080", "", "", "rootline.db", "off", ""},
		{"localhost", "localhost:9000", "", "", "rootline.db", "off", ""},
		{"ipv6 loopback", "[::1]:8080", "", "", "rootline.db", "off", ""},
		{"all interfaces defaults to auth on", "0.0.0.0:8080", "", "0123456789abcdef", "rootline.db", "on", ""},
		{"auth off beyond loopback", "0.0.0.0:8080", "off", "", "rootline.db", "", "--auth off is refused"},
		{"auth on without the server's token (tokens in the database)", "0.0.0.0:8080", "on", "", "rootline.db", "on", ""},
		{"short token", "127.0.0.1:8080", "on", "short", "rootline.db", "", "at least 16"},
		{"bad auth value", "127.0.0.1:8080", "maybe", "", "rootline.db", "", "use on or off"},
		{"bad address", "8080", "", "", "rootline.db", "", "--addr"},
		{"no database", "127.0.0.1:8080", "", "", "", "", "--database"},
		{"postgres", "127.0.0.1:8080", "", "", "postgres://u@h/db", "off", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Default(func(string) string { return "" })
			if err != nil {
				t.Fatal(err)
			}
			c.Addr, c.Auth, c.APIToken = tt.addr, tt.auth, tt.token
			c.Database = dbtarget.Target{}
			if tt.database != "" {
				if c.Database, err = dbtarget.Parse(tt.database); err != nil {
					t.Fatal(err)
				}
			}
			err = c.Validate()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Auth != tt.wantAuth {
				t.Errorf("auth = %q, want %q", c.Auth, tt.wantAuth)
			}
		})
	}
}

func TestDefaultFromEnvironment(t *testing.T) {
	env := map[string]string{"ROOTLINE_DATABASE": "postgres://u:pw@h/db", "ROOTLINE_MAX_UPLOAD_BYTES": "1024", "ROOTLINE_LOG_LEVEL": "debug"}
	c, err := Default(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if c.Database.DSN != env["ROOTLINE_DATABASE"] || c.MaxUploadBytes != 1024 || c.LogLevel.String() != "DEBUG" {
		t.Errorf("config = %+v", c)
	}
	for _, kv := range c.Dump() {
		if s, ok := kv.(string); ok && strings.Contains(s, "pw") {
			t.Errorf("Dump shows the password: %v", c.Dump())
		}
	}
	if _, err := Default(func(k string) string { return map[string]string{"ROOTLINE_MAX_UPLOAD_BYTES": "lots"}[k] }); err == nil {
		t.Error("a non-numeric limit was accepted")
	}
}

// TestRetention: ages in days, durations or off, from flags or the environment; too short an
// age is refused.
func TestRetention(t *testing.T) {
	for in, want := range map[string]time.Duration{"90d": 90 * 24 * time.Hour, "36h": 36 * time.Hour, "off": 0, "0": 0, " 7d ": 7 * 24 * time.Hour} {
		var a Age
		if err := a.Set(in); err != nil || time.Duration(a) != want {
			t.Errorf("Set(%q) = %v, %v; want %v", in, time.Duration(a), err, want)
		}
	}
	for _, in := range []string{"", "ninety", "-1d", "-5h", "3x", "1.5d"} {
		var a Age
		if err := a.Set(in); err == nil {
			t.Errorf("Set(%q) was accepted", in)
		}
	}
	if got := DefaultRetention.String(); got != "90d" {
		t.Errorf("the default reads %q", got)
	}
	c, err := Default(func(k string) string { return map[string]string{"ROOTLINE_RETENTION": "30d"}[k] })
	if err != nil || time.Duration(c.Retention) != 30*24*time.Hour || c.RetentionEvery != time.Hour {
		t.Errorf("ROOTLINE_RETENTION=30d: %v, %v, %v", c.Retention, c.RetentionEvery, err)
	}
	if _, err := Default(func(k string) string { return map[string]string{"ROOTLINE_RETENTION": "soon"}[k] }); err == nil {
		t.Error("ROOTLINE_RETENTION=soon was accepted")
	}
	c, _ = Default(func(string) string { return "" })
	c.Retention = Age(time.Minute)
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "--retention") {
		t.Errorf("a retention of a minute: %v", err)
	}
}

// TestUploadRate: the default, the environment, and what Validate refuses.
func TestUploadRate(t *testing.T) {
	c, err := Default(func(k string) string { return map[string]string{"ROOTLINE_UPLOAD_RATE": "120"}[k] })
	if err != nil || c.UploadRate != 120 || c.UploadBurst != DefaultUploadBurst {
		t.Errorf("ROOTLINE_UPLOAD_RATE=120: %v, %v, %v", c.UploadRate, c.UploadBurst, err)
	}
	if _, err := Default(func(k string) string { return map[string]string{"ROOTLINE_UPLOAD_RATE": "-1"}[k] }); err == nil {
		t.Error("a negative rate was accepted")
	}
	c, _ = Default(func(string) string { return "" })
	c.UploadBurst = 0
	if err := c.Validate(); err == nil {
		t.Error("a burst of 0 was accepted")
	}
}

// TestDumpHidesPasswords: the start log names the database without its password, whether or
// not the string parses.
func TestDumpHidesPasswords(t *testing.T) {
	for _, db := range []string{"postgres://u:hun%zzter2@db/x", "postgres://u:hunter2@db/x", "host=db password=hunter2 user=u"} {
		c, err := Default(func(k string) string { return map[string]string{"ROOTLINE_DATABASE": db}[k] })
		if err != nil && (strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "zzter2")) {
			t.Errorf("%s: the error shows the password: %v", db, err)
		}
		got := fmt.Sprint(c.Dump()...)
		if strings.Contains(got, "hunter2") || strings.Contains(got, "zzter2") {
			t.Errorf("%s: Dump shows the password: %s", db, got)
		}
	}
}

// TestLoad: each setting is its flag's value when the command line gives it, else the
// environment's, else its default; a flag's bad value is a FlagError, the environment's not.
func TestLoad(t *testing.T) {
	env := map[string]string{"ROOTLINE_ADDR": "0.0.0.0:9000", "ROOTLINE_LOG_LEVEL": "warn", "ROOTLINE_RETENTION": "30d",
		"ROOTLINE_UPLOAD_RATE": "5", "ROOTLINE_API_TOKEN": "from-the-environment-0123456789"}
	getenv := func(k string) string { return env[k] }
	load := func(args ...string) (Config, error) {
		t.Helper()
		fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
		DefineFlags(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return Load(fs, getenv)
	}
	c, err := load("--addr", "127.0.0.1:7000", "--log-level", "debug", "--body-idle", "5s", "--insecure-cookies")
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("%s %s %s %v %s %v %s %d", c.Addr, c.LogLevel, c.Retention, c.UploadRate, c.BodyIdle, c.InsecureCookies, c.APIToken, c.MaxUploadBytes)
	want := fmt.Sprintf("127.0.0.1:7000 DEBUG 30d 5 5s true from-the-environment-0123456789 %d", DefaultMaxBytes)
	if got != want {
		t.Errorf("flags over the environment over the defaults:\ngot  %s\nwant %s", got, want)
	}
	c, err = load()
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "0.0.0.0:9000" || c.LogLevel != slog.LevelWarn || c.BodyIdle != DefaultBodyIdle || c.ShutdownTimeout != 20*time.Second {
		t.Errorf("no flags: %s %s %s %s; want the environment's, else the defaults", c.Addr, c.LogLevel, c.BodyIdle, c.ShutdownTimeout)
	}
	var fe *FlagError
	if _, err := load("--log-level", "loud"); !errors.As(err, &fe) || !strings.Contains(err.Error(), "--log-level") {
		t.Errorf("a bad flag: %v, want a FlagError naming it", err)
	}
	env["ROOTLINE_UPLOAD_RATE"] = "lots"
	var ee *EnvError
	if _, err := load(); !errors.As(err, &ee) || errors.As(err, &fe) {
		t.Errorf("a bad environment variable: %v, want an EnvError, not a FlagError", err)
	}
}

// TestOpenIncidentsFor: the alert selector comes from ROOTLINE_OPEN_INCIDENTS_FOR (or its
// flag) and one that is not name=value is refused.
func TestOpenIncidentsFor(t *testing.T) {
	c, err := Default(func(k string) string { return map[string]string{"ROOTLINE_OPEN_INCIDENTS_FOR": "severity=critical"}[k] })
	want := alert.Selector{{Name: "severity", Value: "critical"}}
	if err != nil || !slices.Equal(c.OpenIncidentsFor, want) || c.Validate() != nil {
		t.Errorf("ROOTLINE_OPEN_INCIDENTS_FOR=severity=critical: %v, %v, %v", c.OpenIncidentsFor, err, c.Validate())
	}
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	DefineFlags(fs)
	if err := fs.Parse([]string{"--open-incidents-for", "critical"}); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(fs, func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "--open-incidents-for") {
		t.Errorf("a selector without a value: %v", err)
	}
}

// TestEnvironmentParsed: each variable is parsed once, into the value the server uses; a bad
// one is refused with an error that names the variable and its value (a secret's value
// hidden).
func TestEnvironmentParsed(t *testing.T) {
	queries := filepath.Join(t.TempDir(), "queries.json")
	if err := os.WriteFile(queries, []byte(`[{"name": "up", "query": "up"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	good := map[string]string{
		"ROOTLINE_DATABASE": "postgres://u:pw@db/rootline", "ROOTLINE_PROMETHEUS": "http://prom:9090,leap=https://leap:9090",
		"ROOTLINE_PROMETHEUS_QUERIES": queries, "ROOTLINE_PROMETHEUS_STEP": "30s", "ROOTLINE_OIDC_SCOPE": "read",
		"ROOTLINE_OPEN_INCIDENTS_FOR": "severity=critical,team=data", "ROOTLINE_LOG_FORMAT": "json",
		"ROOTLINE_OIDC_REDIRECT_URL": "https://rootline.example.com/login/oidc/callback", "ROOTLINE_MEMORY_BUDGET": "33554432",
	}
	c, err := Default(func(k string) string { return good[k] })
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("%s %s|%v|%v|%s|%s|%v|%s|%d", c.Database.Dialect, c.Database.Display, c.Prometheus, c.PrometheusQueries,
		c.PrometheusStep, c.OIDC.Scope, c.OpenIncidentsFor, c.LogFormat, c.MemoryBudget)
	want := "postgres postgres://u:xxxxx@db/rootline|map[:http://prom:9090 leap:https://leap:9090]|[{up up }]|30s|read|severity=critical,team=data|json|33554432"
	if got != want {
		t.Errorf("parsed:\ngot  %s\nwant %s", got, want)
	}
	dump := fmt.Sprint(c.Dump()...)
	for _, w := range []string{"open_incidents_forseverity=critical,team=data", "prometheus_clusters*,leap", "databasepostgres://u:xxxxx@db/rootline"} {
		if !strings.Contains(dump, w) {
			t.Errorf("the start-up log lacks %q: %s", w, dump)
		}
	}
	if d, _ := Default(func(string) string { return "" }); len(d.PrometheusQueries) == 0 || d.Database.Display != DefaultDatabase {
		t.Errorf("the defaults: %d queries, database %q; want the default queries and %s", len(d.PrometheusQueries), d.Database.Display, DefaultDatabase)
	}

	for _, tt := range []struct{ key, value, want string }{
		{"ROOTLINE_DATABASE", "mysql://u:hunter2@db/x", `ROOTLINE_DATABASE="mysql://u:xxxxx@db/x"`},
		{"ROOTLINE_DATABASE_FILE", "/nonexistent/db", `ROOTLINE_DATABASE_FILE="/nonexistent/db"`},
		{"ROOTLINE_MAX_UPLOAD_BYTES", "lots", `ROOTLINE_MAX_UPLOAD_BYTES="lots": not a number of bytes`},
		{"ROOTLINE_MAX_DECODED_BYTES", "1e9", `ROOTLINE_MAX_DECODED_BYTES="1e9"`},
		{"ROOTLINE_LOG_LEVEL", "loud", `ROOTLINE_LOG_LEVEL="loud"`},
		{"ROOTLINE_LOG_FORMAT", "xml", `ROOTLINE_LOG_FORMAT="xml": use text or json`},
		{"ROOTLINE_UPLOAD_RATE", "-1", `ROOTLINE_UPLOAD_RATE="-1"`},
		{"ROOTLINE_EVENTS_RATE", "many", `ROOTLINE_EVENTS_RATE="many"`},
		{"ROOTLINE_OPEN_INCIDENTS_FOR", "critical", `ROOTLINE_OPEN_INCIDENTS_FOR="critical"`},
		{"ROOTLINE_PROMETHEUS", "prom:9090", `ROOTLINE_PROMETHEUS="prom:9090"`},
		{"ROOTLINE_PROMETHEUS_QUERIES", "/nonexistent/queries.json", `ROOTLINE_PROMETHEUS_QUERIES="/nonexistent/queries.json"`},
		{"ROOTLINE_PROMETHEUS_STEP", "often", `ROOTLINE_PROMETHEUS_STEP="often"`},
		{"ROOTLINE_MEMORY_BUDGET", "0", `ROOTLINE_MEMORY_BUDGET="0": not a positive number of bytes`},
		{"ROOTLINE_RETENTION", "soon", `ROOTLINE_RETENTION="soon"`},
		{"ROOTLINE_SESSION_TTL", "a day", `ROOTLINE_SESSION_TTL="a day"`},
		{"ROOTLINE_INSECURE_COOKIES", "maybe", `ROOTLINE_INSECURE_COOKIES="maybe": use true or false`},
		{"ROOTLINE_OIDC_REDIRECT_URL", "/login/oidc/callback", `ROOTLINE_OIDC_REDIRECT_URL="/login/oidc/callback"`},
		{"ROOTLINE_OIDC_SCOPE", "root", `ROOTLINE_OIDC_SCOPE="root"`},
	} {
		_, err := Default(func(k string) string { return map[string]string{tt.key: tt.value}[k] })
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s=%s: %v, want an error holding %s", tt.key, tt.value, err, tt.want)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: the error shows the password: %v", tt.key, err)
		}
	}
}

// TestValidateNamesTheSetting: each value out of range is refused with an error that names its
// flag and the value.
func TestValidateNamesTheSetting(t *testing.T) {
	for _, tt := range []struct {
		name string
		set  func(c *Config)
		want string
	}{
		{"upload limit", func(c *Config) { c.MaxUploadBytes = 0 }, "--max-upload-bytes 0"},
		{"decoded limit", func(c *Config) { c.MaxDecodedBytes = -1 }, "--max-decoded-bytes -1"},
		{"memory budget", func(c *Config) { c.MemoryBudget = 1 << 20 }, "--memory-budget 1048576"},
		{"body rate", func(c *Config) { c.BodyRate = -1 }, "--body-rate -1"},
		{"prometheus step", func(c *Config) { c.PrometheusStep = time.Millisecond }, "--prometheus-step 1ms"},
		{"retention", func(c *Config) { c.Retention = Age(time.Minute) }, "--retention 1m0s"},
		{"retention every", func(c *Config) { c.RetentionEvery = time.Second }, "--retention-every 1s"},
		{"upload wait", func(c *Config) { c.UploadWait = 0 }, "--upload-wait 0s"},
		{"upload timeout", func(c *Config) { c.UploadTimeout = time.Millisecond }, "--upload-timeout 1ms"},
		{"body idle", func(c *Config) { c.BodyIdle = 0 }, "--body-idle 0s"},
		{"session ttl", func(c *Config) { c.SessionTTL = 100 * 24 * time.Hour }, "--session-ttl 2400h0m0s"},
		{"upload rate", func(c *Config) { c.UploadRate = -2 }, "--upload-rate -2"},
		{"upload burst", func(c *Config) { c.UploadBurst = 0 }, "--upload-burst 0"},
		{"events rate", func(c *Config) { c.EventsRate = -3 }, "--events-rate -3"},
		{"events burst", func(c *Config) { c.EventsBurst = 0 }, "--events-burst 0"},
		{"oidc without a client", func(c *Config) { c.OIDC.Issuer = "https://idp" }, "ROOTLINE_OIDC_CLIENT_ID"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Default(func(string) string { return "" })
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Validate(); err != nil {
				t.Fatalf("the defaults: %v", err)
			}
			tt.set(&c)
			if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one naming %q", err, tt.want)
			}
		})
	}
}

// TestFlagsParsed: a flag given as text is parsed by Load into the value the server uses, and
// a bad one is a FlagError naming the flag and its value.
func TestFlagsParsed(t *testing.T) {
	load := func(args ...string) (Config, error) {
		t.Helper()
		fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
		DefineFlags(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return Load(fs, func(string) string { return "" })
	}
	c, err := load("--database", "sqlite:///var/lib/rootline.db", "--prometheus", "leap=http://prom:9090", "--log-format", "json")
	if err != nil {
		t.Fatal(err)
	}
	if c.Database.Dialect != dbtarget.SQLite || c.Database.Display != "/var/lib/rootline.db" || c.Prometheus.For("leap") != "http://prom:9090" || c.LogFormat != "json" {
		t.Errorf("parsed: %+v %v %q", c.Database, c.Prometheus, c.LogFormat)
	}
	var fe *FlagError
	for _, tt := range []struct{ args, want []string }{
		{[]string{"--database", "mysql://u:hunter2@db/x"}, []string{"--database", "mysql://u:xxxxx@db/x"}},
		{[]string{"--prometheus", "prom:9090"}, []string{"--prometheus", `"prom:9090"`}},
		{[]string{"--prometheus-queries", "/nonexistent.json"}, []string{"--prometheus-queries", "/nonexistent.json"}},
		{[]string{"--log-format", "xml"}, []string{"--log-format", `"xml"`}},
	} {
		_, err := load(tt.args...)
		if !errors.As(err, &fe) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%v: %v, want a FlagError without the password", tt.args, err)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: %v, want it to hold %s", tt.args, err, w)
			}
		}
	}
}
