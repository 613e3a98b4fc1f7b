package store

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/bytedance/sonic"

	corev1 "k8s.io/api/core/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// Row types of the objects a snapshot carries. Quantities are kept both as numbers (cpu in
// millicores, memory in bytes) for arithmetic in SQL and as the strings people wrote.

type podRow struct {
	ID            int64 `gorm:"primaryKey"`
	SnapshotID    int64
	Namespace     string
	Name          string
	UID           string
	NodeName      string
	Phase         string
	Reason        string
	Message       string
	QOSClass      string `gorm:"column:qos_class"`
	Priority      *int32
	PriorityClass string
	OwnerKind     string
	OwnerName     string
	CreatedAt     *time.Time
	StartedAt     *time.Time
	SourceFile    string
	SourceLine    int
	Raw           []byte
	// ListedAgeSeconds is cluster.Object.ListedAge, NULL when zero.
	ListedAgeSeconds *int64
}

func (podRow) TableName() string { return "pods" }

type containerRow struct {
	SnapshotID         int64
	Namespace          string
	PodName            string
	Position           int
	Name               string
	Init               bool
	Image              string
	CPURequestMilli    *int64 `gorm:"column:cpu_request_milli"`
	MemoryRequestBytes *int64
	CPULimitMilli      *int64 `gorm:"column:cpu_limit_milli"`
	MemoryLimitBytes   *int64
	Requests           string
	Limits             string
	State              string
	StateReason        string
	StateMessage       string
	LastState          string
	LastStateReason    string
	LastExitCode       *int32
	LastFinishedAt     *time.Time
	RestartCount       int32
	Ready              bool
}

func (containerRow) TableName() string { return "pod_containers" }

type nodeRow struct {
	ID                     int64 `gorm:"primaryKey"`
	SnapshotID             int64
	Name                   string
	UID                    string
	Pool                   string
	InstanceType           string
	Labels                 string
	Capacity               string
	Allocatable            string
	CPUAllocatableMilli    *int64 `gorm:"column:cpu_allocatable_milli"`
	MemoryAllocatableBytes *int64
	PodsAllocatable        *int64
	Conditions             string
	Taints                 string
	Ready                  string
	Unschedulable          bool
	CreatedAt              *time.Time
	SourceFile             string
	SourceLine             int
	Raw                    []byte
	DescribeAllocated      *string // describe node's Allocated resources table, JSON (cluster.Object.Allocated)
}

func (nodeRow) TableName() string { return "nodes" }

type objectRow struct {
	ID         int64 `gorm:"primaryKey"`
	SnapshotID int64
	APIVersion string
	Kind       string
	Namespace  string
	Name       string
	UID        string
	SourceFile string
	SourceLine int
	Raw        []byte
	// ListedAgeSeconds is cluster.Object.ListedAge, NULL when zero.
	ListedAgeSeconds *int64
}

func (objectRow) TableName() string { return "objects" }

func newPodRows(snap int64, o *cluster.Object, raw []byte) (podRow, []containerRow) {
	p := o.Pod
	ownerKind, ownerName := cluster.Owner(p)
	row := podRow{
		SnapshotID: snap, Namespace: p.Namespace, Name: p.Name, UID: string(p.UID), NodeName: p.Spec.NodeName,
		Phase: string(p.Status.Phase), Reason: p.Status.Reason, Message: p.Status.Message,
		QOSClass: string(cluster.QOSClass(p)), Priority: p.Spec.Priority, PriorityClass: p.Spec.PriorityClassName,
		OwnerKind: ownerKind, OwnerName: ownerName, CreatedAt: timePtr(p.CreationTimestamp.Time),
		SourceFile: o.Source.File, SourceLine: int(o.Source.Line), Raw: raw,
	}
	row.ListedAgeSeconds = listedSeconds(o.ListedAge())
	if p.Status.StartTime != nil {
		row.StartedAt = timePtr(p.Status.StartTime.Time)
	}
	statuses := map[string]cluster.ContainerStatus{}
	for _, cs := range append(append([]cluster.ContainerStatus{}, p.Status.InitContainerStatuses...), p.Status.ContainerStatuses...) {
		statuses[cs.Name] = cs
	}
	var rows []containerRow
	add := func(c cluster.Container, init bool) {
		cr := containerRow{SnapshotID: snap, Namespace: p.Namespace, PodName: p.Name, Position: len(rows),
			Name: c.Name, Init: init, Image: c.Image,
			Requests: jsonText(cluster.Quantities(c.Resources.Requests)), Limits: jsonText(cluster.Quantities(c.Resources.Limits))}
		cr.CPURequestMilli = optional(cluster.MilliCPU(c.Resources.Requests))
		cr.MemoryRequestBytes = optional(cluster.MemoryBytes(c.Resources.Requests))
		cr.CPULimitMilli = optional(cluster.MilliCPU(c.Resources.Limits))
		cr.MemoryLimitBytes = optional(cluster.MemoryBytes(c.Resources.Limits))
		if cs, ok := statuses[c.Name]; ok {
			cr.State, cr.StateReason, cr.StateMessage = containerState(cs.State)
			cr.LastState, cr.LastStateReason, _ = containerState(cs.LastTerminationState)
			if t := cs.LastTerminationState.Terminated; t != nil {
				code := t.ExitCode
				cr.LastExitCode = &code
				cr.LastFinishedAt = timePtr(t.FinishedAt.Time)
			}
			cr.RestartCount, cr.Ready = cs.RestartCount, cs.Ready
		}
		rows = append(rows, cr)
	}
	for _, c := range p.Spec.InitContainers {
		add(c, true)
	}
	for _, c := range p.Spec.Containers {
		add(c, false)
	}
	return row, rows
}

// objectJSON is how a typed object is stored: cluster.Object.JSON's bytes, made by sonic in its
// configuration compatible with encoding/json (keys sorted, HTML escaped, the output of
// MarshalJSON methods compacted: the same bytes), which takes half the time; marshalling was
// three quarters of the time an upload spent making rows on PostgreSQL.
func objectJSON(o *cluster.Object) ([]byte, error) {
	if o.Raw != nil {
		return o.Raw, nil
	}
	v := o.Marshalled()
	if v == nil {
		return nil, nil
	}
	b, err := sonic.ConfigStd.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("marshal %s: %w", o.Ref(), err)
	}
	return b, nil
}

// containerState names a container state ("running", "waiting", "terminated") with its reason.
func containerState(s corev1.ContainerState) (state, reason, message string) {
	switch {
	case s.Running != nil:
		return "running", "", ""
	case s.Waiting != nil:
		return "waiting", s.Waiting.Reason, s.Waiting.Message
	case s.Terminated != nil:
		return "terminated", s.Terminated.Reason, s.Terminated.Message
	}
	return "", "", ""
}

func newNodeRow(snap int64, o *cluster.Object, raw []byte) nodeRow {
	n := o.Node
	pool, _ := cluster.NodePool(n.Labels)
	return nodeRow{
		SnapshotID: snap, Name: n.Name, UID: string(n.UID), Pool: pool, InstanceType: cluster.InstanceType(n.Labels),
		Labels: jsonText(n.Labels), Capacity: jsonText(cluster.Quantities(n.Status.Capacity)),
		Allocatable:            jsonText(cluster.Quantities(n.Status.Allocatable)),
		CPUAllocatableMilli:    optional(cluster.MilliCPU(n.Status.Allocatable)),
		MemoryAllocatableBytes: optional(cluster.MemoryBytes(n.Status.Allocatable)),
		PodsAllocatable:        optional(cluster.Count(n.Status.Allocatable, corev1.ResourcePods)),
		Conditions:             jsonText(n.Status.Conditions), Taints: jsonText(n.Spec.Taints),
		Ready: cluster.NodeCondition(n, corev1.NodeReady), Unschedulable: n.Spec.Unschedulable,
		CreatedAt: timePtr(n.CreationTimestamp.Time), SourceFile: o.Source.File, SourceLine: int(o.Source.Line), Raw: raw,
		DescribeAllocated: allocationsJSON(o.Allocated()),
	}
}

// allocationsJSON is how a node's Allocated resources table is stored: JSON, or NULL without one.
func allocationsJSON(a []cluster.Allocation) *string {
	if len(a) == 0 {
		return nil
	}
	s := jsonText(a)
	return &s
}

func optional(v int64, ok bool) *int64 {
	if !ok {
		return nil
	}
	return &v
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

// jsonText renders v as JSON for a TEXT column; nil maps and slices become {} and [].
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" {
		switch v.(type) {
		case map[string]string:
			return "{}"
		}
		return "[]"
	}
	return string(b)
}

// listedSeconds is a listed age as its column holds it: whole seconds, NULL when zero.
func listedSeconds(d time.Duration) *int64 {
	if d <= 0 {
		return nil
	}
	secs := int64(d / time.Second)
	return &secs
}

// listedAge is the listed age a column held (listedSeconds), zero for NULL.
func listedAge(secs *int64) time.Duration {
	if secs == nil {
		return 0
	}
	return time.Duration(*secs) * time.Second
}
