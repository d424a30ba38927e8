//go:build unix

package xmltree

import (
	"syscall"
	"time"
)

// processCPU returns the user+system CPU time of this process. Benchmarks
// report it per op next to wall time because the build machine is shared and
// wall time includes time spent waiting for a core.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
