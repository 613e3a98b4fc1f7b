package server

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
)

// healthz answers as long as the process serves requests.
func (s *Server) healthz(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

// readyz answers 200 when the database answers within two seconds, 503 otherwise.
func (s *Server) readyz(c *gin.Context) error {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 2*time.Second)
	defer cancel()
	if err := s.deps.DB.Ping(ctx); err != nil {
		s.log.WarnContext(ctx, "not ready: database unreachable", "error", err)
		return errStatus(http.StatusServiceUnavailable, "database unreachable")
	}
	c.JSON(http.StatusOK, gin.H{"status": "ready"})
	return nil
}
