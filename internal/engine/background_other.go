//go:build !linux

package engine

import "errors"

// lowerThreadPriority does nothing here: only Linux sets priorities per
// thread, and lowering the whole process's would slow the server too.
func lowerThreadPriority(int) {}

func threadNice() (int, error) { return 0, errors.New("engine: no per-thread priority on this OS") }

// LowerProcessPriority does nothing here (see lowerThreadPriority).
func LowerProcessPriority() error { return nil }
