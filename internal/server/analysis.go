package server

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

// getAnalysis answers GET /api/v1/incidents/{id}/analysis: the same analysis `rootline
// analyze` prints, over everything the incident's snapshots hold.
func (s *Server) getAnalysis(c *gin.Context) error {
	st, err := s.loadIncident(c.Request.Context(), c.Param("id"))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, st.report)
	return nil
}
