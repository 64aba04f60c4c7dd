package cputime

import (
	"runtime"
	"testing"
)

func TestProcessGrows(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no CPU time on", runtime.GOOS)
	}
	before := Process()
	x := uint64(1)
	for Process()-before < 5e6 { // 5 ms of work
		for range 100000 {
			x = x*6364136223846793005 + 1
		}
	}
	if x == 0 || Process() <= before {
		t.Errorf("CPU time did not grow: %v then %v", before, Process())
	}
}
