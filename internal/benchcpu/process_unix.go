//go:build unix

package benchcpu

import (
	"syscall"
	"time"
)

// Process returns the user+system CPU time this process has used (0 when
// the system cannot say).
func Process() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
