package analysis

import "github.com/rootline-dev/rootline/internal/cluster"

// Run analyses a model with the default rules.
func Run(m *cluster.Model, opts Options) Report {
	return DefaultRegistry().Run(m, opts)
}

// DefaultRegistry holds every rule Rootline has.
func DefaultRegistry() *Registry {
	r := &Registry{
		Symptoms: []SymptomRule{
			evictedRule{}, lingeringRule{}, pendingRule{}, oomRule{},
			probeRule{probe: "Liveness", kind: LivenessProbeFailed},
			probeRule{probe: "Readiness", kind: ReadinessProbeFailed},
			probeRule{probe: "Startup", kind: StartupProbeFailed},
			crashLoopRule{}, restartedRule{}, imagePullRule{}, preemptedRule{},
			nodeNotReadyRule{}, nodePressureRule{}, scaleUpRule{}, stuckCreatingRule{}, podCreateFailedRule{},
			rolloutStuckRule{}, jobFailedRule{}, volumeProvisioningRule{}, nodeOOMRule{},
		},
		Causes: []CauseRule{
			capacityRule{}, sharedPoolRule{}, sharedPrometheusRule{}, cpuStarvationRule{},
			memoryOverRequestRule{}, scaleUpNotReadyRule{}, schedulingConstraintsRule{},
			memoryLimitRule{}, requestExceedsNodeRule{}, volumeBindingRule{}, overcommitRule{}, nodeDiskRule{}, startFailureRule{},
			changedImageRule{}, loweredMemoryLimitRule{}, cutCPURule{}, tightenedProbeRule{}, movedPlacementRule{},
			cordonedNodeRule{}, taintedNodeRule{}, removedNodeRule{}, movedNeighbourRule{}, missingClassRule{},
		},
		Roles:  []ReportRule{changeRoles{}},
		Links:  defaultLinks(),
		Amends: []ReportRule{priorityRule{}},
		Gaps:   []GapRule{eventsGap{}, nodesGap{}, messagesGap{}, competingGap{}, quietGap{}},
	}
	r.Causes = append(r.Causes, directRules()...)
	r.Causes = append(r.Causes, tagRules()...)
	return r
}

// defaultLinks are the link rules, in the order they run.
func defaultLinks() []LinkRule {
	return []LinkRule{changeLink{}, triggeredLink{}, followsLink{}, newNodesLink{}, sameNodeLink{}, lingeringLink{}}
}
