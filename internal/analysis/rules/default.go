package rules

import (
	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// Run analyses a model with the default rules.
func Run(m *cluster.Model, opts analysis.Options) analysis.Report {
	return Default().Run(m, opts)
}

// Default holds every rule Rootline has.
func Default() *analysis.Registry {
	r := &analysis.Registry{
		Symptoms: []analysis.SymptomRule{
			evictedRule{}, lingeringRule{}, pendingRule{}, oomRule{},
			probeRule{probe: "Liveness", kind: analysis.LivenessProbeFailed},
			probeRule{probe: "Readiness", kind: analysis.ReadinessProbeFailed},
			probeRule{probe: "Startup", kind: analysis.StartupProbeFailed},
			crashLoopRule{}, restartedRule{}, imagePullRule{}, preemptedRule{},
			nodeNotReadyRule{}, nodePressureRule{}, scaleUpRule{}, stuckCreatingRule{}, podCreateFailedRule{},
			rolloutStuckRule{}, jobFailedRule{}, volumeProvisioningRule{}, nodeOOMRule{},
		},
		Causes: []analysis.CauseRule{
			capacityRule{}, sharedPoolRule{}, sharedPrometheusRule{}, cpuStarvationRule{},
			memoryOverRequestRule{}, scaleUpNotReadyRule{}, schedulingConstraintsRule{},
			memoryLimitRule{}, requestExceedsNodeRule{}, volumeBindingRule{}, overcommitRule{}, nodeDiskRule{}, startFailureRule{},
			changedImageRule{}, loweredMemoryLimitRule{}, cutCPURule{}, tightenedProbeRule{}, movedPlacementRule{},
			cordonedNodeRule{}, taintedNodeRule{}, removedNodeRule{}, movedNeighbourRule{}, missingClassRule{},
		},
		Roles:  []analysis.ReportRule{changeRoles{}},
		Links:  defaultLinks(),
		Amends: []analysis.ReportRule{priorityRule{}},
		Gaps:   []analysis.GapRule{eventsGap{}, nodesGap{}, messagesGap{}, competingGap{}, quietGap{}},
	}
	r.Causes = append(r.Causes, directRules()...)
	r.Causes = append(r.Causes, tagRules()...)
	return r
}

// defaultLinks are the link rules, in the order they run.
func defaultLinks() []analysis.LinkRule {
	return []analysis.LinkRule{changeLink{}, triggeredLink{}, followsLink{}, newNodesLink{}, sameNodeLink{}, lingeringLink{}}
}
