package redact

import (
	"path"
	"regexp"
	"strings"
)

// passwordOptions are the programs that take a password as the value of a short option, which
// only the program's name tells from a port or a user name, and that option: -p of the MySQL
// and MariaDB clients, of the MongoDB shell and tools, and of sshpass (-p hunter2, -phunter2);
// -a of redis-cli; -u of curl, whose value is user:password (the password goes, the user
// stays). Their long options (--password, --pass, --user=…) are credential flags already.
var passwordOptions = map[string]string{
	"mysql": "p", "mysqladmin": "p", "mysqldump": "p", "mysqlcheck": "p", "mysqlimport": "p", "mysqlshow": "p",
	"mysqlpump": "p", "mysqlslap": "p", "mariadb": "p", "mariadb-admin": "p", "mariadb-dump": "p",
	"mariadb-check": "p", "mariadb-import": "p", "mariadb-show": "p",
	"mongo": "p", "mongosh": "p", "mongodump": "p", "mongorestore": "p", "mongoexport": "p", "mongoimport": "p",
	"sshpass": "p", "redis-cli": "a", "curl": "u",
}

// userOptions are curl's long options whose value is user:password.
var userOptions = map[string]bool{"--user": true, "--proxy-user": true, "-U": true}

// programWords are what a text's lower-case bytes must hold for passwordOptions to apply: the
// cheap check before its words are looked at.
var programWords = [][]byte{[]byte("mysql"), []byte("mariadb"), []byte("mongo"), []byte("sshpass"), []byte("redis-cli"), []byte("curl")}

// commandSeparators end a command within a line: what follows is another program's.
const commandSeparators = ";|&"

// optionPasswords redacts, in a command line given as words, the passwords that known programs
// take as short options (passwordOptions). A word is a program when its base name is one (a
// path, quotes and a subshell's parenthesis around it allowed); its options are the words after
// it up to a separator of commands. Words are changed in place; each keeps its quotes.
func optionPasswords(words []string) {
	opt := ""
	for i := 0; i < len(words); i++ {
		core, pre, post := unquote(words[i])
		if o, ok := passwordOptions[path.Base(core)]; ok && core != "" {
			opt = o
		} else if opt != "" {
			switch {
			case opt == "u" && (core == "-u" || userOptions[core]) && i+1 < len(words):
				i++
				v, vpre, vpost := unquote(words[i])
				words[i] = vpre + userPassword(v) + vpost
			case opt == "u" && strings.HasPrefix(core, "-u") && len(core) > 2:
				words[i] = pre + "-u" + userPassword(core[2:]) + post
			case opt == "u" && (strings.HasPrefix(core, "--user=") || strings.HasPrefix(core, "--proxy-user=")):
				name, v, _ := strings.Cut(core, "=")
				words[i] = pre + name + "=" + userPassword(v) + post
			case opt != "u" && core == "-"+opt && i+1 < len(words) && !strings.HasPrefix(strings.TrimLeft(words[i+1], `"'(`), "-"):
				i++
				_, vpre, vpost := unquote(words[i])
				words[i] = vpre + Redacted + vpost
			case opt != "u" && strings.HasPrefix(core, "-"+opt) && len(core) > 2:
				if q := core[2]; (q == '\'' || q == '"') && strings.HasPrefix(post, string(q)) {
					post = post[1:] // the quote closing -p'hunter2'
				}
				words[i] = pre + "-" + opt + Redacted + post
			}
		}
		if core, _, post := unquote(words[i]); strings.ContainsAny(post, commandSeparators) ||
			core != "" && strings.Trim(core, commandSeparators) == "" {
			opt = ""
		}
	}
}

// userPassword is curl's user:password with the password redacted; a user alone (curl asks
// for the password) is kept.
func userPassword(v string) string {
	user, pass, ok := strings.Cut(v, ":")
	if !ok || pass == "" || pass == Redacted {
		return v
	}
	return user + ":" + Redacted
}

// unquote splits a word into its core and the quotes and parentheses around it, and the
// separators after it: `"mysql` is `mysql` after `"`, `secret";` is `secret` before `";`.
func unquote(w string) (core, pre, post string) {
	start := 0
	for start < len(w) && strings.IndexByte(`"'(`, w[start]) >= 0 {
		start++
	}
	end := len(w)
	for end > start && strings.IndexByte(`"')`+commandSeparators, w[end-1]) >= 0 {
		end--
	}
	return w[start:end], w[:start], w[end:]
}

// word is a run of text without white space.
var word = regexp.MustCompile(`\S+`)

// textOptionPasswords is optionPasswords over the words of a text (a shell command, an exec
// probe's sh -c line). Its caller has seen that the text names one of the programs.
func textOptionPasswords(s string) string {
	idx := word.FindAllStringIndex(s, -1)
	words := make([]string, len(idx))
	for i, m := range idx {
		words[i] = s[m[0]:m[1]]
	}
	optionPasswords(words)
	var b strings.Builder
	last := 0
	for i, m := range idx {
		b.WriteString(s[last:m[0]])
		b.WriteString(words[i])
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// Command redacts a container's command line, given as its command and its args (the args
// follow the command, or the image's entrypoint when the command is empty), as one line (Args):
// "mysql" in the command and "-p", "hunter2" in the args, "--password" the command's last word
// and its value the first argument. It changes the lists in place.
func Command(command, args []string) {
	line := append(append(make([]string, 0, len(command)+len(args)), command...), args...)
	Args(line)
	copy(command, line[:len(command)])
	copy(args, line[len(command):])
}
