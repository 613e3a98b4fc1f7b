package config

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/rootline-dev/rootline/internal/alert"
	"github.com/rootline-dev/rootline/internal/dbtarget"
	"github.com/rootline-dev/rootline/internal/metrics"
)

// A setting of `rootline serve` that a flag sets: how the flag is defined (its default taken
// from the defaults) and how its value is copied into a configuration.
type flagSetting struct {
	name, usage string
	define      func(fs *pflag.FlagSet, usage string, def *Config)
	apply       func(fs *pflag.FlagSet, c *Config) error
}

// serveFlags are the flags of `rootline serve`, each a setting of Config. Those whose usage
// names an environment variable also read it (Default); the flag wins when given.
var serveFlags = []flagSetting{
	stringFlag("addr", "address to listen on (env ROOTLINE_ADDR)", func(c *Config) *string { return &c.Addr }),
	parsedFlag("database", "SQLite file, sqlite://PATH, or postgres:// URL (env ROOTLINE_DATABASE)", DefaultDatabase,
		func(c *Config, v string) (err error) { c.Database, err = parseDatabase(v); return err }),
	stringFlag("auth", "on or off (default: off on loopback, on elsewhere)", func(c *Config) *string { return &c.Auth }),
	int64Flag("max-upload-bytes", "largest upload body accepted (env ROOTLINE_MAX_UPLOAD_BYTES)", func(c *Config) *int64 { return &c.MaxUploadBytes }),
	int64Flag("max-decoded-bytes", "largest upload once decompressed (env ROOTLINE_MAX_DECODED_BYTES)", func(c *Config) *int64 { return &c.MaxDecodedBytes }),
	durationFlag("shutdown-timeout", "how long requests in flight get to finish on SIGTERM", func(c *Config) *time.Duration { return &c.ShutdownTimeout }),
	{
		name: "log-level", usage: "debug, info, warn or error (env ROOTLINE_LOG_LEVEL)",
		define: func(fs *pflag.FlagSet, usage string, def *Config) {
			fs.String("log-level", levelName(def.LogLevel), usage)
		},
		apply: func(fs *pflag.FlagSet, c *Config) error {
			v, err := fs.GetString("log-level")
			if err != nil {
				return err
			}
			return c.LogLevel.UnmarshalText([]byte(v))
		},
	},
	parsedFlag("log-format", "text or json (env ROOTLINE_LOG_FORMAT)", "text",
		func(c *Config, v string) (err error) { c.LogFormat, err = parseLogFormat(v); return err }),
	{
		name: "retention", usage: "delete raw evidence older than this: days (90d), a duration (36h), or off (env ROOTLINE_RETENTION)",
		define: func(fs *pflag.FlagSet, usage string, def *Config) {
			a := def.Retention
			fs.Var(&a, "retention", usage)
		},
		apply: func(fs *pflag.FlagSet, c *Config) error {
			a, ok := fs.Lookup("retention").Value.(*Age)
			if !ok {
				return errors.New("--retention is not an age")
			}
			c.Retention = *a
			return nil
		},
	},
	durationFlag("retention-every", "how often to look for expired evidence", func(c *Config) *time.Duration { return &c.RetentionEvery }),
	float64Flag("upload-rate", "uploads a minute per token when auth is on; 0 for no limit (env ROOTLINE_UPLOAD_RATE)", func(c *Config) *float64 { return &c.UploadRate }),
	intFlag("upload-burst", "uploads at once beyond the rate", func(c *Config) *int { return &c.UploadBurst }),
	float64Flag("events-rate", "collector batches (POST /api/v1/events) a minute per token when auth is on; 0 for no limit (env ROOTLINE_EVENTS_RATE)",
		func(c *Config) *float64 { return &c.EventsRate }),
	intFlag("events-burst", "collector batches at once beyond the rate", func(c *Config) *int { return &c.EventsBurst }),
	int64Flag("memory-budget", "bytes the uploads and batches decoded at once may cost together; the rest wait (env ROOTLINE_MEMORY_BUDGET)",
		func(c *Config) *int64 { return &c.MemoryBudget }),
	durationFlag("upload-wait", "how long an upload waits for room in the memory budget before 503", func(c *Config) *time.Duration { return &c.UploadWait }),
	durationFlag("upload-timeout", "longest decoding and storing of one upload", func(c *Config) *time.Duration { return &c.UploadTimeout }),
	durationFlag("body-idle", "a request body silent this long is cut with 408", func(c *Config) *time.Duration { return &c.BodyIdle }),
	int64Flag("body-rate", "bytes a second a request body must average once --body-idle has passed (408 otherwise); 0: no rate",
		func(c *Config) *int64 { return &c.BodyRate }),
	stringFlag("spool-dir", "folder uploads are received into (default rootline-spool in the temporary folder; env ROOTLINE_SPOOL_DIR)",
		func(c *Config) *string { return &c.SpoolDir }),
	stringFlag("value-key-file", "the installation's key for the hashes of ConfigMaps' values, made at first start (default rootline-value.key beside a SQLite database, else rootline/value.key in the user's configuration folder; env ROOTLINE_VALUE_KEY_FILE)",
		func(c *Config) *string { return &c.ValueKeyFile }),
	durationFlag("session-ttl", "how long a person stays signed in to the pages (env ROOTLINE_SESSION_TTL)", func(c *Config) *time.Duration { return &c.SessionTTL }),
	parsedFlag("open-incidents-for", "open an incident for a firing alert whose labels match (severity=critical[,team=data]) when its cluster has none open (env ROOTLINE_OPEN_INCIDENTS_FOR)", "",
		func(c *Config, v string) (err error) { c.OpenIncidentsFor, err = alert.ParseSelector(v); return err }),
	parsedFlag("prometheus", "the Prometheus of each cluster, read over an incident's window on request: URL for every cluster, or CLUSTER=URL,CLUSTER=URL (env ROOTLINE_PROMETHEUS)", "",
		func(c *Config, v string) (err error) { c.Prometheus, err = metrics.ParseTargets(v); return err }),
	parsedFlag("prometheus-queries", "JSON file of the range queries to run instead of the default ones: [{\"name\", \"query\", \"what\"}] (env ROOTLINE_PROMETHEUS_QUERIES)", "",
		func(c *Config, v string) error { return setQueries(c, v) }),
	durationFlag("prometheus-step", "step of the range queries on Prometheus; 0 divides the incident's window into about 500 points (env ROOTLINE_PROMETHEUS_STEP)",
		func(c *Config) *time.Duration { return &c.PrometheusStep }),
	boolFlag("insecure-cookies", "with --auth on, send cookies over plain HTTP too: for tests, never in production (env ROOTLINE_INSECURE_COOKIES)",
		func(c *Config) *bool { return &c.InsecureCookies }),
}

// DefineFlags defines the flags of `rootline serve` on fs, with the defaults as their
// defaults (not the environment's values: Load reads those).
func DefineFlags(fs *pflag.FlagSet) {
	def, _ := Default(func(string) string { return "" }) // no environment: no error
	for _, f := range serveFlags {
		f.define(fs, f.usage, &def)
	}
}

// FlagError is a flag's value that Load could not take: a mistake on the command line.
type FlagError struct{ Err error }

func (e *FlagError) Error() string { return e.Err.Error() }
func (e *FlagError) Unwrap() error { return e.Err }

// Load returns the configuration of `rootline serve` from fs, parsed, with the flags that
// DefineFlags defined, and the environment: each setting is its flag's value when the command
// line gives the flag, else the environment's (Default), else its default. An error of the
// environment is returned as an *EnvError; one of a flag as a *FlagError. It does not Validate.
func Load(fs *pflag.FlagSet, getenv func(string) string) (Config, error) {
	c, err := Default(getenv)
	if err != nil {
		return c, err
	}
	for _, f := range serveFlags {
		if !fs.Changed(f.name) {
			continue
		}
		if err := f.apply(fs, &c); err != nil {
			return c, &FlagError{fmt.Errorf("--%s: %w", f.name, err)}
		}
	}
	return c, nil
}

// levelName is a log level as the flag takes it: "info".
func levelName(l slog.Level) string {
	b, _ := l.MarshalText()
	return strings.ToLower(string(b))
}

// typedFlag is a setting of type T: define is the FlagSet's method that defines a flag of T
// (FlagSet.String, …), get the one that reads it (FlagSet.GetString, …).
func typedFlag[T any](name, usage string, field func(*Config) *T,
	define func(*pflag.FlagSet, string, T, string) *T, get func(*pflag.FlagSet, string) (T, error)) flagSetting {
	return flagSetting{name, usage,
		func(fs *pflag.FlagSet, usage string, def *Config) { define(fs, name, *field(def), usage) },
		func(fs *pflag.FlagSet, c *Config) (err error) { *field(c), err = get(fs, name); return err }}
}

// parsedFlag is a setting given as text and kept parsed: the flag is a string whose default
// is def, and set parses the flag's value into the configuration (as the environment's
// variable of the same setting does).
func parsedFlag(name, usage, def string, set func(c *Config, v string) error) flagSetting {
	return flagSetting{name, usage,
		func(fs *pflag.FlagSet, usage string, _ *Config) { fs.String(name, def, usage) },
		func(fs *pflag.FlagSet, c *Config) error {
			v, err := fs.GetString(name)
			if err != nil {
				return err
			}
			if err := set(c, v); err != nil {
				if name == "database" {
					v = dbtarget.Redact(v)
				}
				return fmt.Errorf("%q: %w", v, err)
			}
			return nil
		}}
}

func stringFlag(name, usage string, field func(*Config) *string) flagSetting {
	return typedFlag(name, usage, field, (*pflag.FlagSet).String, (*pflag.FlagSet).GetString)
}

func int64Flag(name, usage string, field func(*Config) *int64) flagSetting {
	return typedFlag(name, usage, field, (*pflag.FlagSet).Int64, (*pflag.FlagSet).GetInt64)
}

func intFlag(name, usage string, field func(*Config) *int) flagSetting {
	return typedFlag(name, usage, field, (*pflag.FlagSet).Int, (*pflag.FlagSet).GetInt)
}

func float64Flag(name, usage string, field func(*Config) *float64) flagSetting {
	return typedFlag(name, usage, field, (*pflag.FlagSet).Float64, (*pflag.FlagSet).GetFloat64)
}

func durationFlag(name, usage string, field func(*Config) *time.Duration) flagSetting {
	return typedFlag(name, usage, field, (*pflag.FlagSet).Duration, (*pflag.FlagSet).GetDuration)
}

func boolFlag(name, usage string, field func(*Config) *bool) flagSetting {
	return typedFlag(name, usage, field, (*pflag.FlagSet).Bool, (*pflag.FlagSet).GetBool)
}
