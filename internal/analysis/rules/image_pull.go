package rules

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/rootline-dev/rootline/internal/analysis"
	"github.com/rootline-dev/rootline/internal/cluster"
)

// imagePullRule finds images that could not be pulled: waiting reasons ErrImagePull,
// ImagePullBackOff, InvalidImageName, and the kubelet's Failed and BackOff events about
// pulling.
type imagePullRule struct{}

func (imagePullRule) Name() string { return "image-pull-failed" }

var pullReasons = map[string]bool{"ErrImagePull": true, "ImagePullBackOff": true, "InvalidImageName": true, "ErrImageNeverPull": true,
	"ImageInspectError": true, "RegistryUnavailable": true}

func (imagePullRule) Symptoms(in analysis.Input) []analysis.Symptom {
	syms := newPodSymptoms(analysis.ImagePullFailed)
	for _, o := range in.Model.Pods {
		for _, cs := range cluster.ContainerStatuses(o.Pod) {
			if w := cs.State.Waiting; w != nil && pullReasons[w.Reason] {
				s := syms.pod(o)
				s.Node = o.Pod.Spec.NodeName
				s.Evidence = append(s.Evidence, cite(o, fmt.Sprintf("status.containerStatuses[%s].state.waiting", cs.Name), w.Reason+": "+w.Message))
			}
		}
	}
	for _, o := range in.Model.Events {
		e := o.Event
		pulling := (e.Reason == "Failed" && strings.Contains(e.Message, "pull")) ||
			(e.Reason == "BackOff" && strings.Contains(e.Message, "pulling image")) || pullReasons[e.Reason] ||
			eventSign(in, o, analysis.ImagePullFailed) != nil
		if !pulling || !aboutPod(o) {
			continue
		}
		s := syms.event(o)
		s.Evidence = append(s.Evidence, citeEvent(o))
		_, first, _ := cluster.EventTimes(e)
		s.At = earliest(s.At, timePtr(first))
	}
	return syms.list(func(pod string, _ *analysis.Symptom) string {
		return fmt.Sprintf("an image of %s could not be pulled", podPhrase(pod))
	})
}

// A pull's error names where it failed. The registry's answers say the image does not exist or
// may not be pulled (image_unavailable); the node's own errors (its disk full, its network to
// the registry down or timing out, a registry certificate it does not trust, its container
// runtime not answering or speaking another API, its image store failing: dockerd's "failed to
// register layer", containerd's content "locked: unavailable" to another pull; its resolver failing: glibc's EAI_AGAIN
// "Temporary failure in name resolution", Go's "server misbehaving") say nothing of the image,
// so they are not that cause. Nor does a registry's own failure, an HTTP 5xx (Docker's
// "received unexpected HTTP status: 500 Internal Server Error", its old "Server error: 500
// trying to fetch remote history", containerd's "unexpected status … 503 Service
// Unavailable"): the registry could not answer, which says nothing of the image either. Nor
// does a pull that was stopped before any answer: gRPC's
// "code = Canceled" and Go's "context canceled", which the kubelet's and containerd's pulls
// return when the pod is deleted while it pulls, or when containerd gives up a pull that made
// no progress within its image_pull_progress_timeout ("cancel pulling image … because of no
// progress in …", in containerd's log). Nor is a resolver that answers "no such host" for a public
// registry's own name (registry.k8s.io, registry-1.docker.io, the storage its layers come
// from): such a name exists, so the node's DNS is what failed; for any other registry the
// name may be the image's own mistake.
var (
	pullImageSideRe = regexp.MustCompile(`(?i)not found|manifest unknown|pull access denied|repository does not exist|unauthorized|authentication required|\bdenied\b|forbidden|invalid reference format|InvalidImageName|ErrImageNeverPull|toomanyrequests|rate limit|no matching manifest`)
	pullNodeSideRe  = regexp.MustCompile(`(?i)no space left on device|i/o timeout|Temporary failure in name resolution|server misbehaving|TLS handshake timeout|context deadline exceeded|connection refused|connection reset by peer|no route to host|network is unreachable|Client\.Timeout exceeded|request canceled while waiting for connection|context canceled|code = Canceled|Server error: 5\d\d|\b5\d\d (?:Internal Server Error|Bad Gateway|Service Unavailable|Gateway Time-?out)\b|x509: certificate|dial unix|unknown service runtime|failed to register layer|locked: unavailable|` +
		`lookup (?:registry\.k8s\.io|k8s\.gcr\.io|(?:[a-z0-9-]+\.)?gcr\.io|(?:registry-1|index|auth|production\.cloudflare)\.docker\.(?:io|com)|docker\.io|` +
		`(?:cdn\d*\.)?quay\.io|ghcr\.io|pkg-containers\.githubusercontent\.com|mcr\.microsoft\.com|public\.ecr\.aws|storage\.googleapis\.com|` +
		`[a-z0-9.-]+\.s3[a-z0-9.-]*\.amazonaws\.com)(?: on [^:]+:\d+)?: no such host`)
)

// pullRefused reports whether a pull failure's evidence holds the registry's answer that the
// image does not exist or may not be pulled (pullImageSideRe), or a resolver denying that its
// registry's name exists where the name is not a public registry's (pullNodeSideRe holds
// those).
func pullRefused(s analysis.Symptom) bool {
	for _, e := range s.Evidence {
		if pullImageSideRe.MatchString(e.Value) || noSuchHostRe.MatchString(e.Value) && !pullNodeSideRe.MatchString(e.Value) {
			return true
		}
	}
	return false
}

// pullFailedOnNode reports whether a pull failure's evidence shows only the node's own errors.
func pullFailedOnNode(s analysis.Symptom) bool {
	return !pullRefused(s) && slices.ContainsFunc(s.Evidence, func(e analysis.Evidence) bool { return pullNodeSideRe.MatchString(e.Value) })
}

// noSuchHostRe is a resolver's answer that a name does not exist.
var noSuchHostRe = regexp.MustCompile(`(?i)no such host`)
