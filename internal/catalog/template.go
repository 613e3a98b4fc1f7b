package catalog

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// The captures a template may hold, each with what it matches. A template writes one as
// {type} or {name:type}: "Container {container} was using {usage:quantity}".
var captureTypes = map[string]string{
	"pod":       nameRe,
	"node":      nameRe,
	"name":      nameRe,
	"container": nameRe,
	"namespace": `[a-z0-9](?:[-a-z0-9]*[a-z0-9])?`,
	"podref":    `[a-z0-9](?:[-a-z0-9]*[a-z0-9])?/` + nameRe,
	"image":     `[^\s"',\\]+`,
	"kind":      `[A-Z][A-Za-z]*`,
	"resource":  `[A-Za-z0-9](?:[-A-Za-z0-9_./]*[A-Za-z0-9])?`,
	"quantity":  `-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?[A-Za-z]*`,
	"count":     `[0-9]+`,
	"duration":  `[0-9](?:[0-9.a-zµ]*[a-zµ0-9])?`,
	"word":      "[^\\s\"'`]+",
	"text":      `.*?`,
	"quoted":    `(?:[^"\\]|\\[^"])*?`,
}

// nameRe is an object's name: a DNS subdomain, with upper case and underscores allowed, as
// test fixtures and some clouds write them.
const nameRe = `[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?`

// placeholderRe finds a capture in a template. A brace that does not open one is fixed text, as
// in the scheduler's "had taint {{key:word} {value:text}}".
var placeholderRe = regexp.MustCompile(`\{([a-z][a-zA-Z0-9_]*)(?::([a-z]+))?\}`)

// compile turns the template into a regular expression:
//
//   - fixed words match themselves, case and all; each run of spaces matches any run of white
//     space (a hard wrap joined, tabs, two spaces), and a double quote matches a JSON-escaped
//     one too (\");
//   - a capture matches its type (captureTypes); a {text} capture that ends the template takes
//     the rest of the message, which may be empty;
//   - a period that ends the template, and the space the kubelet writes after it, are optional:
//     stored and pasted messages lose them.
//
// With examples, the expression is compiled and the example tried on it; without, it is
// compiled on first use, and panics there if it does not compile (TestDefault rules that out
// for the embedded catalogue).
func (e *Entry) compile(examples bool) error {
	tmpl := strings.TrimSpace(e.Template)
	var b strings.Builder
	locs := placeholderRe.FindAllStringSubmatchIndex(tmpl, -1)
	pos := 0
	seen := map[string]bool{}
	var longest, first string // the longest run of fixed text, and that of the first run
	for i, loc := range locs {
		lit := tmpl[pos:loc[0]]
		b.WriteString(literal(lit, pos == 0))
		longest = longer(longest, lit)
		if i == 0 {
			first = longer("", lit)
		}
		name := tmpl[loc[2]:loc[3]]
		typ := name
		if loc[4] >= 0 {
			typ = tmpl[loc[4]:loc[5]]
		}
		re, ok := captureTypes[typ]
		if !ok {
			return fmt.Errorf("template: capture {%s} has no type of %s", tmpl[loc[0]+1:loc[1]-1], typeNames())
		}
		if seen[name] {
			return fmt.Errorf("template: capture %s is named twice", name)
		}
		seen[name] = true
		if typ == "text" && i == len(locs)-1 && strings.TrimSpace(strings.TrimRight(tmpl[loc[1]:], ". ")) == "" {
			re = `.*` // the rest of the message
			e.tail = true
			if pat := b.String(); strings.HasSuffix(pat, `\s+`) {
				// It may be empty where the text ends ("Error creating: " of an error
				// without text), and a paste drops the space before it.
				b.Reset()
				b.WriteString(strings.TrimSuffix(pat, `\s+`) + `(?:\s+|\s*$)`)
			}
		}
		fmt.Fprintf(&b, "(%s)", re)
		e.captures = append(e.captures, name)
		pos = loc[1]
	}
	rest := tmpl[pos:]
	longest = longer(longest, rest)
	if len(locs) == 0 {
		first = longest
	}
	if strings.HasSuffix(rest, ".") {
		b.WriteString(literal(strings.TrimSuffix(rest, "."), pos == 0))
		b.WriteString(`\.?`)
	} else {
		b.WriteString(literal(rest, pos == 0))
	}
	pattern := b.String()
	if e.Word {
		if len(locs) > 0 || strings.ContainsFunc(tmpl, unicode.IsSpace) {
			return fmt.Errorf("template: a word entry is one word, without captures")
		}
		pattern = `\b` + pattern + `\b`
	}
	if examples {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return fmt.Errorf("template: %w", err)
		}
		e.re = func() *regexp.Regexp { return re }
	} else {
		e.re = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
	}
	// The anchor is the longest word of the template's first run of fixed text when it is long
	// enough: a match starts a few words before it, within the scanner's look-behind, however
	// long the message. Else the longest word of any run.
	e.anchor = longest
	if len(first) >= minAnchor && len(locs) > 0 && locs[0][0] < lookBehind/2 {
		e.anchor = first
	}
	e.fixed = len(strings.Join(strings.Fields(placeholderRe.ReplaceAllString(tmpl, " ")), ""))
	if len(e.anchor) < minAnchor && !(e.Part && len(e.anchor) >= minPartAnchor) {
		return fmt.Errorf("template: its longest run of fixed text without spaces, %q, is shorter than %d bytes: the scanner could not find it cheaply", e.anchor, minAnchor)
	}
	if !examples {
		return nil
	}
	if _, ok := e.Match(e.Example); !ok {
		return fmt.Errorf("the example %q does not match the template %q", e.Example, e.Template)
	}
	return nil
}

// literal is the pattern of a template's fixed text.
func literal(s string, first bool) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space {
			b.WriteString(`\s+`)
			space = false
		}
		switch r {
		case '"':
			b.WriteString(`\\?"`)
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	if space {
		b.WriteString(`\s+`)
	}
	out := b.String()
	if first {
		out = strings.TrimPrefix(out, `\s+`)
	}
	return out
}

// longer returns the longer of a and the longest run of s without spaces or quotes (runs that
// quotes cut in two may be written \" in JSON, so neither side counts across them).
func longer(a, s string) string {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '"' }) {
		if len(w) > len(a) {
			a = w
		}
	}
	return a
}

func typeNames() string {
	return strings.Join(slices.Sorted(maps.Keys(captureTypes)), ", ")
}
