package engine

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"unsafe"
)

// lowerThreadPriority sets the nice value of the calling OS thread: on
// Linux a nice value belongs to a thread, not to the process (setpriority(2),
// "BUGS"). Raising it needs no privilege; a failure leaves the thread at its
// priority, which only costs the other goroutines some latency.
func lowerThreadPriority(nice int) {
	syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), nice)
}

// threadNice returns the nice value of the calling OS thread.
func threadNice() (int, error) {
	// The system call answers 20 - nice, so that it is never negative.
	p, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	return 20 - p, err
}

// schedIdle is Linux's SCHED_IDLE policy: a thread that runs only when no
// other wants the CPU, and gives it up at once when one does (sched(7)).
const schedIdle = 5

// LowerProcessPriority puts every thread of the process at the lowest
// scheduling priority there is, the SCHED_IDLE policy and nice 19, and so
// every thread it starts later (a new thread inherits its creator's):
// for a process that only searches, such as the game reviews' worker
// (internal/review), whose runtime's own threads would otherwise compete
// with the server at its priority. Nice 19 alone still takes a share of
// a busy CPU, and a woken thread of the server may wait for it.
func LowerProcessPriority() error {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return err
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, backgroundNice); err != nil {
			return err
		}
		var param [1]int32 // struct sched_param: priority 0
		if _, _, e := syscall.Syscall(syscall.SYS_SCHED_SETSCHEDULER, uintptr(tid), schedIdle, uintptr(unsafe.Pointer(&param[0]))); e != 0 {
			return fmt.Errorf("sched_setscheduler SCHED_IDLE: %w", e)
		}
	}
	return nil
}
