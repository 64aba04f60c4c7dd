package book

import (
	"context"

	"github.com/toguz/toguz"
)

// Player plays the moves of self-play games, for instance the engine at a
// weaker level (which varies its moves from its seed) at a fixed depth.
type Player interface {
	// NewGame is called before game number game (from 0) so that the
	// player can seed itself: a game must depend only on its number.
	NewGame(game int) error
	// Move returns a legal move of p, which is not over.
	Move(ctx context.Context, p toguz.Position) toguz.Move
}

// SelfPlay plays n games from start, both sides by pl, each to the end or
// to maxPlies (a game stopped there has no result), and returns them with
// weight 1. It stops early, returning the games finished, when ctx is
// cancelled. progress, if not nil, is called after each game.
func SelfPlay(ctx context.Context, start toguz.Position, n, maxPlies int, pl Player, progress func(done int)) ([]Game, error) {
	games := make([]Game, 0, n)
	for i := range n {
		if err := pl.NewGame(i); err != nil {
			return games, err
		}
		g := Game{Start: start, Weight: 1}
		p := start
		for !p.IsOver() && len(g.Moves) < maxPlies {
			if err := ctx.Err(); err != nil {
				return games, err
			}
			m := pl.Move(ctx, p)
			next, err := p.Play(m)
			if err != nil {
				return games, err
			}
			g.Moves = append(g.Moves, m)
			p = next
		}
		if p.IsOver() {
			g.Result = p.Outcome().Result
		}
		games = append(games, g)
		if progress != nil {
			progress(i + 1)
		}
	}
	return games, nil
}
