// Package lazyre is a regular expression compiled the first time it is used, for the packages
// that hold many at package level (the text reader holds 127): compiled as the package was
// initialised, they cost every rootline process, whatever it ran, 20 ms and half a megabyte of
// heap that a `rootline analyze` of JSON files never used (issue 30).
//
// It is the Go tools' own internal/lazyregexp (cmd/go, golang.org/x/tools), which cannot be
// imported: in a test binary the expression is compiled at once, so that a bad one still fails
// every test of its package, as regexp.MustCompile at package level does.
package lazyre

import (
	"os"
	"regexp"
	"strings"
	"sync"
)

// Regexp is a regular expression compiled on first use.
type Regexp struct {
	str  string
	once sync.Once
	rx   *regexp.Regexp
}

// New returns the expression str, to be compiled on first use; it panics then if str is not
// a valid expression (at once in a test binary).
func New(str string) *Regexp {
	r := &Regexp{str: str}
	if inTest {
		r.re()
	}
	return r
}

// inTest is whether the process is a test binary (its name ends in .test).
var inTest = len(os.Args) > 0 && strings.HasSuffix(strings.TrimSuffix(os.Args[0], ".exe"), ".test")

func (r *Regexp) re() *regexp.Regexp {
	r.once.Do(func() { r.rx = regexp.MustCompile(r.str) })
	return r.rx
}

func (r *Regexp) MatchString(s string) bool              { return r.re().MatchString(s) }
func (r *Regexp) FindString(s string) string             { return r.re().FindString(s) }
func (r *Regexp) FindStringIndex(s string) []int         { return r.re().FindStringIndex(s) }
func (r *Regexp) FindStringSubmatch(s string) []string   { return r.re().FindStringSubmatch(s) }
func (r *Regexp) FindStringSubmatchIndex(s string) []int { return r.re().FindStringSubmatchIndex(s) }
func (r *Regexp) FindAllString(s string, n int) []string { return r.re().FindAllString(s, n) }
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.re().FindAllStringIndex(s, n)
}
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.re().FindAllStringSubmatch(s, n)
}
func (r *Regexp) ReplaceAllString(src, repl string) string { return r.re().ReplaceAllString(src, repl) }
func (r *Regexp) Split(s string, n int) []string           { return r.re().Split(s, n) }
func (r *Regexp) String() string                           { return r.str }
