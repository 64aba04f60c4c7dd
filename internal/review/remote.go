package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/fairplay"
)

// JobSubject is the bus subject of the review jobs: the server asks, any
// one `toguz worker` of the queue group WorkerQueue answers (as lichess's
// fishnet clients take analysis jobs), with the job and answer of the
// review-worker protocol (a JSON object each way).
const (
	JobSubject  = "toguz.review.job"
	WorkerQueue = "toguz-review-workers"
)

// Requester sends a request on the bus and waits for its answer
// (internal/bus.Bus). NoWorker reports an error that says nobody listens:
// no worker is running yet.
type Requester interface {
	Request(ctx context.Context, subject string, data []byte) ([]byte, error)
}

// Remote is an Analyzer whose searches run in `toguz worker` processes on
// other machines, reached over the bus: the queue (claiming the jobs,
// storing the reviews) stays on the server. A job nobody answers (no
// worker, or one that died) is asked again after Retry until its context
// ends; each try waits at most Timeout.
type Remote struct {
	Bus      Requester
	NoWorker func(error) bool
	Timeout  time.Duration // one try (default 10 min)
	Retry    time.Duration // wait between tries (default 2 s)
}

func (r *Remote) Analyze(ctx context.Context, start toguz.Position, moves []toguz.Move, depth int) (Data, error) {
	a, err := r.exchange(ctx, newJob(start, moves, depth))
	if err != nil {
		return Data{}, err
	}
	if a.Review == nil {
		return Data{}, errors.New("review: a worker answered no review")
	}
	return *a.Review, nil
}

// exchange asks a worker j and returns its answer, an error when the
// answer is one.
func (r *Remote) exchange(ctx context.Context, j job) (answer, error) {
	b, err := json.Marshal(j)
	if err != nil {
		return answer{}, err
	}
	timeout, retry := r.Timeout, r.Retry
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	if retry <= 0 {
		retry = 2 * time.Second
	}
	for {
		tctx, cancel := context.WithTimeout(ctx, timeout)
		out, err := r.Bus.Request(tctx, JobSubject, b)
		cancel()
		if err == nil {
			var a answer
			if err := json.Unmarshal(out, &a); err != nil {
				return answer{}, fmt.Errorf("review: a worker's answer: %w", err)
			}
			if a.Error != "" {
				return answer{}, errors.New("review: " + a.Error)
			}
			return a, nil
		}
		if ctx.Err() != nil {
			return answer{}, ctx.Err()
		}
		if r.NoWorker == nil || !r.NoWorker(err) {
			if !errors.Is(err, context.DeadlineExceeded) {
				return answer{}, fmt.Errorf("review: asking a worker: %w", err)
			}
		}
		// Nobody answered: no worker yet, or it died mid-job. Ask again.
		select {
		case <-ctx.Done():
			return answer{}, ctx.Err()
		case <-time.After(retry):
		}
	}
}

func (r *Remote) Close() error { return nil }

// Worker answers review jobs with one engine, one job at a time.
type Worker struct {
	e  *engine.Engine
	fp *fairplay.Analyzer // made on the first fair-play job
}

// NewWorker returns a worker with its own review engine.
func NewWorker() (*Worker, error) {
	e, err := newEngine()
	if err != nil {
		return nil, err
	}
	return &Worker{e: e}, nil
}

// Answer reviews the job in data (a JSON object) and returns the answer.
func (w *Worker) Answer(ctx context.Context, data []byte) []byte {
	var a answer
	if len(data) > maxJobLine {
		a.Error = fmt.Sprintf("job of %d bytes, more than %d", len(data), maxJobLine)
	} else {
		a = serveJob(ctx, w.e, &w.fp, data)
	}
	b, _ := json.Marshal(a)
	return b
}
