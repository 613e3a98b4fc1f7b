package k8stest

import (
	"os/exec"
	"syscall"
)

// orphanProof makes the kernel kill cmd when the test process dies (a panic on -timeout, a
// SIGKILL), so no etcd or kube-apiserver outlives it.
func orphanProof(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
