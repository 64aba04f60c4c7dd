//go:build !unix

package engine

import "time"

// cpuTime is not measured here; the rates per CPU second read 0.
func cpuTime() time.Duration { return 0 }
