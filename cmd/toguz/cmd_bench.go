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
	switch {
	case *n < 1 || *n > min(len(suite), maxBenchPositions):
		return fmt.Errorf("-positions %d: want 1 to %d", *n, min(len(suite), maxBenchPositions))
	case *depth < 0 || *depth > 60:
		return fmt.Errorf("-depth %d: want 0 to 60", *depth)
	case *moveTime < 0 || *moveTime > time.Minute:
		return fmt.Errorf("-movetime %v: want 0 to 1m", *moveTime)
	case *depth == 0 && *moveTime == 0:
		return fmt.Errorf("-depth 0 and -movetime 0: nothing to measure")
	}
	opts := engine.DefaultOptions()
	opts.HashMB = *hash
	for name := range strings.SplitSeq(*off, ",") {
		if name == "" {
			continue
		}
		f, ok := featureNamed(name)
		if !ok {
			return fmt.Errorf("-off %q: no such feature; want some of %s", name, featureList())
		}
		*f.Field(&opts) = false
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
			var wall, cpu time.Duration
			var nodes uint64
			for _, o := range positions {
				eng.NewGame()
				c, start := cputime.Process(), time.Now()
				r := eng.Search(ctx, o.Position, engine.Limits{Depth: *depth}, nil)
				wall, cpu, nodes = wall+time.Since(start), cpu+cputime.Process()-c, nodes+r.Nodes
				if ctx.Err() != nil {
					return ctx.Err()
				}
			}
			if base == 0 {
				base = wall
			}
			line += fmt.Sprintf(" to depth %d %.2fs (%.2f× the first), %.2f CPU-s, %d nodes;",
				*depth, wall.Seconds(), base.Seconds()/wall.Seconds(), cpu.Seconds(), nodes)
		}
		if *moveTime > 0 {
			sum := 0
			var nodes uint64
			for _, o := range positions {
				eng.NewGame()
				r := eng.Search(ctx, o.Position, engine.Limits{MoveTime: *moveTime}, nil)
				sum, nodes = sum+r.Depth, nodes+r.Nodes
				if ctx.Err() != nil {
					return ctx.Err()
				}
			}
			line += fmt.Sprintf(" in %v depth %.2f on average, %.0f nodes/s;", *moveTime,
				float64(sum)/float64(len(positions)), float64(nodes)/(moveTime.Seconds()*float64(len(positions))))
		}
		fmt.Fprintln(e.stdout, strings.TrimSuffix(line, ";"))
	}
	return nil
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
