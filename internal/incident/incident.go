// Package incident holds Rootline's incidents: what went wrong, when, on which cluster, and
// how people tagged it. It is pure: storage and pages use these types, never the reverse.
package incident

import (
	"crypto/rand"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/textcheck"
)

// Incident is one incident under investigation or in the library.
type Incident struct {
	ID        string
	Title     string
	Cluster   string // name of the cluster it happened on; "" when unknown
	Org       string // the organisation it happened to, from its report
	Date      string // YYYY-MM-DD: when it happened: its report's date, else the day it started, else its evidence's first day, else the day it was created
	RootCause string // the root cause of the signature that speaks for it (a person's, its report's, its analysis'), "" when none
	StartedAt *time.Time
	EndedAt   *time.Time
	Tags      []string
	CreatedAt time.Time
	UpdatedAt time.Time
}

var (
	idPattern  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	tagPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._/-]{0,62}$`)
)

// ErrInvalid marks an incident that fails validation; the message says which field.
var ErrInvalid = errors.New("invalid incident")

// Validate checks the fields people give, and normalises tags (lower case, each once, in the order given).
func (in *Incident) Validate() error {
	if !ValidID(in.ID) {
		return fmt.Errorf("%w: id %s: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", ErrInvalid, textcheck.Quote(in.ID))
	}
	in.Title = strings.TrimSpace(in.Title)
	if in.Title == "" {
		return fmt.Errorf("%w: title is required", ErrInvalid)
	}
	if err := CheckLine("title", in.Title, MaxTitle); err != nil {
		return err
	}
	if in.StartedAt != nil && in.EndedAt != nil && in.EndedAt.Before(*in.StartedAt) {
		return fmt.Errorf("%w: ended_at is before started_at", ErrInvalid)
	}
	if err := ValidateClusterName(in.Cluster); in.Cluster != "" && err != nil {
		return err
	}
	seen := map[string]bool{}
	tags := in.Tags[:0:0]
	for _, t := range in.Tags {
		t = strings.ToLower(strings.TrimSpace(t))
		if !tagPattern.MatchString(t) {
			return fmt.Errorf("%w: tag %s: use 1 to 63 lower-case letters, digits, '.', '_', '/' or '-'", ErrInvalid, textcheck.Quote(t))
		}
		if !seen[t] {
			seen[t] = true
			tags = append(tags, t)
		}
	}
	in.Tags = tags
	return nil
}

// ValidID reports whether id is an incident id. An id that is not names no incident: lookups
// may answer "not found" without asking the database.
func ValidID(id string) bool { return idPattern.MatchString(id) }

var clusterPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,127}$`)

// ValidateClusterName checks a cluster name as people and kubeconfig contexts write them.
func ValidateClusterName(name string) error {
	if !clusterPattern.MatchString(name) {
		return fmt.Errorf("%w: cluster %s: use up to 128 letters, digits and . _ : / @ -", ErrInvalid, textcheck.Quote(name))
	}
	return nil
}

// NewID returns a fresh incident id such as "inc-20230201-k3x9q2".
func NewID(now time.Time) string {
	const alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
	b := make([]byte, 6)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return "inc-" + now.UTC().Format("20060102") + "-" + string(b)
}
