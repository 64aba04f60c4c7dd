package main

import (
	"context"
	"fmt"
	"runtime"

	"github.com/toguz/toguz/internal/bus"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/review"
)

// runWorker reviews games for servers over the bus (as lichess's fishnet
// analyses them for lichess): `toguz serve -nats … -review-remote` asks,
// and one worker of the queue group answers each job.
func runWorker(ctx context.Context, e env) error {
	fs := newFlags(e, "worker", "", "Reviews the games that `toguz serve -nats URL -review-remote` servers send over NATS: each\njob goes to one worker of all those running; the review comes back to the server, which stores it.\nRuns until SIGTERM or SIGINT; the whole process at the lowest priority.")
	natsURL := fs.String("nats", "", "the NATS server of the servers (nats://host:port)")
	n := fs.Int("n", 1, "games reviewed at once, each by a search of one thread (at most the CPUs)")
	lowest := fs.Bool("lowest-priority", true, "run every thread of this process at the lowest priority (Linux: SCHED_IDLE and nice 19)")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 0 || *natsURL == "" {
		fs.Usage()
		return errUsage
	}
	if *n < 1 || *n > runtime.NumCPU() {
		return fmt.Errorf("-n %d: want 1..%d (the CPUs)", *n, runtime.NumCPU())
	}
	if *lowest {
		if err := engine.LowerProcessPriority(); err != nil {
			return fmt.Errorf("lowering the priority: %w", err)
		}
	}
	b, err := bus.Connect(*natsURL, "toguz worker", nil)
	if err != nil {
		return err
	}
	defer b.Close()
	for range *n {
		w, err := review.NewWorker()
		if err != nil {
			return err
		}
		// One subscription per engine: NATS calls each one's handler for
		// one job at a time.
		un, err := b.QueueSubscribe(review.JobSubject, review.WorkerQueue, func(_ string, data []byte, reply func([]byte)) {
			reply(w.Answer(ctx, data))
		})
		if err != nil {
			return err
		}
		defer un()
	}
	fmt.Fprintf(e.stderr, "toguz worker: %d engines waiting for review jobs on %s\n", *n, *natsURL)
	<-ctx.Done()
	return nil
}
