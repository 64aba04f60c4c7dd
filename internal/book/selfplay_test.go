package book

import (
	"context"
	"errors"
	"testing"

	"github.com/toguz/toguz"
)

// lowestHole plays the lowest legal hole; game n starts with hole n+1 when
// it can, so that games differ.
type lowestHole struct{ game, ply int }

func (l *lowestHole) NewGame(game int) error {
	l.game, l.ply = game, 0
	return nil
}

func (l *lowestHole) Move(_ context.Context, p toguz.Position) toguz.Move {
	l.ply++
	legal := p.LegalMoves()
	if m := toguz.Move(l.game + 1); l.ply == 1 && legal.Has(m) {
		return m
	}
	return legal.First()
}

func TestSelfPlay(t *testing.T) {
	start := toguz.StartPosition()
	var done []int
	games, err := SelfPlay(context.Background(), start, 3, 1000, &lowestHole{}, func(n int) { done = append(done, n) })
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 3 || len(done) != 3 || done[2] != 3 {
		t.Fatalf("%d games, progress %v; want 3", len(games), done)
	}
	for i, g := range games {
		p := start
		for _, m := range g.Moves {
			p = p.After(m)
		}
		if g.Moves[0] != toguz.Move(i+1) || !p.IsOver() || g.Result != p.Outcome().Result || g.Weight != 1 {
			t.Errorf("game %d: first move %d, %d plies, over %t, result %v (rules say %v)",
				i, g.Moves[0], len(g.Moves), p.IsOver(), g.Result, p.Outcome().Result)
		}
	}
	short, err := SelfPlay(context.Background(), start, 1, 6, &lowestHole{}, nil)
	if err != nil || len(short[0].Moves) != 6 || short[0].Result != toguz.NoResult {
		t.Errorf("stopped at 6 plies: %v, %+v; want 6 moves and no result", err, short)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := SelfPlay(ctx, start, 1, 6, &lowestHole{}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}
