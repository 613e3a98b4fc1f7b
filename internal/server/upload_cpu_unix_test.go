//go:build unix

package server_test

import (
	"syscall"
	"time"
)

// processCPU is the processor time this process has used (user and system), to report next
// to the wall time of a benchmark on a machine shared with other work.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
