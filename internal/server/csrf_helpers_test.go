package server_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
)

var csrfInPage = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// formToken gets a form token the way a browser does: a page's form field, with the cookie
// the page set (or that the browser sent, in cookies). It returns the token and the header
// pairs a form post must carry for call.
func formToken(t *testing.T, base string, cookies ...*http.Cookie) (string, []string) {
	t.Helper()
	req, _ := http.NewRequest("GET", base+"/upload", nil)
	for _, c := range cookies {
		req.AddCookie(c)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	m := csrfInPage.FindStringSubmatch(b.String())
	if m == nil {
		t.Fatalf("GET /upload: %d, no form token in the page", resp.StatusCode)
	}
	all := append(resp.Cookies(), cookies...)
	var pairs []string
	for _, c := range all {
		pairs = append(pairs, c.Name+"="+c.Value)
	}
	return m[1], []string{"Cookie", strings.Join(pairs, "; ")}
}
