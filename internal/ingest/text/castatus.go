package text

import (
	"encoding/json"
	"strings"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/lazyre"
	"github.com/rootline-dev/rootline/internal/signal"
)

var (
	// statusStartRe opens the cluster-autoscaler status (kube-system/cluster-autoscaler-status,
	// key status), whole or pasted in part, in the text format (to 1.29) or YAML (1.30 on).
	statusStartRe = lazyre.New(`^\s*(?:Cluster-autoscaler status at |Cluster-wide:\s*$|NodeGroups:\s*$|(?:Health|ScaleUp):\s+(?:Healthy|Unhealthy|InProgress|NoActivity|Backoff)\b|(?:clusterWide|nodeGroups|autoscalerStatus):\s*$)`)
	// statusNameRe is a node group's "Name:" line, which comes before its Health line.
	statusNameRe = lazyre.New(`^\s+Name:\s+\S+\s*$`)
)

// statusBlock gathers the lines of a cluster-autoscaler status until a line that is not one.
type statusBlock struct {
	lines []line
}

// startsStatus reports whether ln opens an autoscaler status; a node group's indented "Name:"
// line opens one when the line after it is its Health line, which is why it is held in
// p.statusName until then.
func (p *parser) startsStatus(ln line) bool {
	if statusStartRe.MatchString(ln.text) {
		p.status = &statusBlock{}
		if p.statusName != nil && p.statusName.num == ln.num-1 {
			p.status.lines = append(p.status.lines, *p.statusName)
		}
		p.statusName = nil
		p.status.lines = append(p.status.lines, ln)
		return true
	}
	if statusNameRe.MatchString(ln.text) {
		held := ln
		p.statusName = &held
		return true
	}
	return false
}

// accepts reports whether ln continues the status: an indented line, a blank one, or a line
// that opens another part of it.
func (b *statusBlock) accepts(ln line) bool {
	switch {
	case ln.kind == kindBlank:
		return true
	case ln.kind != kindText:
		return false
	case strings.HasPrefix(ln.text, " "), statusStartRe.MatchString(ln.text):
		return true
	}
	return false
}

// flushStatus parses the status gathered and emits it as the ConfigMap it is kept in.
func (p *parser) flushStatus() error {
	b := p.status
	p.status = nil
	var sb strings.Builder
	for _, ln := range b.lines {
		sb.WriteString(ln.text)
		sb.WriteByte('\n')
	}
	text := sb.String()
	if _, ok := signal.ParseAutoscalerStatus(text); !ok {
		return nil
	}
	cm := map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"namespace": "kube-system", "name": cluster.AutoscalerStatusName},
		"data":     map[string]string{"status": text},
	}
	raw, err := json.Marshal(cm)
	if err != nil {
		return err
	}
	o := &cluster.Object{APIVersion: "v1", Kind: "ConfigMap", Namespace: "kube-system", Name: cluster.AutoscalerStatusName,
		Source: p.source(b.lines[0]), Raw: raw}
	return p.send(o)
}
