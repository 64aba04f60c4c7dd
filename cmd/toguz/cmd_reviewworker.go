package main

import (
	"context"
	"fmt"

	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/review"
)

// runReviewWorker is the process in which `toguz serve` runs the searches
// of its game reviews (review.Process): jobs on stdin, reviews on stdout,
// a JSON line each, until stdin ends; the whole process at the lowest
// priority.
func runReviewWorker(ctx context.Context, e env) error {
	fs := newFlags(e, "review-worker", "", "Reviews the games sent on standard input, a JSON line each ({\"rules\",\"fen\",\"moves\",\"depth\"}),\nand writes each review as a JSON line ({\"review\"} or {\"error\"}), until the input ends.\n`toguz serve` starts one per -review-workers; the whole process runs at the lowest priority.")
	lowest := fs.Bool("lowest-priority", true, "run every thread of this process at the lowest priority (Linux: SCHED_IDLE and nice 19)")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return errUsage
	}
	if *lowest {
		// Its runtime's threads too, not only the search's: they would
		// compete with the server at its priority (docs/review.md).
		if err := engine.LowerProcessPriority(); err != nil {
			return fmt.Errorf("lowering the priority: %w", err)
		}
	}
	return review.Serve(ctx, e.stdin, e.stdout)
}
