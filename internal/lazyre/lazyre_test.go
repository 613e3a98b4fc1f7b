package lazyre

import (
	"fmt"
	"regexp"
	"slices"
	"testing"
)

// TestBadExpressionFailsInTests: in a test binary an expression is compiled by New, so that a
// bad one fails its package's tests as regexp.MustCompile at package level would.
func TestBadExpressionFailsInTests(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("New of a bad expression did not panic in a test binary")
		}
	}()
	New(`(unclosed`)
}

// TestAnswersAsRegexp: each method answers as regexp's does.
func TestAnswersAsRegexp(t *testing.T) {
	t.Parallel()
	const expr, s = `(?P<n>\d+) (node|pod)s?`, "3 nodes, 12 pods and 1 pod"
	r, want := New(expr), regexp.MustCompile(expr)
	if r.MatchString(s) != want.MatchString(s) || r.FindString(s) != want.FindString(s) || r.String() != want.String() ||
		!slices.Equal(r.FindStringIndex(s), want.FindStringIndex(s)) ||
		!slices.Equal(r.FindStringSubmatch(s), want.FindStringSubmatch(s)) ||
		!slices.Equal(r.FindStringSubmatchIndex(s), want.FindStringSubmatchIndex(s)) ||
		!slices.Equal(r.FindAllString(s, -1), want.FindAllString(s, -1)) ||
		fmt.Sprint(r.FindAllStringIndex(s, -1)) != fmt.Sprint(want.FindAllStringIndex(s, -1)) ||
		fmt.Sprint(r.FindAllStringSubmatch(s, -1)) != fmt.Sprint(want.FindAllStringSubmatch(s, -1)) ||
		r.ReplaceAllString(s, "$n") != want.ReplaceAllString(s, "$n") ||
		!slices.Equal(r.Split(s, -1), want.Split(s, -1)) {
		t.Errorf("lazyre.Regexp of %q answers otherwise than regexp's", expr)
	}
}

// TestCompiledOnFirstUse: outside a test binary nothing is compiled until the expression is
// used, and then once.
func TestCompiledOnFirstUse(t *testing.T) {
	t.Parallel()
	r := &Regexp{str: `a+`} // as New makes it outside a test binary
	if r.rx != nil {
		t.Fatal("compiled before use")
	}
	if !r.MatchString("caat") || r.rx == nil {
		t.Fatal("not compiled by its first use")
	}
	first := r.rx
	r.FindString("a")
	if r.rx != first {
		t.Error("compiled again")
	}
}
