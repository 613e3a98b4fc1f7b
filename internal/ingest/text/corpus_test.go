package text

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootline-dev/rootline/internal/corpustest"
)

// TestCorpus parses the text files of the shared corpus and checks the facts that its
// SOURCES.md gives as ground truth. Each fact is a substring of one object's summary.
func TestCorpus(t *testing.T) {
	tests := []struct {
		prefix    string
		truncated bool
		facts     []string
	}{
		{"01-", false, []string{
			`Event minecraft/minecraftg-fdf76df5c-r4nkh.Evicted.1 Warning Evicted on Pod minecraft/minecraftg-fdf76df5c-r4nkh "The node was low on resource: memory. Container minecraft was using 1924152Ki, which exceeds its request of 0."`,
			`Warning FailedScheduling on Pod minecraft/minecraftg-fdf76df5c-xtl62 "0/1 nodes are available: 1 node(s) had taint {node.kubernetes.io/memory-pressure: }`,
		}},
		{"05-", false, []string{
			`Pod kube-system/coredns-5dd5756b68-2zrhr phase=Pending PodScheduled=False`,
			`Pod kube-system/coredns-5dd5756b68-wcs5x phase=Pending PodScheduled=False`,
			`Warning FailedScheduling on Pod kube-system/coredns-5dd5756b68-2zrhr x23 "0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }`,
			`Pod kube-system/coredns-5dd5756b68-2zrhr phase=Pending PodScheduled=False [ready=false restarts=0] req=100m/70Mi`,
		}},
		{"07-", false, []string{
			`Warning Unhealthy on  / x44 "Liveness probe failed: Get \"http://10.244.54.71:18051/healthcheck\": context deadline exceeded`,
			`Warning Unhealthy on  / x49 "Readiness probe failed:`,
		}},
		{"09-", false, []string{
			`Warning BackOff on Pod limit-test/adsf-78687dd59f-8w42g loose "Back-off restarting failed container"`,
			`[ready=false waiting:CrashLoopBackOff last:OOMKilled:1 restarts=3]`,
		}},
		{"16-", false, []string{
			`[ready=false terminated:OOMKilled:137 restarts=5] req=100m/300Mi lim=100m/300Mi`,
			`[ready=true running restarts=0] req=100m/500Mi lim=100m/500Mi`,
		}},
		{"21-", true, []string{
			`Normal TriggeredScaleUp on  / "pod triggered scale-up: [{ibm://acc///cluster1/nodegroup1 1->2 (max: 8)}]"`,
			`Warning FailedScheduling on  / x2 "0/6 nodes are available: 2 node(s) didn't match Pod's node affinity/selector, 4 Insufficient cpu.`,
		}},
		{"23-", true, []string{
			`Pod proprietary/proprietary-crawler-preemptive-79f7cbc6cf-rzck9 phase=Failed reason=Evicted message="The node was low on resource: memory. Container proprietary-crawler was using 9402820Ki, which exceeds its request of 7G." node=gke-general-preemptible-40c94gb-pool-35dd7b4d-mv7w req=4/7G lim=8/10G`,
		}},
		{"31-", true, []string{
			`Node  MemoryPressure=True cpu-requests="150m (7%)"`,
			`Pod kube-system/kube-flannel-ds-4vbr5 phase=Running req=100m/50Mi lim=1/500Mi`,
			`Pod kube-system/proxymux-client-mq9vn phase=Running req=50m/64Mi lim=500m/256Mi`,
		}},
		{"43-", false, []string{
			`Warning Unhealthy on Pod default/chart-name-trivy-dojo-report-operator-operator-57c9f5c84-qzjh7 x3 "Liveness probe failed: Get \"http://10.244.0.36:8080/healthzzzzz\":`,
			`Normal Killing on Pod default/chart-name-trivy-dojo-report-operator-operator-57c9f5c84-qzjh7 "Container trivy-dojo-report-operator failed liveness probe, will be restarted"`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.prefix, func(t *testing.T) {
			files := corpustest.Files(t, tt.prefix+"*.txt")
			data, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			objs, res := parseAll(t, filepath.Base(files[0]), data)
			var sums []string
			for _, o := range objs {
				sums = append(sums, summary(o))
			}
			all := strings.Join(sums, "\n")
			for _, f := range tt.facts {
				if !strings.Contains(all, f) {
					t.Errorf("missing fact %s\nin:\n%s", f, all)
				}
			}
			if res.Truncated != tt.truncated {
				t.Errorf("Truncated = %v, want %v", res.Truncated, tt.truncated)
			}
		})
	}
}
