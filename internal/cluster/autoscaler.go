package cluster

import "encoding/json"

// AutoscalerStatusName is the name of the ConfigMap (in kube-system) where cluster-autoscaler
// writes its status, under the key "status".
const AutoscalerStatusName = "cluster-autoscaler-status"

// AutoscalerStatuses returns the status texts of the cluster-autoscaler status ConfigMaps the
// model holds, with their objects.
func (m *Model) AutoscalerStatuses() ([]string, []*Object) {
	var texts []string
	var objs []*Object
	for _, o := range m.Others {
		if o.Kind != "ConfigMap" || o.Name != AutoscalerStatusName {
			continue
		}
		var cm struct {
			Data map[string]string `json:"data"`
		}
		if json.Unmarshal(o.Raw, &cm) == nil && cm.Data["status"] != "" {
			texts, objs = append(texts, cm.Data["status"]), append(objs, o)
		}
	}
	return texts, objs
}
