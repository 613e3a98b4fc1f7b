package server

import (
	"errors"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/kinds"
	"github.com/rootline-dev/rootline/templates/incidents"
)

// signatureResponse is an incident's signatures as the API shows them.
type signatureResponse struct {
	incident.Signatures
	OriginWords string `json:"origin_words"`
}

func toSignatureResponse(sigs incident.Signatures) signatureResponse {
	if sigs.ByOrigin == nil {
		sigs.ByOrigin = map[string]incident.Signature{}
	}
	return signatureResponse{Signatures: sigs, OriginWords: incident.OriginWords(sigs.Origin)}
}

// getSignature answers GET /api/v1/incidents/{id}/signature: the signature that speaks for
// the incident, its origin, and every origin's.
func (s *Server) getSignature(c *gin.Context) error {
	in, err := s.incident(c.Request.Context(), c.Param("id"))
	if err != nil {
		return err
	}
	if err := s.Settle(c.Request.Context()); err != nil {
		return err
	}
	sigs, err := s.deps.Library.Signatures(c.Request.Context(), in.ID)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, toSignatureResponse(sigs))
	return nil
}

// putSignature answers PUT /api/v1/incidents/{id}/signature: a person sets the signature,
// which wins over the report's and the analysis'. Body: {"symptoms", "root_cause", "causes",
// "components": [{"kind", "name"}]}; kinds outside the vocabulary are a 422.
func (s *Server) putSignature(c *gin.Context) error {
	var sig incident.Signature
	if err := decodeJSON(c, &sig); err != nil {
		return err
	}
	return s.setSignature(c, &sig, func(sigs incident.Signatures) error {
		c.JSON(http.StatusOK, toSignatureResponse(sigs))
		return nil
	})
}

// deleteSignature answers DELETE /api/v1/incidents/{id}/signature: the person's signature is
// removed, and the report's or the analysis' speaks again.
func (s *Server) deleteSignature(c *gin.Context) error {
	return s.setSignature(c, nil, func(sigs incident.Signatures) error {
		c.JSON(http.StatusOK, toSignatureResponse(sigs))
		return nil
	})
}

// setSignature checks and stores a person's signature (nil removes it), then answers with done.
func (s *Server) setSignature(c *gin.Context, sig *incident.Signature, done func(incident.Signatures) error) error {
	ctx := c.Request.Context()
	in, err := s.incident(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	if sig != nil {
		if err := sig.Check(analysis.SymptomKinds, analysis.CauseKinds); err != nil {
			return errStatus(http.StatusUnprocessableEntity, err.Error())
		}
		if sig.Empty() {
			sig = nil // an empty signature says nothing: it cannot win
		}
	}
	if err := s.deps.Library.SetPersonSignature(ctx, in.ID, sig); err != nil {
		return err
	}
	if err := s.Settle(ctx); err != nil {
		return err
	}
	s.log.InfoContext(ctx, "signature set by a person", "incident_id", in.ID, "cleared", sig == nil)
	sigs, err := s.deps.Library.Signatures(ctx, in.ID)
	if err != nil {
		return err
	}
	return done(sigs)
}

// signatureForm takes the related page's form: lists of kinds separated by commas or spaces,
// and components one per line as "Kind name". "clear" removes the person's signature.
func (s *Server) signatureForm(c *gin.Context) error {
	redirect := func(incident.Signatures) error {
		c.Redirect(http.StatusSeeOther, "/incidents/"+c.Param("id")+"/related#signature")
		return nil
	}
	if c.PostForm("action") == "clear" {
		return s.setSignature(c, nil, redirect)
	}
	form := incidents.SignatureForm{Symptoms: c.PostForm("symptoms"), RootCause: c.PostForm("root_cause"),
		Causes: c.PostForm("causes"), Components: c.PostForm("components")}
	sig := incident.Signature{Symptoms: listOf(form.Symptoms), RootCause: strings.TrimSpace(form.RootCause), Causes: listOf(form.Causes)}
	for _, line := range strings.Split(form.Components, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		sig.Components = append(sig.Components, incident.Component{Kind: f[0], Name: strings.Join(f[1:], " ")})
	}
	err := s.setSignature(c, &sig, redirect)
	var he *httpError
	if errors.As(err, &he) && he.Status == http.StatusUnprocessableEntity {
		return s.renderRelated(c, http.StatusUnprocessableEntity, &form, he.Msg)
	}
	return err
}

func listOf(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\r' || r == '\t' })
}

// signatureView shows the signature that speaks for an incident, where it comes from, and
// the form to change it, filled with it.
func signatureView(sigs incident.Signatures) incidents.SignatureView {
	eff := sigs.Effective
	v := incidents.SignatureView{Origin: sigs.Origin, OriginWords: incident.OriginWords(sigs.Origin), Person: sigs.Origin == incident.OriginPerson,
		Symptoms: eff.Symptoms, RootCause: eff.RootCause, Causes: eff.Causes,
		SymptomKinds: analysis.SymptomKinds, CauseKinds: analysis.CauseKinds, ComponentKinds: kinds.Components}
	var lines []string
	for _, c := range eff.Components {
		v.Components = append(v.Components, strings.TrimSpace(incident.ComponentWord(c.Kind)+" "+c.Name))
		lines = append(lines, strings.TrimSpace(c.Kind+" "+c.Name))
	}
	v.Form = incidents.SignatureForm{Symptoms: strings.Join(eff.Symptoms, ", "), RootCause: eff.RootCause,
		Causes: strings.Join(eff.Causes, ", "), Components: strings.Join(lines, "\n")}
	return v
}
