package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/ingest"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/templates"
)

// httpError is an error with the status and message to answer with. Err, if set, is the cause,
// logged for 5xx answers and never shown to the client.
type httpError struct {
	Status int
	Msg    string
	Err    error
	Extra  gin.H // more fields for the JSON answer (file, line)
}

func (e *httpError) Error() string {
	if e.Err != nil {
		return e.Msg + ": " + e.Err.Error()
	}
	return e.Msg
}

func (e *httpError) Unwrap() error { return e.Err }

// statusClientClosed answers a request whose client went before the answer was ready.
const statusClientClosed = 499

func errStatus(status int, msg string) error { return &httpError{Status: status, Msg: msg} }

// handlerFunc is a gin handler that returns its error instead of writing it.
type handlerFunc func(c *gin.Context) error

// handle adapts a handlerFunc: errors become JSON {"error": …} answers with the status the
// error carries; anything unexpected is a logged 500 that reveals nothing.
func (s *Server) handle(h handlerFunc) gin.HandlerFunc {
	return func(c *gin.Context) {
		err := h(c)
		if err == nil {
			return
		}
		he := s.classify(err)
		if !drainRefused(c, he.Status) {
			closeUnread(c)
		}
		if he.Status >= 500 {
			s.log.ErrorContext(c.Request.Context(), "request failed", "method", c.Request.Method, "path", c.Request.URL.Path, "status", he.Status, "error", err)
		}
		if he.Status == http.StatusServiceUnavailable {
			c.Header("Retry-After", "5")
		}
		if !isAPI(c) && wantsHTML(c) {
			c.Abort()
			if err := render(c, he.Status, http.StatusText(he.Status), templates.ErrorPage(he.Status, he.Msg)); err != nil {
				s.log.WarnContext(c.Request.Context(), "error page not written", "error", err)
			}
			return
		}
		body := gin.H{"error": he.Msg}
		for k, v := range he.Extra {
			body[k] = v
		}
		c.AbortWithStatusJSON(he.Status, body)
	}
}

// wantsHTML reports whether the client is a browser asking for a page: the API and every
// other client get JSON errors.
func wantsHTML(c *gin.Context) bool {
	accept := c.GetHeader("Accept")
	return strings.Contains(accept, "text/html") && !strings.HasPrefix(accept, "application/json")
}

// classify maps an error to the answer: httpErrors as they are, the store's and ingest's
// sentinels to their statuses, the rest to 500.
func (s *Server) classify(err error) *httpError {
	var he *httpError
	if errors.As(err, &he) {
		return he
	}
	var ie *ingest.Error
	if errors.As(err, &ie) {
		status := http.StatusUnprocessableEntity
		switch {
		case errors.Is(err, ingest.ErrTooLarge):
			status = http.StatusRequestEntityTooLarge
		case errors.Is(err, ingest.ErrUnsupported):
			status = http.StatusUnsupportedMediaType
		}
		extra := gin.H{"file": ie.File}
		if ie.Line > 0 {
			extra["line"] = ie.Line
		} else {
			extra["offset"] = ie.Offset
		}
		return &httpError{Status: status, Msg: ie.Error(), Extra: extra}
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return &httpError{Status: http.StatusRequestEntityTooLarge, Msg: "request body larger than the limit of " + formatBytes(mbe.Limit)}
	}
	switch {
	case errors.Is(err, context.Canceled):
		// The client went (or the server is stopping): no one reads the answer, and it is not
		// the server's failure. nginx's 499 says so in the metrics.
		return &httpError{Status: statusClientClosed, Msg: "the request was cancelled", Err: err}
	case errors.Is(err, context.DeadlineExceeded):
		return &httpError{Status: http.StatusServiceUnavailable, Msg: "the request took longer than the server allows (--upload-timeout): nothing was stored", Err: err}
	case store.IsFull(err):
		// 507: the request was fine and nothing of it was stored; it succeeds once the
		// database (or the spool) has room again, which an operator must make.
		return &httpError{Status: http.StatusInsufficientStorage, Msg: "the server is out of disk space: nothing was stored", Err: err}
	case store.IsUnavailable(err):
		return &httpError{Status: http.StatusServiceUnavailable, Msg: "the database is unavailable: try again shortly", Err: err}
	case errors.Is(err, store.ErrNotFound):
		return &httpError{Status: http.StatusNotFound, Msg: "not found", Err: err}
	case errors.Is(err, store.ErrExists):
		return &httpError{Status: http.StatusConflict, Msg: "already exists", Err: err}
	case errors.Is(err, store.ErrTooManyNotes):
		return &httpError{Status: http.StatusUnprocessableEntity, Msg: fmt.Sprintf("an incident holds at most %d notes: nothing was added", store.MaxNotes), Err: err}
	}
	return &httpError{Status: http.StatusInternalServerError, Msg: "internal error", Err: err}
}
