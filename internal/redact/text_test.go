package redact

import "testing"

// TestText: a few kubelet messages and command lines, as ingest meets them.
func TestScrub(t *testing.T) {
	tests := []struct{ in, want string }{
		{"API_TOKEN=s3cr3t-1", "API_TOKEN=[redacted]"},
		{"--api-token=abc --verbose", "--api-token=[redacted] --verbose"},
		{`password: "hunter2"`, "password: [redacted]"},
		{"Authorization: Bearer eyJhbGciOi.x.y", "Authorization: Bearer [redacted]"},
		{"The node was low on resource: memory. ", "The node was low on resource: memory. "},
		{"Liveness probe failed: Get \"http://10.0.0.5:8081/hub/health\"", "Liveness probe failed: Get \"http://10.0.0.5:8081/hub/health\""},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestScrubText: free text (a message, a shell command) loses the values of credential-named
// assignments and flags, URL passwords, authorization headers and credentials, and keeps the
// rest, prose that names a password without giving one included.
func TestScrubText(t *testing.T) {
	tests := []struct{ in, want string }{
		// Assignments and flags.
		{"PASSWORD=hunter2 ./init", "PASSWORD=[redacted] ./init"},
		{"export DB_PW=hunter2; ./run", "export DB_PW=[redacted]; ./run"},
		{"dbpw=hunter2", "dbpw=[redacted]"},
		{"DB_PASS=hunter2 PORT=5432", "DB_PASS=[redacted] PORT=5432"},
		{"mysql --password hunter2 -h db", "mysql --password [redacted] -h db"},
		{"app --api-key hunter2", "app --api-key [redacted]"},
		{"--secret_token='a b c' --port 80", "--secret_token=[redacted] --port 80"},
		{"--basic-auth=user:hunter2", "--basic-auth=[redacted]"},
		{`{"level":"error","password":"hunter2","user":"app"}`, `{"level":"error","password":[redacted],"user":"app"}`},
		{`{\"password\":\"hunter2\"}`, `{\"password\":[redacted]}`},
		{"jdbc:mysql://db/app?user=app&password=hunter2&ssl=true", "jdbc:mysql://db/app?user=app&password=[redacted]&ssl=true"},
		{"host=db user=app password=hunter2 dbname=app", "host=db user=app password=[redacted] dbname=app"},
		// URLs with a password.
		{"connect postgres://app:s3cret@db:5432 failed", "connect postgres://app:[redacted]@db:5432 failed"},
		{"--db-url=postgres://u:pass@db", "--db-url=postgres://u:[redacted]@db"},
		{"redis://:s3cret@redis:6379/0", "redis://:[redacted]@redis:6379/0"},
		// Headers and authorization schemes.
		{"Authorization: Bearer eyJhbGciOi.x.y", "Authorization: Bearer [redacted]"},
		{"Proxy-Authorization: Basic dXNlcjpodW50ZXIy", "Proxy-Authorization: Basic [redacted]"},
		{"curl -H 'Authorization: Basic dXNlcjpodW50ZXIy' http://x", "curl -H 'Authorization: Basic [redacted]' http://x"},
		{"Authorization: hunter2", "Authorization: [redacted]"},
		{"X-Api-Key: hunter2", "X-Api-Key: [redacted]"},
		{"Cookie: session=abc123; theme=dark", "Cookie: [redacted]"},
		{"got 401 with bearer eyJhbGciOiJIUzI1NiJ9.e30.x", "got 401 with bearer [redacted]"},
		{"sent Basic dXNlcjpodW50ZXIy to the proxy", "sent Basic [redacted] to the proxy"},
		{"key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nhunter2\n-----END RSA PRIVATE KEY-----\n",
			"key:\n-----BEGIN RSA PRIVATE KEY-----\n[redacted]\n-----END RSA PRIVATE KEY-----\n"},
		// Evidence, prose and look-alikes are kept.
		{"0/5 nodes are available: 2 Insufficient cpu, 3 node(s) had untolerated taint {node.kubernetes.io/unreachable: }.", ""},
		{"Back-off restarting failed container app in pod app-0_prod(0b1c)", ""},
		{`FATAL: password authentication failed for user "app"`, ""},
		{"the password was rotated yesterday; Basic authentication is required", ""},
		{"the bearer token expired", ""},
		{"docker-pullable://example/app@sha256:0123abcd", ""},
		{"image example/app:1.2@sha256:0123abcd", ""},
		{"http://10.0.0.5:8081/hub/health", ""},
		{"The node was low on resource: memory. Container x was using 2Gi, which exceeds its request of 0. ", ""},
		{`MountVolume.SetUp failed for volume "hub-secret" : secret "hub-secret" not found`, ""},
		{"bypass=true --passes 3", ""},
		{"--authorization-mode=Node,RBAC", ""},
		{"use --password\nnext line", ""},
		{"pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed", ""},
		{`MountVolume.SetUp failed for volume "kube-api-access-x" : failed to fetch token: pod "app-0" not found`, ""},
		{"failed to authorize: failed to fetch oauth token: unexpected status: 401 Unauthorized", ""},
		{"token: eyJhbGciOiJIUzI1NiJ9", "token: [redacted]"},
		{"token=pod", "token=[redacted]"},
		{"password: letmein", "password: [redacted]"},
	}
	for _, tt := range tests {
		want := tt.want
		if want == "" {
			want = tt.in
		}
		if got := Text(tt.in); got != want {
			t.Errorf("Text(%q)\n got %q\nwant %q", tt.in, got, want)
		}
	}
}

// TestCredentialName: the names whose values are redacted (ConfigMap keys, flags).
func TestCredentialName(t *testing.T) {
	for name, want := range map[string]bool{
		"dbpw": true, "db_password": true, "apiKey": true, "secret_token": true, "DB_PASS": true, "pass": true, "PW": true,
		"--password": true, "--db-password": true, "--api-key": true, "--token": true, "private_key": true, "accessKey": true,
		"credentials": true, "client-secret": true, "passwd": true, "basic-auth": true, "Authorization": true, "Cookie": true,
		"status": false, "max-node-provision-time": false, "--port": false, "--verbose": false, "bypass": false,
		"compass": false, "--authorization-mode": false, "config.yaml": false, "keyspace": false, "--dsn": false,
	} {
		if got := isCredentialName(name); got != want {
			t.Errorf("isCredentialName(%q) = %v, want %v", name, got, want)
		}
	}
}
