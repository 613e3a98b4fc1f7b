package access

import (
	"strings"
	"testing"
)

func TestScopes(t *testing.T) {
	for _, c := range []struct {
		have, need Scope
		ok         bool
	}{
		{Read, Read, true}, {Read, Write, false}, {Read, Admin, false},
		{Write, Read, true}, {Write, Write, true}, {Write, Admin, false},
		{Admin, Read, true}, {Admin, Write, true}, {Admin, Admin, true},
		{"", Read, false}, {"root", Read, false},
	} {
		if got := c.have.Allows(c.need); got != c.ok {
			t.Errorf("%q allows %q = %v, want %v", c.have, c.need, got, c.ok)
		}
	}
	for method, want := range map[string]Scope{"GET": Read, "HEAD": Read, "OPTIONS": Read, "POST": Write, "PUT": Write, "DELETE": Write, "PATCH": Write} {
		if got := Needed(method); got != want {
			t.Errorf("Needed(%s) = %s, want %s", method, got, want)
		}
	}
	if _, err := ParseScope("superuser"); err == nil {
		t.Error("ParseScope accepted superuser")
	}
}

func TestNewToken(t *testing.T) {
	a, ha, err := NewToken()
	if err != nil {
		t.Fatal(err)
	}
	b, hb, _ := NewToken()
	if a == b || ha == hb || !strings.HasPrefix(a, "rl_") || len(a) < 40 {
		t.Errorf("tokens %q and %q", a, b)
	}
	if Hash(a) != ha || Hash(" "+a+"\n") != ha || strings.Contains(ha, a) {
		t.Errorf("hash of %q: %q", a, ha)
	}
}

func TestValidName(t *testing.T) {
	for _, ok := range []string{"ci", "collector-prod", "a.b_c"} {
		if err := ValidName(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "has space", strings.Repeat("x", 65), "é", "a/b"} {
		if err := ValidName(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
