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
		b := &slowBody{ReadCloser: r.Body, rc: rc, idle: s.cfg.BodyIdle, rate: s.cfg.BodyRate, start: time.Now()}
		r.Body = b
		c.Set(slowBodyKey, b)
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
	eof   bool
}

// slowBodyKey holds a request's slowBody in its gin context, for drainRefused.
const slowBodyKey = "rootline.body"

// maxDrain is how much of a refused body drainRefused reads before it gives up and closes.
const maxDrain = 64 << 20

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
	if err == io.EOF {
		b.eof = true
	}
	return n, err
}

// drainRefused reads what is left of the body of a request refused part way through it (a
// full spool, a database error), under the same idle and rate rules, so that the client,
// still sending, gets the answer rather than a connection reset: a server that closes while
// the client writes makes the client's kernel drop the answer it had received. It reads at
// most maxDrain bytes, and nothing for a body not begun (refused before it was read: it is
// cut at once) or too large (413) or too slow (408). It reports whether the body was read
// to its end, so that the connection may stay open.
func drainRefused(c *gin.Context, status int) bool {
	v, ok := c.Get(slowBodyKey)
	if !ok {
		return true
	}
	b := v.(*slowBody)
	if b.eof {
		return true
	}
	if b.n == 0 || b.err != nil || status == http.StatusRequestEntityTooLarge || status == http.StatusRequestTimeout {
		return false
	}
	n, err := io.Copy(io.Discard, io.LimitReader(b, maxDrain))
	return err == nil && n < maxDrain && b.eof
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
