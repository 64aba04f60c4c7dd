package engine

import "runtime"

// backgroundNice is the scheduling priority of a background search's
// thread: the lowest, so that the OS runs it only on time nothing else of
// the process (or the machine) wants.
const backgroundNice = 19

// inBackground runs f on an OS thread of its own at the lowest scheduling
// priority where the OS allows one to be set per thread (Linux), and
// returns when f has. The thread is never handed back: the goroutine exits
// still locked to it, which ends the thread, so no other goroutine ever
// runs at its priority. A thread's start costs some tens of microseconds,
// nothing beside a search.
func inBackground(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread()
		// No UnlockOSThread: see above.
		lowerThreadPriority(backgroundNice)
		f()
	}()
	<-done
}

// InBackground runs f as a background search runs (inBackground): on an
// OS thread of its own at the lowest priority, returning when f has. The
// game reviews run their searches so; a search of one thread (Options
// Threads 1) stays on that thread, more threads would not.
func InBackground(f func()) { inBackground(f) }
