package history

import (
	corev1 "k8s.io/api/core/v1"
)

// A condition's status reads by what its type means, as k8s.io/api/core/v1 documents the
// built-in types: for some True is how things should be (a pod Ready, a node Ready), for
// others True is the trouble (a pod's DisruptionTarget, the eviction or preemption about to
// end it; a node's MemoryPressure).

// podHealthyTrue are the pod conditions that are True when all is well, each with the tone of
// its False: a pod not Ready (or its containers) is out of its Services, an unscheduled one
// runs nowhere; a pod starting passes through not Initialized and not ready to start
// containers.
var podHealthyTrue = map[corev1.PodConditionType]string{
	corev1.PodReady:                  ToneBad,
	corev1.ContainersReady:           ToneBad,
	corev1.PodScheduled:              ToneBad,
	corev1.PodInitialized:            ToneWarning,
	corev1.PodReadyToStartContainers: ToneWarning,
}

// podTroubleTrue are the pod conditions that are True when something happens to the pod, with
// the tone of their True: the pod is about to be disrupted (evicted, preempted, garbage
// collected), all its containers restart, a resize waits for resources or is under way.
var podTroubleTrue = map[corev1.PodConditionType]string{
	corev1.DisruptionTarget:        ToneBad,
	corev1.AllContainersRestarting: ToneBad,
	corev1.PodResizePending:        ToneWarning,
	corev1.PodResizeInProgress:     ToneInfo,
}

// podConditionTone is the tone of a pod's condition. A condition of another type (a readiness
// gate's) is True when all is well, as the API conventions ask of new types.
func podConditionTone(t corev1.PodConditionType, s corev1.ConditionStatus) string {
	if tone, ok := podTroubleTrue[t]; ok {
		return troubleWhen(s, corev1.ConditionTrue, tone)
	}
	tone, ok := podHealthyTrue[t]
	if !ok {
		tone = ToneWarning
	}
	return troubleWhen(s, corev1.ConditionFalse, tone)
}

// nodeTroubleTrue are the node conditions that are True when something is wrong or under way,
// with the tone of their True: the pressures (the kubelet evicts pods under them), the
// network not configured, a graceful shutdown, a drain or maintenance the admin set.
var nodeTroubleTrue = map[corev1.NodeConditionType]string{
	corev1.NodeMemoryPressure:                 ToneBad,
	corev1.NodeDiskPressure:                   ToneBad,
	corev1.NodePIDPressure:                    ToneBad,
	corev1.NodeNetworkUnavailable:             ToneBad,
	corev1.NodeGracefulNodeShutdownInProgress: ToneWarning,
	corev1.NodeDrainInProgress:                ToneWarning,
	corev1.NodeDrained:                        ToneWarning,
	corev1.NodeMaintenanceInProgress:          ToneWarning,
	corev1.NodeMaintenancePlanned:             ToneInfo,
}

// nodeConditionTone is the tone of a node's condition. Ready is the one True when all is well
// (Unknown is a node that stopped reporting: bad too). A condition of another type, a cloud
// provider's or node-problem-detector's (KernelDeadlock, ReadonlyFilesystem), is True when
// something is wrong.
func nodeConditionTone(t corev1.NodeConditionType, s corev1.ConditionStatus) string {
	if t == corev1.NodeReady {
		if s == corev1.ConditionTrue {
			return ToneOK
		}
		return ToneBad
	}
	tone, ok := nodeTroubleTrue[t]
	if !ok {
		tone = ToneBad
	}
	return troubleWhen(s, corev1.ConditionTrue, tone)
}

// troubleWhen is tone when a condition's status is the troubled one, a warning when it is
// Unknown, and fine otherwise.
func troubleWhen(s, troubled corev1.ConditionStatus, tone string) string {
	switch s {
	case troubled:
		return tone
	case corev1.ConditionTrue, corev1.ConditionFalse:
		return ToneOK
	}
	return ToneWarning
}
