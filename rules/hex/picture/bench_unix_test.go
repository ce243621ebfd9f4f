//go:build unix

package picture

import "syscall"

// processorTime is the process's user and system time so far, in nanoseconds.
func processorTime() (int64, bool) {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0, false
	}
	return u.Utime.Nano() + u.Stime.Nano(), true
}
