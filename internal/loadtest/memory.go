package loadtest

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
)

// ProcessMemory is the Measure of a server in this process: it collects
// the garbage and returns the freed pages to the system
// (debug.FreeOSMemory), then reads the heap in use and the goroutines from
// runtime/metrics and the resident set from /proc/self/statm (0 where
// there is none).
func ProcessMemory() Memory {
	debug.FreeOSMemory()
	samples := []metrics.Sample{
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
		{Name: "/memory/classes/heap/stacks:bytes"},
		{Name: "/sched/goroutines:goroutines"},
	}
	metrics.Read(samples)
	var m Memory
	for _, s := range samples[:3] {
		m.Heap += float64(s.Value.Uint64())
	}
	m.Goroutines = float64(samples[3].Value.Uint64())
	m.RSS = float64(residentBytes())
	return m
}

// GC is the garbage collector's work in this process so far, from
// runtime/metrics: its cycles, and the CPU seconds of all its work and of
// the goroutines' mark assists (the runtime's estimates).
type GC struct {
	Cycles      uint64
	CPU, Assist float64
}

// ProcessGC returns the collector's work in this process so far.
func ProcessGC() GC {
	samples := []metrics.Sample{
		{Name: "/gc/cycles/total:gc-cycles"},
		{Name: "/cpu/classes/gc/total:cpu-seconds"},
		{Name: "/cpu/classes/gc/mark/assist:cpu-seconds"},
	}
	metrics.Read(samples)
	return GC{samples[0].Value.Uint64(), samples[1].Value.Float64(), samples[2].Value.Float64()}
}

// Since returns the work done between h and g.
func (g GC) Since(h GC) GC { return GC{g.Cycles - h.Cycles, g.CPU - h.CPU, g.Assist - h.Assist} }

// residentBytes returns the resident set of this process, from
// /proc/self/statm's second field (in pages), or 0.
func residentBytes() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}
