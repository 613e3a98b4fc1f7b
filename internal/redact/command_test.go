package redact

import (
	"slices"
	"strings"
	"testing"
)

// TestPasswordOptions: the passwords that known programs take as short options go, in a shell
// line and in a list of words alike: mysql's and sshpass's -p (apart or attached), redis-cli's
// -a, curl's -u user:password (the user stays); the same options of other programs (a port, a
// user name) and a program's other options stay.
func TestPasswordOptions(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"mysql -u root -p hunter2 -h db", "mysql -u root -p [redacted] -h db"},
		{"mysql -uroot -phunter2 -e 'select 1'", "mysql -uroot -p[redacted] -e 'select 1'"},
		{"/usr/bin/mysqladmin -h 127.0.0.1 -P 3306 -u root -phunter2 ping", "/usr/bin/mysqladmin -h 127.0.0.1 -P 3306 -u root -p[redacted] ping"},
		{`sh -c "mariadb-admin -p'hunter2' status"`, `sh -c "mariadb-admin -p[redacted] status"`},
		{`sh -c "mysql -p hunter2"`, `sh -c "mysql -p [redacted]"`},
		{"sshpass -p hunter2 ssh app@db", "sshpass -p [redacted] ssh app@db"},
		{"mysql -p-hunter2 app", "mysql -p[redacted] app"}, // a password may start with a dash
		{"mongosh -u admin -p hunter2 --authenticationDatabase admin", "mongosh -u admin -p [redacted] --authenticationDatabase admin"},
		{"redis-cli -h redis -p 6379 -a hunter2 ping", "redis-cli -h redis -p 6379 -a [redacted] ping"},
		{"curl -u admin:hunter2 http://db:8080/health", "curl -u admin:[redacted] http://db:8080/health"},
		{"curl -sf --user admin:hunter2 http://db/", "curl -sf --user admin:[redacted] http://db/"},
		{"curl -uadmin:hunter2 http://db/", "curl -uadmin:[redacted] http://db/"},
		{"curl --user=admin:hunter2 http://db/", "curl --user=admin:[redacted] http://db/"},
		{"curl -u admin http://db/", "curl -u admin http://db/"},
		{"cd /app && mysql -p hunter2; ssh -p 22 db", "cd /app && mysql -p [redacted]; ssh -p 22 db"},
		{"mysql -p hunter2 | redis-cli -p 6379 ping", "mysql -p [redacted] | redis-cli -p 6379 ping"},
		// Not a password: another program's -p, a mysql option without a value.
		{"ssh -p 22 app@db", "ssh -p 22 app@db"},
		{"redis-cli -p 6379 ping", "redis-cli -p 6379 ping"},
		{"docker run -p 8080:80 nginx", "docker run -p 8080:80 nginx"},
		{"mysql -p --host db", "mysql -p --host db"},
		{"psql -p 5432 -U app", "psql -p 5432 -U app"},
		{"echo ready", "echo ready"},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := scrubText(tt.in, true); got != tt.want {
			t.Errorf("scrubText(%q, all) = %q, want %q", tt.in, got, tt.want)
		}
		words := strings.Fields(tt.in)
		if strings.HasPrefix(tt.in, "sh -c") {
			continue // one word of the list holds the whole line
		}
		Args(words)
		if got := strings.Join(words, " "); got != tt.want {
			t.Errorf("Args(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestCommandAcrossArgs: a container's command names the program and its args hold the option,
// as one line.
func TestCommandAcrossArgs(t *testing.T) {
	t.Parallel()
	command, args := []string{"mysqladmin"}, []string{"ping", "-u", "root", "-p", "hunter2"}
	Command(command, args)
	if want := []string{"ping", "-u", "root", "-p", Redacted}; !slices.Equal(args, want) || command[0] != "mysqladmin" {
		t.Errorf("Command: %q %q, want [mysqladmin] %q", command, args, want)
	}
	command, args = []string{"curl"}, []string{"-u", "app:hunter2", "http://db/"}
	Command(command, args)
	if args[1] != "app:"+Redacted {
		t.Errorf("curl's args %q, want app:%s", args, Redacted)
	}
	var tree any = map[string]any{"command": []any{"mysql"}, "args": []any{"-p", "hunter2", "-e", "select 1"}}
	Tree(tree)
	if got := tree.(map[string]any)["args"].([]any)[1]; got != Redacted {
		t.Errorf("a generic tree's args after mysql's -p: %v, want %s", got, Redacted)
	}
	command, args = nil, []string{"-p", "8080"} // the image's entrypoint: unknown, so no password
	Command(command, args)
	if args[1] != "8080" {
		t.Errorf("args of an unknown program %q, want the port kept", args)
	}
}
