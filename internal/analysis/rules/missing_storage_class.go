package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// missingClassRule finds claims that could not be provisioned because the storage class they
// ask for is not among those the input lists (`kubectl get sc` beside `get pvc`): no
// provisioner serves a class that does not exist, so such a claim waits for ever (the PV
// controller's `storageclass.storage.k8s.io "x" not found`, which the catalogue's tag gives
// where the input shows it). Its evidence is the claim's class and the classes listed.
type missingClassRule struct{}

func (missingClassRule) Name() string { return "missing-storage-class" }

func (missingClassRule) Causes(in analysis.Input, symptoms []analysis.Symptom) []analysis.Cause {
	classes := others(in.Model, "StorageClass")
	if len(classes) == 0 {
		return nil // no listing: nothing says which classes exist
	}
	var names []string
	for _, o := range classes {
		names = append(names, o.Name)
	}
	slices.Sort(names)
	claims := map[analysis.ObjectRef]*cluster.Object{}
	for _, o := range others(in.Model, "PersistentVolumeClaim") {
		claims[ref(o)] = o
	}
	c := analysis.Cause{Kind: analysis.MissingObject, Role: analysis.Root, Confidence: 0.8, Components: []analysis.Component{}}
	var missing []string
	for _, s := range symptoms {
		if s.Kind != analysis.VolumeProvisioningFailed || len(s.Objects) != 1 {
			continue
		}
		if _, _, said := tagShown(in, s, []string{"storageclass_not_found"}); said {
			continue // the component's own message says so: missing-object's
		}
		claim := claims[s.Objects[0]]
		if claim == nil {
			continue
		}
		pvc := claimOf(claim)
		if pvc == nil || pvc.Spec.StorageClassName == nil || *pvc.Spec.StorageClassName == "" {
			continue
		}
		class := *pvc.Spec.StorageClassName
		if slices.Contains(names, class) {
			continue
		}
		c.Explains = append(c.Explains, s.ID)
		c.Evidence = append(c.Evidence, cite(claim, "spec.storageClassName", class),
			cite(classes[0], "kind StorageClass", "the storage classes listed: "+strings.Join(names, ", ")))
		missing = append(missing, class)
	}
	if len(c.Explains) == 0 {
		return nil
	}
	missing = analysis.Unique(missing)
	c.Summary = fmt.Sprintf("%d claim(s) ask for a storage class the input's listing does not hold (%s; listed: %s): no provisioner serves it",
		len(c.Explains), strings.Join(missing, ", "), strings.Join(names, ", "))
	c.Evidence = analysis.Unique(c.Evidence)
	return []analysis.Cause{c}
}
