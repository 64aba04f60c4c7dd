package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/cputime"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/openings"
)

// maxBenchPositions bounds -positions at the built-in suite's size.
const maxBenchPositions = 1000

func runBench(ctx context.Context, e env) error {
	fs := newFlags(e, "bench", "", "Measures how the search scales with threads: for each thread count, the time to\n"+
		"a fixed depth and the depth reached in a fixed time, over the first positions of the\n"+
		"match runner's opening suite, each searched from a cleared table. On a machine\n"+
		"shared with other jobs compare the thread counts with each other, and read the\n"+
		"CPU seconds beside the wall clock.")
	threads := fs.String("threads", "1,2,4", "thread counts to measure, comma-separated")
	depth := fs.Int("depth", 14, "the fixed depth of the time-to-depth searches (0: none)")
	moveTime := fs.Duration("movetime", time.Second, "the fixed time of the depth-in-time searches (0: none)")
	n := fs.Int("positions", 20, "positions of the suite to search")
	hash := fs.Int("hash", 64, "transposition table size in MiB")
	off := fs.String("off", "", "search features of the engine to switch off, comma-separated (e.g. SMPDefer,SMPVote)")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return errUsage
	}
	counts, err := threadCounts(*threads)
	if err != nil {
		return err
	}
	suite, err := openings.Parse(strings.NewReader(openings.Default), toguz.Standard())
	if err != nil {
		return err
	}
	if err := checkBench(*n, len(suite), *depth, *moveTime); err != nil {
		return err
	}
	opts := engine.DefaultOptions()
	opts.HashMB = *hash
	if err := switchOff(&opts, *off); err != nil {
		return err
	}
	positions := suite[:*n]
	var base time.Duration
	for _, t := range counts {
		opts.Threads = t
		eng, err := engine.New(opts)
		if err != nil {
			return err
		}
		line := fmt.Sprintf("threads %d:", t)
		if *depth > 0 {
			wall, cpu, nodes, err := timeToDepth(ctx, eng, positions, *depth)
			if err != nil {
				return err
			}
			if base == 0 {
				base = wall
			}
			line += fmt.Sprintf(" to depth %d %.2fs (%.2f× the first), %.2f CPU-s, %d nodes;",
				*depth, wall.Seconds(), base.Seconds()/wall.Seconds(), cpu.Seconds(), nodes)
		}
		if *moveTime > 0 {
			sum, nodes, err := depthInTime(ctx, eng, positions, *moveTime)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" in %v depth %.2f on average, %.0f nodes/s;", *moveTime,
				float64(sum)/float64(len(positions)), float64(nodes)/(moveTime.Seconds()*float64(len(positions))))
		}
		fmt.Fprintln(e.stdout, strings.TrimSuffix(line, ";"))
	}
	return nil
}

// checkBench checks -positions against the suite's size, -depth and
// -movetime.
func checkBench(n, suite, depth int, moveTime time.Duration) error {
	switch {
	case n < 1 || n > min(suite, maxBenchPositions):
		return fmt.Errorf("-positions %d: want 1 to %d", n, min(suite, maxBenchPositions))
	case depth < 0 || depth > 60:
		return fmt.Errorf("-depth %d: want 0 to 60", depth)
	case moveTime < 0 || moveTime > time.Minute:
		return fmt.Errorf("-movetime %v: want 0 to 1m", moveTime)
	case depth == 0 && moveTime == 0:
		return fmt.Errorf("-depth 0 and -movetime 0: nothing to measure")
	}
	return nil
}

// switchOff switches off the search features -off names.
func switchOff(opts *engine.Options, off string) error {
	for name := range strings.SplitSeq(off, ",") {
		if name == "" {
			continue
		}
		f, ok := featureNamed(name)
		if !ok {
			return fmt.Errorf("-off %q: no such feature; want some of %s", name, featureList())
		}
		*f.Field(opts) = false
	}
	return nil
}

// timeToDepth searches each position to depth from a cleared table and
// returns the wall and CPU time and the nodes, all summed.
func timeToDepth(ctx context.Context, eng *engine.Engine, positions []openings.Opening, depth int) (wall, cpu time.Duration, nodes uint64, err error) {
	for _, o := range positions {
		eng.NewGame()
		c, start := cputime.Process(), time.Now()
		r := eng.Search(ctx, o.Position, engine.Limits{Depth: depth}, nil)
		wall, cpu, nodes = wall+time.Since(start), cpu+cputime.Process()-c, nodes+r.Nodes
		if ctx.Err() != nil {
			return wall, cpu, nodes, ctx.Err()
		}
	}
	return wall, cpu, nodes, nil
}

// depthInTime searches each position for moveTime from a cleared table and
// returns the depths reached and the nodes, summed.
func depthInTime(ctx context.Context, eng *engine.Engine, positions []openings.Opening, moveTime time.Duration) (sum int, nodes uint64, err error) {
	for _, o := range positions {
		eng.NewGame()
		r := eng.Search(ctx, o.Position, engine.Limits{MoveTime: moveTime}, nil)
		sum, nodes = sum+r.Depth, nodes+r.Nodes
		if ctx.Err() != nil {
			return sum, nodes, ctx.Err()
		}
	}
	return sum, nodes, nil
}

// threadCounts parses -threads.
func threadCounts(s string) ([]int, error) {
	var counts []int
	for f := range strings.SplitSeq(s, ",") {
		t, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || t < 1 || t > engine.MaxThreads {
			return nil, fmt.Errorf("-threads %q: want thread counts 1 to %d, comma-separated", s, engine.MaxThreads)
		}
		counts = append(counts, t)
	}
	return counts, nil
}
