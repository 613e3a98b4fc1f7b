package config

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
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
		{"bad database", "127.0.0.1:8080", "", "", "mysql://x", "", "--database"},
		{"postgres", "127.0.0.1:8080", "", "", "postgres://u@h/db", "off", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Default(func(string) string { return "" })
			if err != nil {
				t.Fatal(err)
			}
			c.Addr, c.Auth, c.APIToken, c.Database = tt.addr, tt.auth, tt.token, tt.database
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
	if c.Database != env["ROOTLINE_DATABASE"] || c.MaxUploadBytes != 1024 || c.LogLevel.String() != "DEBUG" {
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
		c, _ := Default(func(string) string { return "" })
		c.Database = db
		if err := c.Validate(); err != nil && strings.Contains(err.Error(), "zzter2") {
			t.Errorf("%s: Validate shows the password: %v", db, err)
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
	if _, err := load(); err == nil || errors.As(err, &fe) {
		t.Errorf("a bad environment variable: %v, want an error that is not a FlagError", err)
	}
}

// TestOpenIncidentsFor: the alert selector comes from ROOTLINE_OPEN_INCIDENTS_FOR (or its
// flag) and one that is not name=value is refused.
func TestOpenIncidentsFor(t *testing.T) {
	c, err := Default(func(k string) string { return map[string]string{"ROOTLINE_OPEN_INCIDENTS_FOR": "severity=critical"}[k] })
	if err != nil || c.OpenIncidentsFor != "severity=critical" || c.Validate() != nil {
		t.Errorf("ROOTLINE_OPEN_INCIDENTS_FOR=severity=critical: %q, %v, %v", c.OpenIncidentsFor, err, c.Validate())
	}
	c.OpenIncidentsFor = "critical"
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "--open-incidents-for") {
		t.Errorf("a selector without a value: %v", err)
	}
}
