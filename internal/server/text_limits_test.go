package server_test

import (
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

// TestTextLimits (issue 15, item 12): a NUL or another control character in a text field or a
// query parameter, or a name too long for an index, is refused with 422 naming the field, and
// nothing is stored; the same on both databases (PostgreSQL refuses NUL in text, and an index
// entry of more than about 2.7 KB, with errors that were 500s).
func TestTextLimits(t *testing.T) {
	t.Parallel()
	big := noisyText(4096) // 4 KB that does not compress: PostgreSQL indexes it as it is
	report := func(front, body string) string {
		return "---\nid: R1\ntitle: A report\ndate: 2023-02-01\n" + front + "---\n" + body + "\n"
	}
	const md = "text/markdown"
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "x", "title": "Hub restart", "tags": ["k"]}`)
		token, cookie := formToken(t, base)
		before := rowCounts(t, st, bk.Target)
		scenarios := []struct {
			name, method, path, ct, body string
			status                       int
			says                         string
		}{
			{"title NUL", "POST", "/api/v1/incidents", "", `{"id": "t1", "title": "a\u0000b"}`, 422, "title"},
			{"title control", "POST", "/api/v1/incidents", "", `{"id": "t1", "title": "a\u001bb"}`, 422, "title"},
			{"title newline", "POST", "/api/v1/incidents", "", `{"id": "t1", "title": "a\nb"}`, 422, "title"},
			{"title 4 KB", "POST", "/api/v1/incidents", "", `{"id": "t1", "title": "` + big + `"}`, 422, "title"},
			{"id 4 KB", "POST", "/api/v1/incidents", "", `{"id": "` + big + `", "title": "t"}`, 422, "id"},
			{"tag NUL", "POST", "/api/v1/incidents", "", `{"id": "t1", "title": "t", "tags": ["a\u0000"]}`, 422, "tag"},
			{"tag 4 KB", "POST", "/api/v1/incidents", "", `{"id": "t1", "title": "t", "tags": ["` + big + `"]}`, 422, "tag"},
			{"edit title NUL", "PUT", "/api/v1/incidents/x", "", `{"title": "a\u0000b"}`, 422, "title"},
			{"edit form title NUL", "POST", "/incidents/x/edit", "application/x-www-form-urlencoded",
				url.Values{"title": {"a\x00b"}, "csrf": {token}}.Encode(), 422, "title"},
			{"note NUL", "POST", "/api/v1/incidents/x/notes", "", `{"body": "a\u0000b"}`, 422, "body"},
			{"note control", "POST", "/api/v1/incidents/x/notes", "", `{"body": "a\u0007b"}`, 422, "body"},
			{"note author NUL", "POST", "/api/v1/incidents/x/notes", "", `{"body": "b", "author": "a\u0000"}`, 422, "author"},
			{"note form NUL", "POST", "/incidents/x/notes", "application/x-www-form-urlencoded",
				url.Values{"body": {"a\x00b"}, "csrf": {token}}.Encode(), 422, "body"},
			{"report text NUL", "POST", "/api/v1/incidents/import?name=R1.md", md, report("", "a\x00b"), 422, "R1.md:6"},
			{"report title NUL", "POST", "/api/v1/incidents/import?name=R1.md", md, strings.Replace(report("", "x"), "A report", `"a\0b"`, 1), 422, "title"},
			{"report org 4 KB", "POST", "/api/v1/incidents/import?name=R1.md", md, report("org: "+big+"\n", "x"), 422, "org"},
			{"report org NUL", "POST", "/api/v1/incidents/import?name=R1.md", md, report(`org: "a\0"`+"\n", "x"), 422, "org"},
			{"report tag NUL", "POST", "/api/v1/incidents/import?name=R1.md", md, report(`tags: ["a\0"]`+"\n", "x"), 422, "tag"},
			{"report component 4 KB", "POST", "/api/v1/incidents/import?name=R1.md", md,
				report("components: [{kind: NodePool, name: "+big+"}]\n", "x"), 422, "component"},
			{"report component NUL", "POST", "/api/v1/incidents/import?name=R1.md", md,
				report(`components: [{kind: NodePool, name: "a\0"}]`+"\n", "x"), 422, "component"},
			{"report note NUL", "POST", "/api/v1/incidents/import?name=R1.md", md,
				report(`notes: [{kind: observation, body: "a\0"}]`+"\n", "x"), 422, "note 1: invalid incident: body"},
			{"report note author NUL", "POST", "/api/v1/incidents/import?name=R1.md", md,
				report(`notes: [{kind: observation, body: a, author: "a\0"}]`+"\n", "x"), 422, "note 1: invalid incident: author"},
			{"report without front matter, NUL", "POST", "/api/v1/incidents/import?name=R2.md", md, "# Title\x00\n\ntext\n", 422, "R2.md:1"},
			{"?tag=%00", "GET", "/api/v1/incidents?tag=%00", "", "", 422, "tag"},
			{"?tag=4 KB", "GET", "/api/v1/incidents?tag=" + big, "", "", 422, "tag"},
			{"?q=%00", "GET", "/api/v1/incidents?q=%00", "", "", 422, "q"},
			{"?org=%00", "GET", "/api/v1/incidents?org=%00", "", "", 422, "org"},
			{"?cause=%00", "GET", "/api/v1/incidents?cause=%00", "", "", 422, "cause"},
			{"?symptom=%00", "GET", "/api/v1/incidents?symptom=%00", "", "", 422, "symptom"},
			{"?root=%00", "GET", "/api/v1/incidents?root=%00", "", "", 422, "root"},
			{"?component=%00", "GET", "/api/v1/incidents?component=%00", "", "", 422, "component"},
			{"?component=invalid UTF-8", "GET", "/api/v1/incidents?component=%ff", "", "", 422, "component"},
			{"library page ?tag=%00", "GET", "/?tag=%00", "", "", 422, "tag"},
			{"incident NUL", "GET", "/api/v1/incidents/a%00", "", "", 404, "not found"},
			{"incident 4 KB", "GET", "/api/v1/incidents/" + big, "", "", 404, "not found"},
			{"incident page NUL", "GET", "/incidents/a%00", "", "", 404, "not found"},
			{"notes of NUL", "GET", "/api/v1/incidents/a%00/notes", "", "", 404, "not found"},
			{"note to NUL", "POST", "/api/v1/incidents/a%00/notes", "", `{"body": "b"}`, 404, "not found"},
			{"snapshot to NUL", "POST", "/api/v1/incidents/a%00/snapshots", "", `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "n"}}`, 404, "not found"},
		}
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) {
				ct := sc.ct
				if ct == "" && sc.body != "" {
					ct = "application/json"
				}
				status, got := call(t, sc.method, base+sc.path, ct, strings.NewReader(sc.body), cookie...)
				if status != sc.status {
					t.Fatalf("status = %d, want %d; body %.300s", status, sc.status, got)
				}
				if !strings.Contains(string(got), sc.says) {
					t.Errorf("answer does not name %q: %.300s", sc.says, got)
				}
				if len(got) > 2048 && !strings.Contains(string(got), "<html") {
					t.Errorf("answer of %d bytes: the value is echoed whole", len(got))
				}
			})
		}
		assertCounts(t, st, bk.Target, before)
		// Multi-line text keeps its tabs and line ends.
		if status, b := call(t, "POST", base+"/api/v1/incidents/x/notes", "application/json", strings.NewReader(`{"body": "a\tb\r\nc\rd"}`)); status != http.StatusCreated {
			t.Errorf("a note with a tab and line ends: %d %s", status, b)
		}
	})
}

// noisyText is n letters and digits, the same on every run.
func noisyText(n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	r := rand.New(rand.NewPCG(15, 12))
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

// TestSignInNameText: a name no account can have (a NUL, on PostgreSQL once a 500) is a wrong
// name, as any unknown name is.
func TestSignInNameText(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, bk storetest.Backend) {
		cfg := testConfig()
		cfg.Auth = "on"
		b := newBrowser(t, newServer(t, st, cfg))
		for _, name := range []string{"a\x00", noisyText(4096)} {
			a := b.form("/login", url.Values{"csrf": {b.token("/login")}, "name": {name}, "password": {"a password"}})
			if a.status != http.StatusUnauthorized || !strings.Contains(a.body, "wrong name or password") {
				t.Errorf("sign in as %.20q: %d %.200s", name, a.status, a.body)
			}
		}
	})
}
