package server_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/rootline-dev/rootline/internal/fixtures"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/store/storetest"
)

func TestCreateIncidentForm(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		token, cookie := formToken(t, base)
		post := func(v url.Values) (*http.Response, []byte) {
			v.Set("csrf", token)
			req, _ := http.NewRequest("POST", base+"/incidents", strings.NewReader(v.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set(cookie[0], cookie[1])
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var b bytes.Buffer
			if _, err := b.ReadFrom(resp.Body); err != nil {
				t.Fatal(err)
			}
			return resp, b.Bytes()
		}
		resp, _ := post(url.Values{"id": {"IL-0070"}, "title": {"Hub restart"}, "cluster": {"leap"}, "tags": {"kubernetes, observability"}})
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/incidents/IL-0070" {
			t.Fatalf("create: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
		}
		tests := []struct {
			name    string
			form    url.Values
			wantErr string
		}{
			{"duplicate id", url.Values{"id": {"IL-0070"}, "title": {"again"}}, "already exists"},
			{"no title", url.Values{"id": {"x"}, "title": {" "}}, "title is required"},
			{"bad tag", url.Values{"title": {"kept title"}, "tags": {"a b"}}, "tag"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				resp, b := post(tt.form)
				doc, _ := goquery.NewDocumentFromReader(bytes.NewReader(b))
				if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(doc.Find(`[data-testid="form-error"]`).Text(), tt.wantErr) {
					t.Errorf("%d, error %q; want 422 about %s", resp.StatusCode, doc.Find(`[data-testid="form-error"]`).Text(), tt.wantErr)
				}
				if v, _ := doc.Find(`input[name="title"]`).Attr("value"); v != tt.form.Get("title") {
					t.Errorf("the form lost the title: %q", v)
				}
			})
		}
		_, b := call(t, "GET", base+"/", "", nil)
		if !strings.Contains(string(b), `href="/incidents/IL-0070"`) {
			t.Errorf("the library does not link the incident")
		}
	})
}

func TestUploadPage(t *testing.T) {
	t.Parallel()
	storetest.Each(t, pg, func(t *testing.T, st *store.Store, _ storetest.Backend) {
		base := newServer(t, st, testConfig())
		createIncident(t, base, `{"id": "IL-0070", "title": "Hub restart"}`)
		status, b := call(t, "GET", base+"/upload?incident=IL-0070", "", nil)
		if status != 200 || !strings.Contains(string(b), `<option value="IL-0070" selected`) {
			t.Fatalf("upload page: %d", status)
		}
		token, cookie := formToken(t, base)
		form := func(files map[string][]byte, incident string) (*bytes.Buffer, string) {
			var buf bytes.Buffer
			w := multipart.NewWriter(&buf)
			_ = w.WriteField("csrf", token) // into a bytes.Buffer: no error
			_ = w.WriteField("incident", incident)
			for _, name := range []string{"nodes.json", "pods.json", "events.json", "broken.json"} {
				data, ok := files[name]
				if !ok {
					continue
				}
				part, _ := w.CreateFormFile("file", name)
				_, _ = part.Write(data)
			}
			w.Close()
			return &buf, w.FormDataContentType()
		}
		files := fixtures.IL0070Bytes(t)
		files["broken.json"] = []byte("{\"items\": [\n{\"kind\": x}]}")
		body, ct := form(files, "IL-0070")
		status, b = call(t, "POST", base+"/upload", ct, body, cookie...)
		doc, _ := goquery.NewDocumentFromReader(bytes.NewReader(b))
		results := map[string]string{}
		doc.Find(`[data-testid="upload-result"]`).Each(func(_ int, s *goquery.Selection) {
			results[s.Find("code").Text()] = s.Find("td").Eq(1).Text() + " | " + s.Find("td").Eq(2).Text() + " | " + s.Find("td").Eq(3).Text()
		})
		if status != http.StatusUnprocessableEntity || len(results) != 4 {
			t.Fatalf("upload: %d, results %v", status, results)
		}
		if !strings.HasPrefix(results["pods.json"], "stored | 306 Pod") || !strings.HasPrefix(results["nodes.json"], "stored | 126 Node") {
			t.Errorf("results = %v", results)
		}
		if !strings.HasPrefix(results["broken.json"], "refused") || !strings.Contains(results["broken.json"], "broken.json:2") {
			t.Errorf("the broken file is not refused with its position: %q", results["broken.json"])
		}
		// The good files are kept, and again they are already stored.
		body, ct = form(files, "IL-0070")
		_, b = call(t, "POST", base+"/upload", ct, body, cookie...)
		if strings.Count(string(b), "already stored") != 3 {
			t.Errorf("second upload does not say already stored three times: %s", b)
		}
		body, ct = form(files, "nope")
		if status, _ := call(t, "POST", base+"/upload", ct, body, cookie...); status != http.StatusUnprocessableEntity {
			t.Errorf("upload to an unknown incident: %d", status)
		}
	})
}
