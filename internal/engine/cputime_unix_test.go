//go:build unix

package engine

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time used by the process so far, so that node
// rates can be measured on a machine shared with other jobs.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
