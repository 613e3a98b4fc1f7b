package redact

import (
	"bytes"
	"regexp"
	"strings"
	"unicode/utf8"
)

// The rules for text: what in a string (a shell command, an argument, a container's
// termination message, an event's message, a ConfigMap's config file) is a credential. Each
// rule keeps what names the credential (the variable, the flag, the header, the URL's user
// and host) and replaces only the value with Redacted:
//
//   - NAME=value and NAME: value where NAME looks like a credential's name (credentialName),
//     quoted or not, JSON's "NAME":"value" included;
//   - --flag value, the value given as the next word, where the flag looks like one;
//   - the password of a URL's userinfo (postgres://app:PASSWORD@db), the user kept;
//   - the value of an Authorization, Proxy-Authorization, Cookie or Set-Cookie header;
//   - a Bearer or Basic credential anywhere, when it looks like one (not "the bearer token");
//   - the body of a PEM private key.
//
// Words that name a credential without giving one ("password authentication failed") are
// prose and kept, and so is everything without such a name: quantities, node and image names,
// reasons, the scheduler's messages.

// credentialNamePattern matches the name of a variable, flag, key or header whose value is a
// credential: one holding secret, token, password (passwd, pwd, passphrase), credential,
// api/access/private/secret key; or ending in pw (dbpw, DB_PW) or in the word pass or auth
// (DB_PASS, basic-auth, but not bypass, compass or --authorization-mode); or the headers
// Authorization and Cookie. Flags' dashes are part of the name.
const credentialNamePattern = `(?:[\w.-]*(?:secret|token|passw(?:or)?d|passphrase|pwd|credential|api[-_.]?key|access[-_.]?key|private[-_.]?key)[\w.-]*` +
	`|[\w.-]*pw|(?:[\w.-]*[-_.])?(?:pass|auth)|(?:proxy-)?authorization)`

// credentialName matches a whole name: a ConfigMap key, an argument that is a flag.
var credentialName = regexp.MustCompile(`(?i)^(?:` + credentialNamePattern + `|(?:set-)?cookie)$`)

// isCredentialName reports whether name (a ConfigMap key, a flag, a header) names a credential.
func isCredentialName(name string) bool {
	return mayHold(name, credentialWords) && credentialName.MatchString(name)
}

// credentialValue is a value in text: quoted (JSON's escaped quotes too), or up to the next
// space, comma, semicolon, ampersand or quote.
const credentialValue = `\\"[^"\\]*\\"|"[^"]*"|'[^']*'|[^\s,;&"']+`

// authSchemes are the authorization schemes a credential may start with: kept, with the name.
const authSchemes = `((?:bearer|basic|token|digest|negotiate)[ \t]+)?`

// secretAssignment matches NAME=value and NAME: value: the name and the separator, an
// authorization scheme the value may start with, and the value.
var secretAssignment = regexp.MustCompile(`(?i)(\b` + credentialNamePattern + `[ \t]*[=:][ \t]*)` + authSchemes + `(` + credentialValue + `)`)

// secretQuoted matches "NAME": "value" (JSON, escaped or not, and single quotes). The value
// must be quoted too: in `volume "hub-secret" : secret "hub-secret" not found` no value is given.
var secretQuoted = regexp.MustCompile(`(?i)((?:\\?"` + credentialNamePattern + `\\?"|'` + credentialNamePattern + `')[ \t]*[=:][ \t]*)` +
	authSchemes + `(\\"[^"\\]*\\"|"[^"]*"|'[^']*')`)

// secretFlag matches a credential flag and its value as the next word (not itself a flag):
// "--password hunter2". What comes before the flag (start, space, quote) is kept.
var secretFlag = regexp.MustCompile(`(?i)(^|[\s"'])(-{1,2}` + credentialNamePattern + `[ \t]+)("[^"]*"|'[^']*'|[^\s"'-][^\s"']*)`)

// secretCookie matches a cookie header and all its cookies, to the end of the line or quote.
var secretCookie = regexp.MustCompile(`(?i)(\b(?:set-)?cookie["']?[ \t]*[=:][ \t]*)([^\r\n"']+)`)

// urlPassword matches the userinfo of a URL up to its password: scheme://user: then the
// password before the @. Image references (repo@sha256:…) have no scheme and no colon before
// the @ and are left alone.
var urlPassword = regexp.MustCompile(`(?i)(\b[a-z][a-z0-9+.-]*://[^\s:/@"'?#]*:)([^\s@/"']+)@`)

// authScheme matches a Bearer or Basic credential in free text; whether it is one is decided
// by looksLikeCredential.
var authScheme = regexp.MustCompile(`(?i)\b(bearer|basic)([ \t]+)([\w.~+/=-]+)`)

// privateKey matches the body of a PEM private key.
var privateKey = regexp.MustCompile(`(-----BEGIN [A-Z ]*PRIVATE KEY-----)[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----)`)

// credentialWords are what every match of credentialName and secretAssignment holds, in lower
// case; text without any of them (and all ASCII, so that no Unicode case folding can make one)
// cannot match, and is not handed to the regular expressions, which would cost a tenth of an
// analysis otherwise.
var credentialWords = [][]byte{[]byte("secret"), []byte("token"), []byte("pass"), []byte("pw"), []byte("credential"),
	[]byte("key"), []byte("auth"), []byte("cookie")}

// Text redacts the credentials in free text (see the rules above): a message, a command, a
// URL, an alert's annotation.
func Text(s string) string { return scrubText(s, false) }

// scrubText is Text; all hands s to every rule, whatever the cheap checks say, for tests to
// prove that those checks never let a credential through.
func scrubText(s string, all bool) string {
	var buf [256]byte
	lower, ascii := lowerASCII(s, buf[:0])
	ascii = ascii && !all
	cred := !ascii || hasAny(lower, credentialWords)
	url := !ascii || bytes.Contains(lower, []byte("://")) && bytes.IndexByte(lower, '@') >= 0
	auth := !ascii || bytes.Contains(lower, []byte("bearer")) || bytes.Contains(lower, []byte("basic"))
	prog := !ascii || hasAny(lower, programWords)
	if !cred && !url && !auth && !prog {
		return s
	}
	if prog {
		s = textOptionPasswords(s)
	}
	if cred {
		if !ascii || bytes.Contains(lower, []byte("private key-----")) {
			s = privateKey.ReplaceAllString(s, "$1\n"+Redacted+"\n$2")
		}
		assign := func(sub []string) string {
			if strings.HasPrefix(sub[3], Redacted) { // redacted already, by an earlier rule or pass
				return sub[0]
			}
			return sub[1] + sub[2] + Redacted
		}
		s = replaceSubmatch(secretQuoted, s, assign)
		s = replaceSubmatch(secretAssignment, s, func(sub []string) string {
			if isProse(sub) {
				return sub[0]
			}
			return assign(sub)
		})
		if !ascii || bytes.IndexByte(lower, '-') >= 0 {
			s = replaceSubmatch(secretFlag, s, func(sub []string) string {
				if sub[3] == Redacted {
					return sub[0]
				}
				return sub[1] + sub[2] + Redacted
			})
		}
		if !ascii || bytes.Contains(lower, []byte("cookie")) {
			s = replaceSubmatch(secretCookie, s, func(sub []string) string { return sub[1] + Redacted })
		}
	}
	if url {
		s = urlPassword.ReplaceAllString(s, "${1}"+Redacted+"@")
	}
	if auth {
		s = replaceSubmatch(authScheme, s, func(sub []string) string {
			if !looksLikeCredential(sub[3]) {
				return sub[0]
			}
			return sub[1] + sub[2] + Redacted
		})
	}
	return s
}

// proseNames are names that kubelet's and registries' messages use as words before a colon:
// "failed to fetch token: pod "x" not found", "may require authorization: server message".
var proseNames = map[string]bool{"token": true, "authorization": true}

// isProse reports whether a match of secretAssignment is one of those words followed by more
// prose rather than by a credential: "token: pod", not "token: eyJhbGciOi…" nor "token=pod".
func isProse(sub []string) bool {
	name, sep := strings.TrimRight(sub[1], " \t"), ""
	if name != "" {
		name, sep = strings.TrimRight(name[:len(name)-1], " \t"), name[len(name)-1:]
	}
	return sep == ":" && sub[2] == "" && proseNames[strings.ToLower(name)] && !looksLikeCredential(sub[3]) &&
		!strings.ContainsAny(sub[3][:1], `"'`)
}

// replaceSubmatch replaces every match of re in s by repl of its submatches; s itself when
// none matches, so that unchanged strings stay shared.
func replaceSubmatch(re *regexp.Regexp, s string, repl func(sub []string) string) string {
	idx := re.FindAllStringSubmatchIndex(s, -1)
	if idx == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range idx {
		sub := make([]string, len(m)/2)
		for i := range sub {
			if m[2*i] >= 0 {
				sub[i] = s[m[2*i]:m[2*i+1]]
			}
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(repl(sub))
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// looksLikeCredential tells a credential after Bearer or Basic from a word of prose ("the
// bearer token", "Basic authentication"): it holds a digit or a symbol, or a capital letter
// after its first character.
func looksLikeCredential(tok string) bool {
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c >= '0' && c <= '9', c == '.', c == '~', c == '+', c == '/', c == '=', c == '-', c == '_':
			return true
		case i > 0 && c >= 'A' && c <= 'Z':
			return true
		}
	}
	return false
}

// Args redacts a command line given as a list of words (a container's command and args,
// an exec probe's or hook's command): each word as text, the word after a credential flag
// ("--password", "hunter2"), and the passwords known programs take as short options
// ("mysql", "-p", "hunter2"; "curl", "-u", "app:hunter2"). It changes the list in place.
func Args(args []string) {
	optionPasswords(args)
	for i := range args {
		if i > 0 && isCredentialFlag(args[i-1]) && !strings.HasPrefix(args[i], "-") {
			args[i] = Redacted
			continue
		}
		args[i] = Text(args[i])
	}
}

// isCredentialFlag reports whether an argument is a credential flag whose value is the next
// argument: "--password", "-token", not "--password=x" (Text redacts that) nor "--port".
func isCredentialFlag(arg string) bool {
	return strings.HasPrefix(arg, "-") && !strings.ContainsAny(arg, "= \t") && isCredentialName(strings.TrimLeft(arg, "-"))
}

// schemeOf matches the authorization scheme a header's value starts with.
var schemeOf = regexp.MustCompile(`(?i)^(?:bearer|basic|token|digest|negotiate)[ \t]+`)

// Header is the value of a header whose name looks secret, redacted, its authorization
// scheme kept: "Bearer [redacted]".
func Header(v string) string {
	if v == "" {
		return v
	}
	return schemeOf.FindString(v) + Redacted
}

// IsSecretKey reports whether the value of a header, annotation or keyed option named name
// must be redacted whole: its name looks secret (secretName) or names a credential; for an
// annotation, the part after its prefix's slash is the name.
func IsSecretKey(name string) bool {
	if isSecretName(name) {
		return true
	}
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return isCredentialName(name)
}

// lowerASCII appends s in lower case to buf; ascii is false (and the result incomplete) when s
// is not all ASCII.
func lowerASCII(s string, buf []byte) (lower []byte, ascii bool) {
	if len(s) > cap(buf) {
		buf = make([]byte, 0, len(s))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return buf, false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf = append(buf, c)
	}
	return buf, true
}

func hasAny(lower []byte, words [][]byte) bool {
	for _, w := range words {
		if bytes.Contains(lower, w) {
			return true
		}
	}
	return false
}
