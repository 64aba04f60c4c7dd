package botclient

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/enginepool"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/match"
)

// Builtin returns NewEngine for the built-in engine at level (1 to
// engine.MaxLevel), searchers searches at once over all games: the same
// player as the server's games against the computer.
func Builtin(level, searchers int) (func(context.Context) (Engine, error), error) {
	if level < 1 || level > engine.MaxLevel {
		return nil, fmt.Errorf("level %d: want 1 to %d", level, engine.MaxLevel)
	}
	p, err := enginepool.NewLivePlayer(searchers, 16)
	if err != nil {
		return nil, err
	}
	return func(context.Context) (Engine, error) { return builtin{p: p, level: level}, nil }, nil
}

type builtin struct {
	p     *enginepool.LivePlayer
	level int
}

func (b builtin) Move(ctx context.Context, r MoveRequest) (toguz.Move, error) {
	return b.p.Move(ctx, game.EngineRequest{Position: r.Position, Level: b.level, Time: r.Time, Inc: r.Inc, User: r.GameID})
}

func (builtin) Close() error { return nil }

// Process returns NewEngine for a program that speaks the engine protocol
// (docs/protocol.md; `toguz engine` is one), one process per game, with
// the options given (setoption name N value V), started and spoken to as
// `toguz match` does (match.Program).
func Process(argv []string, options [][2]string) func(context.Context) (Engine, error) {
	return func(ctx context.Context) (Engine, error) {
		if len(argv) == 0 {
			return nil, errors.New("engine: no command")
		}
		prog, err := match.StartProgram(ctx, match.EngineSpec{Name: argv[0], Cmd: argv, Options: options})
		if err != nil {
			return nil, err
		}
		return &proc{prog: prog}, nil
	}
}

// proc is a running engine program.
type proc struct {
	prog *match.Program
	once sync.Once
}

func (p *proc) send(line string) error { return p.prog.Send(line) }

// Move sends the position and the clocks, as `toguz match` does, and reads
// the bestmove.
func (p *proc) Move(ctx context.Context, r MoveRequest) (toguz.Move, error) {
	if err := p.send("position fen " + toguz.FormatFEN(r.Position, 1)); err != nil {
		return 0, err
	}
	goCmd, limit := "go movetime 1000", 5*time.Second
	if r.Time != [2]time.Duration{} {
		ms := func(d time.Duration) int64 { return max(d.Milliseconds(), 1) }
		goCmd = fmt.Sprintf("go wtime %d btime %d", ms(r.Time[0]), ms(r.Time[1]))
		if r.Inc > 0 {
			goCmd += fmt.Sprintf(" winc %d binc %d", r.Inc.Milliseconds(), r.Inc.Milliseconds())
		}
		limit = r.Time[r.Position.Turn()] + 5*time.Second
	}
	if err := p.send(goCmd); err != nil {
		return 0, err
	}
	line, err := p.prog.WaitFor(ctx, "bestmove", limit)
	if err != nil {
		p.send("stop")
		return 0, err
	}
	f := strings.Fields(line)
	if len(f) < 2 {
		return 0, fmt.Errorf("engine: %q has no move", line)
	}
	n, err := strconv.Atoi(f[1])
	if err != nil {
		return 0, fmt.Errorf("engine: bestmove %q is not a hole number", f[1])
	}
	return toguz.Move(n), nil
}

// Close asks the engine to quit, and kills it if it has not within a
// second.
func (p *proc) Close() error {
	p.once.Do(p.prog.Close)
	return nil
}
