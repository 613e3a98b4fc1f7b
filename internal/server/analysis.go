package server

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/store"
)

// getAnalysis answers GET /api/v1/incidents/{id}/analysis: the same analysis `rootline
// analyze` prints, over everything the incident's snapshots hold.
func (s *Server) getAnalysis(c *gin.Context) error {
	id := c.Param("id")
	files, objs, err := s.deps.Objects.IncidentObjects(c.Request.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		return errStatus(http.StatusNotFound, fmt.Sprintf("incident %s not found", id))
	}
	if err != nil {
		return err
	}
	rep := analysis.Run(cluster.NewModel(files, objs), analysis.Options{})
	c.JSON(http.StatusOK, rep)
	return nil
}
