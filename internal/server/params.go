package server

import (
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/store"
	"github.com/rootline-dev/rootline/internal/textcheck"
)

// filterParams are the library search's query parameters that reach the database as text.
var filterParams = []string{"tag", "symptom", "cause", "root", "component", "org", "from", "to"}

// checkFilterParams refuses, with 422 naming the parameter, a library search whose parameters
// the database would refuse (PostgreSQL: a NUL, invalid UTF-8) or that are no key at all:
// each filter is one line of at most incident.MaxName bytes, and q is words within the
// search's bounds (store.CheckQuery).
func checkFilterParams(c *gin.Context) error {
	for _, name := range filterParams {
		if err := incident.CheckLine(name, c.Query(name), incident.MaxName); err != nil {
			return errStatus(http.StatusUnprocessableEntity, err.Error())
		}
	}
	q := c.Query("q")
	if err := incident.CheckLine("q", q, store.MaxQueryBytes); err != nil {
		return errStatus(http.StatusUnprocessableEntity, err.Error())
	}
	if err := store.CheckQuery(q); err != nil {
		return errStatus(http.StatusUnprocessableEntity, err.Error())
	}
	return nil
}

// notAnID answers 404 for an id from a path that no incident can have (a NUL, kilobytes):
// such an id names none, and PostgreSQL would refuse it as text with an error; nil for an id.
func notAnID(id string) error {
	if incident.ValidID(id) {
		return nil
	}
	return errStatus(http.StatusNotFound, fmt.Sprintf("incident %s not found: not an incident id", textcheck.Quote(id)))
}
