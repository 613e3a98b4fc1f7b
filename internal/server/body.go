package server

import (
	"errors"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/gin-gonic/gin"
)

// errSlowBody cuts a request whose body comes too slowly.
var errSlowBody = &httpError{Status: http.StatusRequestTimeout, Msg: "the request body came too slowly: it was cut"}

// bodyDeadline bounds how long a client may take over a request's body, so that a client
// sending a byte now and then cannot hold a connection and a handler for ever: the body must
// not be silent for --body-idle (30 s), and once that long has passed it must average
// --body-rate (16 KiB/s) since its start. Either failing ends the request with 408 and closes
// the connection. Authentication comes before any body is read (requireAuth runs first), so
// a client without a token is refused at once, whatever its body.
func (s *Server) bodyDeadline() gin.HandlerFunc {
	return func(c *gin.Context) {
		r := c.Request
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
			c.Next()
			return
		}
		rc := http.NewResponseController(c.Writer)
		r.Body = &slowBody{ReadCloser: r.Body, rc: rc, idle: s.cfg.BodyIdle, rate: s.cfg.BodyRate, start: time.Now()}
		c.Next()
		_ = rc.SetReadDeadline(time.Time{}) // the connection may serve another request
	}
}

// slowBody is a request body under bodyDeadline's rules.
type slowBody struct {
	io.ReadCloser
	rc    *http.ResponseController
	idle  time.Duration
	rate  int64 // bytes a second; 0: only the idle rule
	start time.Time
	n     int64
	err   error
}

func (b *slowBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	now := time.Now()
	if late := now.Sub(b.start) - b.idle; b.rate > 0 && late > 0 && float64(b.n) < float64(b.rate)*late.Seconds() {
		return 0, b.fail()
	}
	// Where the connection cannot take a deadline (HTTP/2 over a proxy, a test recorder), only
	// the rate rule holds.
	_ = b.rc.SetReadDeadline(now.Add(b.idle))
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return n, b.fail()
	}
	return n, err
}

func (b *slowBody) fail() error {
	b.err = errSlowBody
	return b.err
}

// headAsGet answers HEAD as the GET of the same route would, without its body: gin routes
// each method on its own, and the read scope allows HEAD wherever it allows GET. net/http
// itself drops what the handler writes for a HEAD request.
func headAsGet(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			g := r.Clone(r.Context())
			g.Method = http.MethodGet
			r = g
		}
		h.ServeHTTP(w, r)
	})
}
