package redact

import (
	"strings"
	"testing"
)

// TestTokenInProseOrAsACredential: "token:" and "authorization:" followed by words are prose in
// kubelet's and registries' messages, kept; followed by a credential-like value or a quoted one,
// the value is redacted; a redacted flag's value stays as it is when redacted again.
func TestTokenInProseOrAsACredential(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`failed to fetch token: pod "x" not found`, `failed to fetch token: pod "x" not found`},
		{`may require authorization: server message`, `may require authorization: server message`},
		{`token: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl`, `token: ` + Redacted},
		{`token: "pod"`, `token: ` + Redacted},
		{`run --password hunter2 now`, `run --password ` + Redacted + ` now`},
	} {
		got := Text(tc.in)
		if got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if again := Text(got); again != got {
			t.Errorf("Text(%q) again = %q, want it unchanged", got, again)
		}
	}
	if strings.Contains(Text("--token s3cret"), "s3cret") {
		t.Error("a flag's credential survives")
	}
}
