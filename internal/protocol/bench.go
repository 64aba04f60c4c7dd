package protocol

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/openings"
)

// Bench defaults: 30 positions to depth 12 take a few seconds on one
// thread; the search stops at depth 100 in any case.
const (
	benchDepth     = 12
	benchPositions = 30
	benchMaxDepth  = 100
)

// bench answers `bench [depth D] [positions N]`, as engines of chess have
// it: it searches the first N positions of the match runner's opening
// suite, each from a cleared table, to depth D with the current options,
// and writes an `info string bench` line per position and one with the
// totals. A feature that only orders moves leaves each search's result as
// it is (a check of the lines' scores) and shows its worth in the nodes.
func (s *server) bench(args []string) {
	if s.searching() {
		s.errorf("bench: not while searching; send stop first")
		return
	}
	if s.rules != toguz.Standard() {
		s.errorf("bench: the positions are of the standard ruleset, not %s", s.rules)
		return
	}
	suite, err := openings.Parse(strings.NewReader(openings.Default), toguz.Standard())
	if err != nil {
		s.errorf("bench: %v", err)
		return
	}
	depth, n := benchDepth, benchPositions
	for i := 0; i < len(args); i += 2 {
		if i+1 == len(args) {
			s.errorf("bench: %q needs a value", clip(args[i]))
			return
		}
		v, err := strconv.Atoi(args[i+1])
		switch {
		case args[i] == "depth" && err == nil && v >= 1 && v <= benchMaxDepth:
			depth = v
		case args[i] == "positions" && err == nil && v >= 1 && v <= len(suite):
			n = v
		case args[i] == "depth":
			s.errorf("bench: depth %q: want 1 to %d", clip(args[i+1]), benchMaxDepth)
			return
		case args[i] == "positions":
			s.errorf("bench: positions %q: want 1 to %d", clip(args[i+1]), len(suite))
			return
		default:
			s.errorf("bench: unknown argument %q; want depth D, positions N", clip(args[i]))
			return
		}
	}
	var nodes uint64
	var total time.Duration
	for i, o := range suite[:n] {
		s.eng.NewGame()
		start := time.Now()
		r := s.eng.Search(context.Background(), o.Position, engine.Limits{Depth: depth}, nil)
		d := time.Since(start)
		nodes, total = nodes+r.Nodes, total+d
		s.out.printf("info string bench position %d depth %d score %s nodes %d time %d bestmove %d",
			i+1, r.Depth, FormatScore(r.Score), r.Nodes, d.Milliseconds(), r.Best)
	}
	s.eng.NewGame()
	s.out.printf("info string bench positions %d depth %d nodes %d time %d nps %d",
		n, depth, nodes, total.Milliseconds(), uint64(float64(nodes)/max(total.Seconds(), 1e-3)))
}
