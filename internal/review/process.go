package review

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/fairplay"
)

// Analyzer reviews the moves of a game from its start position.
type Analyzer interface {
	Analyze(ctx context.Context, start toguz.Position, moves []toguz.Move, depth int) (Data, error)
	Close() error
}

// Local analyses in this process with its own engine, at the lowest
// priority of the OS unless Foreground (tests, benchmarks).
type Local struct {
	e          *engine.Engine
	fp         *fairplay.Analyzer // made on the first Evidence
	foreground bool
}

// NewLocal returns an in-process analyzer.
func NewLocal(foreground bool) (*Local, error) {
	e, err := newEngine()
	if err != nil {
		return nil, err
	}
	return &Local{e: e, foreground: foreground}, nil
}

func (l *Local) Analyze(ctx context.Context, start toguz.Position, moves []toguz.Move, depth int) (Data, error) {
	return Analyze(ctx, l.e, start, moves, depth, !l.foreground)
}

func (l *Local) Close() error { return nil }

// Process analyses in a child process (`toguz review-worker`, which runs
// Serve), started on the first job and again after it died or a job was
// cancelled. Measured on `toguz serve` under `toguz loadtest`
// (docs/review.md): a search on a lowest-priority thread of the server's
// own process raised the p99 of the move round trip several times on a
// loaded machine, since the Go runtime hands Ps and locks to that thread
// and then waits for the OS to run it; the same search in a process of
// its own left the p99 as it was.
type Process struct {
	cmd []string

	mu     sync.Mutex
	child  *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
}

// NewProcess returns an analyzer that runs cmd (the program and its
// arguments) as its child.
func NewProcess(cmd []string) *Process { return &Process{cmd: cmd} }

// job and answer are the child's protocol: a JSON line each way.
type job struct {
	Rules string `json:"rules"`
	FEN   string `json:"fen"`
	Moves []int  `json:"moves"`
	Depth int    `json:"depth"`
	// FairPlay asks for the fair-play evidence of the moves instead of
	// their review (Times: each ply's time in milliseconds, 0 unknown).
	FairPlay bool    `json:"fairplay,omitempty"`
	Times    []int64 `json:"times,omitempty"`
}

type answer struct {
	Review   *Data           `json:"review,omitempty"`
	Evidence []fairplay.Move `json:"evidence,omitempty"`
	Error    string          `json:"error,omitempty"`
}

func (p *Process) start() error {
	c := exec.Command(p.cmd[0], p.cmd[1:]...)
	in, err := c.StdinPipe()
	if err != nil {
		return err
	}
	out, err := c.StdoutPipe()
	if err != nil {
		return err
	}
	if err := c.Start(); err != nil {
		return fmt.Errorf("review: start %v: %w", p.cmd, err)
	}
	p.child, p.stdin, p.stdout = c, in, bufio.NewReaderSize(out, 64<<10)
	return nil
}

// stop ends the child: its input closed, then killed if it is searching.
func (p *Process) stop() {
	if p.child == nil {
		return
	}
	p.stdin.Close()
	p.child.Process.Kill()
	p.child.Wait()
	p.child = nil
}

func (p *Process) Analyze(ctx context.Context, start toguz.Position, moves []toguz.Move, depth int) (Data, error) {
	a, err := p.exchange(ctx, newJob(start, moves, depth))
	if err != nil {
		return Data{}, err
	}
	if a.Review == nil {
		return Data{}, errors.New("review: the worker process answered no review")
	}
	return *a.Review, nil
}

// newJob returns the job of reviewing moves from start at depth.
func newJob(start toguz.Position, moves []toguz.Move, depth int) job {
	j := job{Rules: start.Rules().String(), FEN: start.FEN(), Moves: make([]int, len(moves)), Depth: depth}
	for i, m := range moves {
		j.Moves[i] = int(m)
	}
	return j
}

// exchange sends j to the child and returns its answer, an error when the
// answer is one.
func (p *Process) exchange(ctx context.Context, j job) (answer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.child == nil {
		if err := p.start(); err != nil {
			return answer{}, err
		}
	}
	b, err := json.Marshal(j)
	if err != nil {
		return answer{}, err
	}
	type result struct {
		line []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		if _, err := p.stdin.Write(append(b, '\n')); err != nil {
			done <- result{err: err}
			return
		}
		line, err := p.stdout.ReadBytes('\n')
		done <- result{line, err}
	}()
	select {
	case <-ctx.Done():
		p.stop() // the reader goroutine ends with the child's output
		<-done
		return answer{}, ctx.Err()
	case r := <-done:
		if r.err != nil {
			p.stop()
			return answer{}, fmt.Errorf("review: the worker process: %w", r.err)
		}
		var a answer
		if err := json.Unmarshal(r.line, &a); err != nil {
			p.stop()
			return answer{}, fmt.Errorf("review: the worker process's answer: %w", err)
		}
		if a.Error != "" {
			return answer{}, errors.New("review: " + a.Error)
		}
		return a, nil
	}
}

// Close ends the child.
func (p *Process) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stop()
	return nil
}

// maxJobLine bounds a job the worker reads: MaxPlies moves are far less.
const maxJobLine = 64 << 10

// Serve is the worker process (`toguz review-worker`, which first puts the
// whole process at the lowest priority, engine.LowerProcessPriority): it
// reads jobs from r, a JSON line each, reviews each with one engine, and
// writes each answer to w, until r ends.
func Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	wk, err := NewWorker()
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), maxJobLine)
	for sc.Scan() {
		if _, err := w.Write(append(wk.Answer(ctx, sc.Bytes()), '\n')); err != nil {
			return err
		}
	}
	return sc.Err()
}

// serveJob answers a job: its review, or its fair-play evidence with
// fp's analyzer (made on the first such job).
func serveJob(ctx context.Context, e *engine.Engine, fp **fairplay.Analyzer, line []byte) (a answer) {
	var j job
	if err := json.Unmarshal(line, &j); err != nil {
		a.Error = err.Error()
		return a
	}
	if j.FairPlay {
		ev, err := serveEvidence(ctx, fp, j)
		if err != nil {
			a.Error = err.Error()
		}
		a.Evidence = ev
		return a
	}
	d, err := serveReview(ctx, e, j)
	if err != nil {
		a.Error = err.Error()
		return a
	}
	a.Review = &d
	return a
}

// jobGame returns the start and the moves of a job, checked.
func jobGame(j job) (toguz.Position, []toguz.Move, error) {
	rules, err := toguz.ParseRules(j.Rules)
	if err != nil {
		return toguz.Position{}, nil, err
	}
	start, _, err := toguz.ParseFEN(j.FEN, rules)
	if err != nil {
		return toguz.Position{}, nil, err
	}
	if len(j.Moves) > MaxPlies {
		return toguz.Position{}, nil, fmt.Errorf("job of %d plies, more than %d", len(j.Moves), MaxPlies)
	}
	moves := make([]toguz.Move, len(j.Moves))
	for i, m := range j.Moves {
		if m < 1 || m > toguz.MaxHoles {
			return toguz.Position{}, nil, fmt.Errorf("hole %d", m)
		}
		moves[i] = toguz.Move(m)
	}
	return start, moves, nil
}

func serveReview(ctx context.Context, e *engine.Engine, j job) (Data, error) {
	if j.Depth < 1 || j.Depth > 30 {
		return Data{}, fmt.Errorf("job at depth %d out of bounds", j.Depth)
	}
	start, moves, err := jobGame(j)
	if err != nil {
		return Data{}, err
	}
	return Analyze(ctx, e, start, moves, j.Depth, true)
}
