// Package duel plays quick matches between two engine configurations in
// one process: balanced random openings, each played with both colours,
// fixed nodes, depth or time per move, and the Elo difference with its
// error. It is the engine's development loop for deciding whether a
// feature earns its place (docs/engine-testing.md), run as `toguz duel`;
// the full match runner with protocol engines, clocks and SPRT is
// `toguz match`.
package duel

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/match"
)

// Config describes a match.
type Config struct {
	A, B      engine.Options
	Limits    engine.Limits // per move, for both
	Openings  int           // each played twice, colours swapped
	OpenPlies int           // random plies of each opening
	Seed      uint64
	MaxPlies  int // a game this long is adjudicated on the kazans; 0: 400
}

// Result counts the games from A's view. The statistics are the match
// runner's (internal/match), so that a duel and `toguz match` report alike.
type Result struct{ match.Counts }

func (r Result) String() string {
	return fmt.Sprintf("+%d =%d -%d (%.1f%%), Elo %v", r.Wins, r.Draws, r.Losses, 100*r.Score(),
		match.EloFromCounts(r.Counts))
}

// Play runs the match; progress, if not nil, is called after every game.
func Play(ctx context.Context, cfg Config, progress func(Result)) (Result, error) {
	var res Result
	a, err := engine.New(cfg.A)
	if err != nil {
		return res, fmt.Errorf("engine A: %w", err)
	}
	b, err := engine.New(cfg.B)
	if err != nil {
		return res, fmt.Errorf("engine B: %w", err)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6475656c))
	maxPlies := cmp.Or(cfg.MaxPlies, 400)
	for range cfg.Openings {
		open := opening(rng, cfg.OpenPlies)
		for _, aWhite := range []bool{true, false} {
			if ctx.Err() != nil {
				return res, ctx.Err()
			}
			a.NewGame()
			b.NewGame()
			white, black := a, b
			if !aWhite {
				white, black = b, a
			}
			r := game(ctx, open, white, black, cfg.Limits, maxPlies)
			if !aWhite {
				r = -r
			}
			switch {
			case r > 0:
				res.Wins++
			case r < 0:
				res.Losses++
			default:
				res.Draws++
			}
			if progress != nil {
				progress(res)
			}
		}
	}
	return res, nil
}

// opening plays plies random moves from the start, avoiding finished games.
func opening(rng *rand.Rand, plies int) toguz.Position {
	p := toguz.StartPosition()
	for range plies {
		ms := p.LegalMoves().Slice()
		if len(ms) == 0 {
			break
		}
		p = p.After(ms[rng.IntN(len(ms))])
	}
	return p
}

// game plays one game and returns +1 when White wins, -1 when Black wins, 0
// for a draw. A game reaching maxPlies is decided by the kazans.
func game(ctx context.Context, p toguz.Position, white, black *engine.Engine, lim engine.Limits, maxPlies int) int {
	for ply := 0; !p.IsOver() && ply < maxPlies; ply++ {
		e := white
		if p.Turn() == toguz.Black {
			e = black
		}
		m := e.Search(ctx, p, lim, nil).Best
		if ctx.Err() != nil {
			return 0
		}
		p = p.After(m)
	}
	score := [2]int{p.Kazan(toguz.White), p.Kazan(toguz.Black)}
	if p.IsOver() {
		score = p.Outcome().Score
	}
	switch {
	case score[0] > score[1]:
		return 1
	case score[0] < score[1]:
		return -1
	}
	return 0
}
