package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// EngineSpec says how to start an engine and how it plays.
type EngineSpec struct {
	Name    string
	Cmd     []string    // the program and its arguments
	Dir     string      // working directory; "" for the current one
	Options [][2]string // setoption name/value pairs, sent in order
	TC      TimeControl
}

// TimeControl is how long an engine may think. Exactly one kind is set:
// a clock (Base > 0, with Inc per move and Base again every Moves moves
// when Moves > 0), MoveTime per move, or a fixed Depth or Nodes.
type TimeControl struct {
	Moves     int
	Base, Inc time.Duration
	MoveTime  time.Duration
	Depth     int
	Nodes     uint64
}

func (tc TimeControl) String() string {
	switch {
	case tc.MoveTime > 0:
		return "st=" + seconds(tc.MoveTime)
	case tc.Depth > 0:
		return "depth=" + strconv.Itoa(tc.Depth)
	case tc.Nodes > 0:
		return "nodes=" + strconv.FormatUint(tc.Nodes, 10)
	case tc.Base == 0:
		return "inf"
	}
	s := seconds(tc.Base)
	if tc.Moves > 0 {
		s = strconv.Itoa(tc.Moves) + "/" + s
	}
	if tc.Inc > 0 {
		s += "+" + seconds(tc.Inc)
	}
	return s
}

func seconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }

// ParseTimeControl reads cutechess-cli's tc= values: `[MOVES/]SECONDS[+INC]`
// (`40/60+0.6`, `10+0.1`, `300`), SECONDS may be `M:SS`; `inf` is no limit.
func ParseTimeControl(s string) (TimeControl, error) {
	var tc TimeControl
	if s == "inf" {
		return tc, nil
	}
	bad := func(why string) (TimeControl, error) {
		return TimeControl{}, fmt.Errorf("time control %q: %s (want [MOVES/]SECONDS[+INC], e.g. 40/60+0.6)", s, why)
	}
	rest := s
	if moves, r, ok := strings.Cut(rest, "/"); ok {
		n, err := strconv.Atoi(moves)
		if err != nil || n < 1 {
			return bad("moves per period must be a whole number from 1")
		}
		tc.Moves, rest = n, r
	}
	base, inc, hasInc := strings.Cut(rest, "+")
	var err error
	if tc.Base, err = parseSeconds(base); err != nil || tc.Base <= 0 {
		return bad("the base time must be a positive number of seconds")
	}
	if hasInc {
		if tc.Inc, err = parseSeconds(inc); err != nil {
			return bad("the increment must be a number of seconds")
		}
	}
	return tc, nil
}

// parseSeconds reads `12.5` or `M:SS`.
func parseSeconds(s string) (time.Duration, error) {
	mins := 0.0
	if m, sec, ok := strings.Cut(s, ":"); ok {
		v, err := strconv.ParseFloat(m, 64)
		if err != nil {
			return 0, err
		}
		mins, s = v, sec
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || mins < 0 {
		return 0, fmt.Errorf("%q is not a number of seconds", s)
	}
	return time.Duration((mins*60 + v) * float64(time.Second)), nil
}

// ErrEngine is wrapped by the errors of an engine that broke the protocol,
// crashed or did not answer in time.
var ErrEngine = errors.New("engine failure")

// player is a running engine process.
type player struct {
	spec  EngineSpec
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string // stdout lines; closed when the process closes it
	done  chan struct{}
}

// handshakeTimeout bounds the answers to uci and isready.
const handshakeTimeout = 10 * time.Second

// startPlayer starts the engine, sends uci and its options, and waits until
// it is ready.
func startPlayer(ctx context.Context, spec EngineSpec) (*player, error) {
	if len(spec.Cmd) == 0 {
		return nil, fmt.Errorf("engine %s: no command", spec.Name)
	}
	cmd := exec.Command(spec.Cmd[0], spec.Cmd[1:]...)
	cmd.Dir = spec.Dir
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("engine %s: %w", spec.Name, err)
	}
	p := &player{spec: spec, cmd: cmd, in: in, lines: make(chan string, 64), done: make(chan struct{})}
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			select {
			case p.lines <- sc.Text():
			case <-p.done:
				return
			}
		}
	}()
	if err := p.handshake(ctx); err != nil {
		p.close()
		return nil, err
	}
	return p, nil
}

func (p *player) handshake(ctx context.Context) error {
	if err := p.send("uci"); err != nil {
		return err
	}
	if _, err := p.waitFor(ctx, "uciok", handshakeTimeout, nil); err != nil {
		return err
	}
	for _, o := range p.spec.Options {
		if err := p.send("setoption name " + o[0] + " value " + o[1]); err != nil {
			return err
		}
	}
	return p.ready(ctx)
}

func (p *player) ready(ctx context.Context) error {
	if err := p.send("isready"); err != nil {
		return err
	}
	_, err := p.waitFor(ctx, "readyok", handshakeTimeout, nil)
	return err
}

func (p *player) newGame(ctx context.Context) error {
	if err := p.send("ucinewgame"); err != nil {
		return err
	}
	return p.ready(ctx)
}

func (p *player) send(line string) error {
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		return fmt.Errorf("%w: %s: writing %q: %v", ErrEngine, p.spec.Name, line, err)
	}
	return nil
}

// errTimeout is returned by waitFor when the engine did not answer in time.
var errTimeout = errors.New("no answer in time")

// waitFor reads lines until one whose first word is word, and returns it.
// Every other line goes to seen, if not nil.
func (p *player) waitFor(ctx context.Context, word string, timeout time.Duration, seen func(string)) (string, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return "", fmt.Errorf("%w: %s exited while %s was awaited", ErrEngine, p.spec.Name, word)
			}
			if f := strings.Fields(line); len(f) > 0 && f[0] == word {
				return line, nil
			}
			if seen != nil {
				seen(line)
			}
		case <-t.C:
			return "", fmt.Errorf("%w: %s: %w (%s after %v)", ErrEngine, p.spec.Name, errTimeout, word, timeout)
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// close asks the engine to quit, and kills it if it has not within a second.
func (p *player) close() {
	_ = p.send("quit")
	p.in.Close()
	close(p.done)
	exited := make(chan struct{})
	go func() { p.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(time.Second):
		p.cmd.Process.Kill()
		<-exited
	}
}

// Program is an engine program started, handshaken and made ready as a
// match's players are, for the protocol's other drivers (`toguz bot`).
type Program struct{ p *player }

// StartProgram starts spec's program, sends uci and its options, and waits
// until it is ready.
func StartProgram(ctx context.Context, spec EngineSpec) (*Program, error) {
	p, err := startPlayer(ctx, spec)
	if err != nil {
		return nil, err
	}
	return &Program{p: p}, nil
}

// Send writes a line of the protocol to the program.
func (g *Program) Send(line string) error { return g.p.send(line) }

// WaitFor reads the program's lines until one whose first word is word,
// and returns it; the others are dropped.
func (g *Program) WaitFor(ctx context.Context, word string, timeout time.Duration) (string, error) {
	return g.p.waitFor(ctx, word, timeout, nil)
}

// Close asks the program to quit, and kills it if it has not within a
// second. Call it once.
func (g *Program) Close() { g.p.close() }

// searchInfo is what the judge keeps of an engine's info lines: the score of
// the last one that had a score, in hundredths of a stone from the engine's
// view (a proven win or loss counts as ±MateCP).
type searchInfo struct {
	score    int
	hasScore bool
	depth    int
}

// MateCP is the score given to a proven win when scores are compared.
const MateCP = 100000

// parseInfo reads the score and depth of an info line into si.
func parseInfo(line string, si *searchInfo) {
	f := strings.Fields(line)
	for i := 1; i+1 < len(f); i++ {
		switch f[i] {
		case "depth":
			if d, err := strconv.Atoi(f[i+1]); err == nil {
				si.depth = d
			}
		case "score":
			if i+2 >= len(f) {
				return
			}
			v, err := strconv.Atoi(f[i+2])
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "cp":
				si.score, si.hasScore = v, true
			case "mate":
				si.score, si.hasScore = MateCP-abs(v), true
				if v < 0 {
					si.score = -si.score
				}
			}
		case "string":
			return // the rest is free text
		}
	}
}

// note writes the score, depth and time of a move: "+1.25/12 0.48s", or
// "0.48s" when the engine reported no score.
func (si searchInfo) note(d time.Duration) string {
	t := strconv.FormatFloat(d.Seconds(), 'f', 2, 64) + "s"
	if !si.hasScore {
		return t
	}
	var sc string
	switch {
	case si.score >= MateCP-1000:
		sc = "win " + strconv.Itoa(MateCP-si.score)
	case si.score <= -MateCP+1000:
		sc = "loss " + strconv.Itoa(MateCP+si.score)
	default:
		sc = fmt.Sprintf("%+.2f", float64(si.score)/100)
	}
	return sc + "/" + strconv.Itoa(si.depth) + " " + t
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
