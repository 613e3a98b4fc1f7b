package main

// corpusTruth is what the shared corpus's SOURCES.md says each real file shows, written as
// what an analyzer must report:
//   - want: the symptom kinds it must find, each with the objects it must name ("ns/name",
//     or "name" where the file does not show the namespace; none when the file does not name
//     the object, e.g. an events section pasted alone);
//   - allowed: kinds that are true of the file but secondary (a lingering evicted pod, the
//     node pressure an eviction implies): reporting them is neither required nor wrong;
//   - causes: the cause kinds it must find; allowedCauses: causes that are defensible but not
//     required; notCauses: causes the ground truth rules out.
//
// Any other symptom kind reported is a false symptom; any other cause kind a false cause.
var corpusTruth = map[string]truth{
	"01-aks-minecraft-evicted-memory-events.txt": {
		want: map[string][]string{
			"pod_evicted": {"minecraft/minecraftg-fdf76df5c-r4nkh"},
			"pod_pending": {"minecraft/minecraftg-fdf76df5c-xtl62"},
		},
		allowed:   []string{"node_pressure"},
		causes:    []string{"memory_over_request"},
		notCauses: []string{"scheduling_constraints"},
	},
	"04-gitpod-workspace-pod-evicted-diskpressure.json": {
		want:    map[string][]string{"pod_evicted": {"default/ws-cecf2a75-7225-4056-a125-fa3144b9c012"}},
		allowed: []string{"evicted_pods_lingering", "node_pressure"},
		causes:  []string{"node_disk_exhaustion"},
	},
	"05-kubeadm-coredns-pending-notready-taint-describe.txt": {
		want:      map[string][]string{"pod_pending": {"kube-system/coredns-5dd5756b68-2zrhr", "kube-system/coredns-5dd5756b68-wcs5x"}},
		allowed:   []string{"node_not_ready"},
		notCauses: []string{"scale_up_not_ready", "capacity_exhaustion"},
	},
	"07-k8s-issue115469-liveness-readiness-probe-timeout-events.txt": {
		want: map[string][]string{"liveness_probe_failed": nil, "readiness_probe_failed": nil},
	},
	"09-kube-eventer-issue285-oomkilled-crashloop-describe-fragment.txt": {
		want: map[string][]string{
			"oom_killed":         {"limit-test/adsf-78687dd59f-8w42g"},
			"crash_loop_backoff": {"limit-test/adsf-78687dd59f-8w42g"},
		},
		allowed:   []string{"container_restarted"},
		notCauses: []string{"container_start_failure"},
	},
	"11-kubescout-get-pods-evicted-memory-besteffort.json": {
		want:    map[string][]string{"pod_evicted": {"default/memory-bomb"}},
		allowed: []string{"evicted_pods_lingering", "node_pressure"},
		causes:  []string{"memory_over_request"},
	},
	"12-kubescout-get-pods-pending-containercreating-scheduled.json": {},
	"13-kubescout-get-nodes-notready-unknown-unreachable-taint.json": {
		want: map[string][]string{"node_not_ready": {"multi-master-auto-initiated-2021-10-13-12-06"}},
	},
	"15-kubescout-get-pods-unschedulable-insufficient-memory-imagepullbackoff.json": {
		want: map[string][]string{
			"pod_pending":       {"liri/nginx-2-6f8f94f55c-fmcjs"},
			"image_pull_failed": {"liri/nginx-1-7dfc456b4f-78mtz"},
		},
		causes:    []string{"image_unavailable", "request_exceeds_node"},
		notCauses: []string{"capacity_exhaustion"},
	},
	"16-starburst-oomkilled-describe-300Mi-limit.txt": {
		want:    map[string][]string{"oom_killed": nil},
		allowed: []string{"container_restarted", "crash_loop_backoff"},
		causes:  []string{"memory_limit_too_low"},
	},
	"21-autoscaler-issue5938-triggeredscaleup-failedscheduling-events.txt": {
		want:          map[string][]string{"scale_up": nil, "pod_pending": nil},
		causes:        []string{"capacity_exhaustion"},
		allowedCauses: []string{"scheduling_constraints"},
	},
	"23-k9s-issue174-describe-evicted-pod-memory-over-request.txt": {
		want:    map[string][]string{"pod_evicted": {"proprietary/proprietary-crawler-preemptive-79f7cbc6cf-rzck9"}},
		allowed: []string{"evicted_pods_lingering", "node_pressure"},
		causes:  []string{"memory_over_request"},
	},
	"27-k8s-issue105467-evicted-pod-yaml-disruptiontarget-no-reason.yaml": {
		want:    map[string][]string{"pod_evicted": {"istiod-b7c9f6f6d-q8zdb"}},
		allowed: []string{"evicted_pods_lingering", "node_pressure"},
		causes:  []string{"node_disk_exhaustion"},
	},
	"31-k8s-issue107899-describe-node-memorypressure-true-low-requests.txt": {
		want:      map[string][]string{"node_pressure": nil},
		notCauses: []string{"node_overcommitted", "capacity_exhaustion"},
	},
	"35-krane-pr666-events.k8s.io-v1beta1-json-failedscheduling-pvc.json": {
		want:   map[string][]string{"pod_pending": {"k8sdeploy-test-pvc-no-pv-cfe011ad17574fc0/pvc"}},
		causes: []string{"volume_binding"},
	},
	"38-k8s-issue19825-pod-json-truncated-memtest.json": {},
	"43-trivy-dojo-pr24-liveness-probe-connection-refused-killing-events.txt": {
		want:    map[string][]string{"liveness_probe_failed": {"default/chart-name-trivy-dojo-report-operator-operator-57c9f5c84-qzjh7"}},
		allowed: []string{"container_restarted"},
	},
	// Postmortem notes: prose, no kubectl output. No symptom may come from them; the causes
	// their authors claim may be reported as claims.
	"47-postmortem-mybinder-2017-10-17-cluster-full-pending-pods.md":            {allowedCauses: []string{"capacity_exhaustion"}},
	"49-postmortem-zalando-2019-01-coredns-oomkilled-dns-outage.md":             {allowedCauses: []string{"memory_limit_too_low"}},
	"51-postmortem-dfds-PM2025-001-node-starvation-evictions-then-pending.md":   {allowedCauses: []string{"capacity_exhaustion", "recent_change"}},
	"55-postmortem-mybinder-2018-07-30-cpu-saturation-evicted-in-prose-only.md": {},
	"53-kubescout-get-events-crashloop-bad-command-v1-list.json": {
		want:      map[string][]string{"crash_loop_backoff": {"default/command-broken-785d44fdcd-lqj5t"}},
		allowed:   []string{"container_restarted"},
		causes:    []string{"container_start_failure"},
		notCauses: []string{"memory_limit_too_low"},
	},
	"57-kubescout-get-pods-completed-succeeded-exit0-negative.json": {},
	"59-kubescout-get-pods-init-crashloopbackoff-phase-pending-scheduled.json": {
		want: map[string][]string{"crash_loop_backoff": {"ci/api-7dd6cfcb4b-zpqgq", "ci/app10-9bbc5c6dc-jjnxl",
			"ci/app6-74b5b56cc-lf6z2", "ci/app7-654448cfb4-wkjw4", "ci/app9-7db9bdc688-2vwl9"}},
		allowed:       []string{"container_restarted"},
		allowedCauses: []string{"container_start_failure"},
		notCauses:     []string{"capacity_exhaustion", "memory_limit_too_low"},
	},
	"61-argo-issue190-old-events-tabbed-predicates-cpu-memory-matchnodeselector.txt": {
		want:          map[string][]string{"pod_pending": nil},
		causes:        []string{"capacity_exhaustion"},
		allowedCauses: []string{"scheduling_constraints"},
	},
	"63-autoscaler-issue1537-ca-log-skipping-node-group-max-size-blockquote.log": {
		allowed:       []string{"pod_pending"},
		allowedCauses: []string{"capacity_exhaustion"},
	},
	"65-jupyter-earth-issue82-ca-status-scaleup-inprogress-ready2-target8.md": {
		want:   map[string][]string{"scale_up": nil},
		causes: []string{"scale_up_not_ready"},
	},
	"67-nebari-issue738-k9s-box-failedscheduling-disk-pressure-triggeredscaleup.txt": {
		want:          map[string][]string{"pod_pending": nil, "scale_up": nil},
		allowed:       []string{"node_pressure"},
		causes:        []string{"node_disk_exhaustion"},
		allowedCauses: []string{"scheduling_constraints"},
	},
	"69-pangeo-issue274-evicted-hub-pods-wide-table-and-df-prompt.txt": {
		want: map[string][]string{"pod_evicted": {"nasa-staging/autohttps-5c855b856b-29qn6", "nasa-staging/autohttps-5c855b856b-4kmkw",
			"nasa-staging/hub-b55dd58f7-6nqpn", "nasa-staging/hub-b55dd58f7-9tw7t"}},
		allowed: []string{"evicted_pods_lingering"},
		causes:  []string{"node_disk_exhaustion"},
	},
	"71-kubespawner-issue19-evicted-user-pods-redacted-names.txt": {
		want:    map[string][]string{"pod_evicted": {"jupyter-...-488", "jupyter-...-348", "jupyter-...-334", "jupyter-...-495"}},
		allowed: []string{"evicted_pods_lingering"},
	},
	"73-dask-kubernetes-issue127-details-pre-describe-node-healthy-negative.txt": {
		notCauses: []string{"node_overcommitted", "capacity_exhaustion"},
	},
	"75-spark-on-k8s-issue555-watch-header-executors-pending.txt": {
		want: map[string][]string{"pod_pending": {"spark-pi-1514745902976-exec-1", "spark-pi-1514745902976-exec-2",
			"spark-pi-1514745902976-exec-3", "spark-pi-1514745902976-exec-4", "spark-pi-1514745902976-exec-5"}},
		notCauses: []string{"capacity_exhaustion"},
	},
	"77-k8s-issue132001-pod-error-status-evicted-kubelet-eviction-manager-log.txt": {
		want:    map[string][]string{"pod_evicted": {"sre/infras-logstash-d484d57fc-rkx95"}},
		allowed: []string{"evicted_pods_lingering", "node_pressure"},
		causes:  []string{"node_disk_exhaustion"},
	},
	"79-minikube-issue5595-get-po-coredns-pending-kube-proxy-evicted.txt": {
		want: map[string][]string{
			"pod_pending": {"kube-system/coredns-5644d7b6d9-rlwsm", "kube-system/coredns-5644d7b6d9-zb98r", "kube-system/storage-provisioner"},
			"pod_evicted": {"kube-system/kube-addon-manager-minikube", "kube-system/kube-proxy-zxf6n"},
		},
		allowed: []string{"evicted_pods_lingering"},
	},
	"81-sematic-issue853-eviction-loop-table-containerstatusunknown.txt": {
		want: map[string][]string{"pod_evicted": {"sematic-server-ee-584694978d-ntsv6", "sematic-server-ee-584694978d-p9qtp",
			"sematic-server-ee-584694978d-qww7t", "sematic-server-ee-584694978d-rtf22", "sematic-server-ee-584694978d-rvq27"}},
		allowed: []string{"evicted_pods_lingering"},
		causes:  []string{"node_disk_exhaustion"},
	},
	"83-k0s-issue3830-pod-json-fragment-disruptiontarget-memory.json": {
		want:          map[string][]string{"pod_evicted": nil},
		allowed:       []string{"evicted_pods_lingering", "node_pressure"},
		allowedCauses: []string{"memory_over_request"},
	},
	"85-k8s-issue42733-node-notready-unreachable-noexecute-pod-running.txt": {
		want: map[string][]string{"node_not_ready": {"192.168.124.214"}},
	},
	"87-docker-for-mac-issue2990-not-ready-log-but-node-ready-negative.txt": {},
	"89-openshift-issue19609-oc-pending-matchnodeselector-after-upgrade.txt": {
		want:   map[string][]string{"pod_pending": {"dev/cnxweblo-21-nmmb6"}},
		causes: []string{"scheduling_constraints"},
	},
	"91-sematic-issue189-pod-status-unschedulable-insufficient-cpu.yaml": {
		want:          map[string][]string{"pod_pending": nil},
		allowedCauses: []string{"capacity_exhaustion", "request_exceeds_node"},
	},
	"93-k8s-issue22005-imagepullbackoff-scheduled-pending-describe.txt": {
		want:   map[string][]string{"image_pull_failed": {"kube-system/fluentd-elasticsearch-e2e-test-mml-minion-siao"}},
		causes: []string{"image_unavailable"},
	},
	"95-k8s-issue17460-2015-crashloopbackoff-hardwrapped-command.txt": {
		want:      map[string][]string{"crash_loop_backoff": {"elasticsearch-attiy", "elasticsearch-lkl4i"}},
		allowed:   []string{"container_restarted"},
		notCauses: []string{"oom_killed", "memory_limit_too_low", "container_start_failure"},
	},
}
