package config

import (
	"strings"
	"testing"
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
		{"auth on without token", "0.0.0.0:8080", "on", "", "rootline.db", "", "needs ROOTLINE_API_TOKEN"},
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
