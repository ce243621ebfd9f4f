//go:build unix

package afd

import (
	"syscall"
	"time"
)

// processCPU is the processor time the test process has used so far (user and system), for benchmarks
// that report it beside the wall clock's ns/op on a loaded machine.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
