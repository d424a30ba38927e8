//go:build !unix

package benchcpu

import "time"

// Process returns 0: CPU time is read through getrusage on unix only.
func Process() time.Duration { return 0 }
