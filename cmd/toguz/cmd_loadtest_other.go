//go:build !unix

package main

import "time"

// cpuTime is not measured here; the load test then reports no CPU time.
func cpuTime() time.Duration { return 0 }
