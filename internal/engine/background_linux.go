package engine

import (
	"errors"
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
//
// A thread that has not been lowered yet may start one while the threads
// are listed, so the listing is read again until it holds no thread that
// was not lowered (it failed so under the race detector, whose runtime
// starts threads at any time).
func LowerProcessPriority() error {
	lowered := map[int]bool{}
	for {
		tasks, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return err
		}
		fresh := 0
		for _, t := range tasks {
			tid, err := strconv.Atoi(t.Name())
			if err != nil || lowered[tid] {
				continue
			}
			if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, backgroundNice); err != nil {
				if errors.Is(err, syscall.ESRCH) {
					continue // ended since it was listed
				}
				return err
			}
			var param [1]int32 // struct sched_param: priority 0
			if _, _, e := syscall.Syscall(syscall.SYS_SCHED_SETSCHEDULER, uintptr(tid), schedIdle, uintptr(unsafe.Pointer(&param[0]))); e != 0 {
				if e == syscall.ESRCH {
					continue
				}
				return fmt.Errorf("sched_setscheduler SCHED_IDLE: %w", e)
			}
			lowered[tid] = true
			fresh++
		}
		if fresh == 0 {
			return nil
		}
	}
}
