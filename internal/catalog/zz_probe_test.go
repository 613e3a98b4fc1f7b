package catalog

import (
	"fmt"
	"testing"
)

func TestZZProbe(t *testing.T) {
	for _, s := range []string{
		`Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data kube-api-access-x5x2z]: timed out waiting for the condition`,
		`AttachVolume.Attach failed for volume "pvc-1234" : rpc error: code = Internal desc = Could not attach volume "vol-1" to node "i-1": attachment of disk "vol-1" failed, expected device to be attached but was attaching`,
		`Pod ephemeral local storage usage exceeds the total limit of containers 1Gi.`,
		`Container app exceeded its local ephemeral storage limit "1Gi".`,
		`Usage of EmptyDir volume "cache" exceeds the limit "1Gi".`,
		`Marking for deletion Pod default/web-1`,
		`Deleting pod web-1 from node node-1`,
		`failed to garbage collect required amount of images. Wanted to free 5399374233 bytes, but freed 416077545 bytes`,
		`Disk usage on image filesystem is at 91% which is over the high threshold (85%). Trying to free 5399374233 bytes down to the low threshold (80%).`,
		`Error creating: pods "web-1" is forbidden: error looking up service account prod/web: serviceaccount "web" not found`,
		`Deployment does not have minimum availability.`,
		`Created pod: web-1`,
		`Stopping container web`,
		`Container image "nginx:1.25" already present on machine`,
		`Failed to pull image "nginx:1.255": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.255": failed to resolve reference "docker.io/library/nginx:1.255": docker.io/library/nginx:1.255: not found`,
		`Failed to pull image "private/app:1": failed to pull and unpack image "docker.io/private/app:1": failed to resolve reference "docker.io/private/app:1": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed`,
		`Back-off pulling image "nginx:1.255"`,
		`Error: ImagePullBackOff`,
		`Error: InvalidImageName`,
		`Failed to apply default image tag "nginx:": couldn't parse image reference "nginx:": invalid reference format`,
		`0/5 nodes are available: 2 node(s) had volume node affinity conflict, 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.`,
		`0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports.`,
		`running PreBind plugin "VolumeBinding": binding volumes: timed out waiting for the condition`,
		`Failed to provision volume with StorageClass "gp2": error generating accessibility requirements: no topology key found on CSINode ip-10-0-0-1`,
		`waiting for a volume to be created, either by external provisioner "ebs.csi.aws.com" or manually created by system administrator`,
		`MountVolume.MountDevice failed for volume "pvc-1" : rpc error: code = Internal desc = format of disk failed`,
		`Readiness probe failed: cat: can't open '/tmp/healthy': No such file or directory`,
		`Liveness probe failed: command "/bin/sh -c pg_isready" timed out`,
		`Pod sandbox changed, it will be killed and re-created.`,
		`Killing container with docker id 4f3c: Need to kill pod.`,
		`Container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized`,
		`network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized`,
		`Node node-1 status is now: NodeHasDiskPressure`,
		`Updated Node Allocatable limit across pods`,
		`System OOM encountered`,
		`Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error mounting "/x" to rootfs at "/y": mount /x:/y (via /proc/self/fd/6), flags: 0x5000: not a directory: unknown`,
		`Error: container has runAsNonRoot and image will run as root (pod: "web-1_prod(uid)", container: web)`,
		`Error: configmap "app-config" not found`,
		`Error: couldn't find key DB_PASSWORD in Secret prod/db`,
		`pod didn't trigger scale-up: 3 node(s) didn't match Pod's node affinity/selector, 1 max node group size reached`,
		`pod triggered scale-up: [{eks-ng-1 2->4 (max: 10)}]`,
		`Scaled up replica set web-7d9f8c6b5 to 3`,
		`Readiness probe errored: rpc error: code = NotFound desc = failed to exec in container: container is in CONTAINER_EXITED state`,
		`Error syncing pod, skipping: failed to "StartContainer" for "web" with CrashLoopBackOff: "Back-off 5m0s restarting failed container=web pod=web-1_prod(uid)"`,
		`The node had condition: [MemoryPressure].`,
		`Pod was rejected: The node had condition: [DiskPressure].`,
		`Predicate NodeAffinity failed`,
		`Node didn't have enough resource: pods, requested: 1, used: 110, capacity: 110`,
		`Pod Predicate TaintToleration failed`,
		`OutOfmemory`,
		`kubelet has disk pressure`,
		`kubelet stopped posting node status.`,
		`Kubelet stopped posting node status.`,
		`PLEG is not healthy: pleg was last seen active 3m55.14s ago; threshold is 3m0s`,
		`container runtime is down,PLEG is not healthy: pleg was last seen active 3m55.14s ago; threshold is 3m0s`,
		`[container runtime is down, PLEG is not healthy: pleg was last seen active 3m55.14s ago; threshold is 3m0s]`,
		`Container runtime not ready: RuntimeReady=false reason:DockerDaemonNotReady message:docker: failed to get docker version: Cannot connect to the Docker daemon`,
		`NodeNotReady: Node is not ready`,
		`Node is not ready`,
		`too many open files`,
		`fork/exec /usr/bin/nsenter: resource temporarily unavailable`,
		`failed to create fsnotify watcher: too many open files`,
	} {
		ms := Default().Find(s)
		var ids []string
		for _, m := range ms {
			ids = append(ids, fmt.Sprintf("%s(%s/%s)", m.Entry.ID, m.Entry.Symptom, m.Entry.Evidence))
		}
		fmt.Printf("%-60.60s => %v\n", s, ids)
	}
}
