package main

import (
	"io"
	"os"
	"runtime/pprof"
	"runtime/trace"
)

// The runtime's recordings that loadtest (-cpuprofile, -trace) and serve
// (-cpuprofile) write.

// startCPUProfile starts a CPU profile into path; the function it returns
// stops it and keeps the error of closing the file in *err (closeInto).
func startCPUProfile(path string) (func(err *error), error) {
	return startRecording(path, pprof.StartCPUProfile, pprof.StopCPUProfile)
}

// startTrace starts the runtime's execution trace into path, as
// startCPUProfile.
func startTrace(path string) (func(err *error), error) {
	return startRecording(path, trace.Start, trace.Stop)
}

// startRecording creates path and starts a recording of the runtime into
// it; the function it returns stops the recording and closes the file.
func startRecording(path string, start func(io.Writer) error, stop func()) (func(err *error), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := start(f); err != nil {
		f.Close()
		return nil, err
	}
	return func(err *error) {
		stop()
		closeInto(f, err)
	}, nil
}
