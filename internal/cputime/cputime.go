// Package cputime reads the CPU time of the running process, so that
// benchmarks and load tests can state rates per CPU second, which stay
// meaningful on a machine shared with other jobs.
package cputime

import "time"

// Process returns the user and system CPU time the process has used so far,
// or 0 where the operating system does not say.
func Process() time.Duration { return process() }
