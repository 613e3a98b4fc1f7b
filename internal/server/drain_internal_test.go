package server

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/config"
)

// TestRefusedMidBodyIsAnswered: a request refused after part of its body was read (a full
// spool, a database error) gets its answer, not a connection reset, while the client is still
// sending; a request refused before its body was read is cut at once and closed.
func TestRefusedMidBodyIsAnswered(t *testing.T) {
	gin.SetMode(gin.TestMode)
	s := &Server{log: slog.New(slog.DiscardHandler), cfg: config.Config{BodyIdle: 5 * time.Second, BodyRate: 16 << 10}}
	r := gin.New()
	r.Use(s.bodyDeadline())
	r.POST("/midway", s.handle(func(c *gin.Context) error {
		if _, err := io.CopyN(io.Discard, c.Request.Body, 64<<10); err != nil {
			return err
		}
		return errStatus(http.StatusInsufficientStorage, "out of disk space")
	}))
	r.POST("/before", s.handle(func(c *gin.Context) error {
		return errStatus(http.StatusServiceUnavailable, "busy")
	}))
	srv := httptest.NewServer(r)
	defer srv.Close()

	body := bytes.Repeat([]byte("x"), 32<<20) // more than the sockets on either side hold
	for i := range 5 {
		resp, err := http.Post(srv.URL+"/midway", "application/octet-stream", bytes.NewReader(body))
		if err != nil {
			t.Fatalf("try %d: refused mid-body: %v, want the 507", i, err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusInsufficientStorage || !bytes.Contains(out, []byte("out of disk space")) {
			t.Fatalf("try %d: %d %s, want 507", i, resp.StatusCode, out)
		}
		if resp.Close {
			t.Errorf("try %d: a body read to its end closes the connection", i)
		}
	}

	resp, err := http.Post(srv.URL+"/before", "application/octet-stream", bytes.NewReader([]byte("small body")))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !resp.Close {
		t.Errorf("refused before its body: %d, close %v; want 503 and the connection closed", resp.StatusCode, resp.Close)
	}
}
