package live

import (
	"log/slog"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/game"
)

// BenchmarkStateJSON is the state of a game of 100 plies as JSON: what a
// joining client gets, and what a watched game hands its spectators' fan-out
// after every move.
func BenchmarkStateJSON(b *testing.B) {
	s := game.Saved{Spec: game.Spec{ID: "bench", Rules: toguz.Standard(), Created: time.Unix(0, 0)}}
	p, err := toguz.NewPosition(toguz.Standard())
	if err != nil {
		b.Fatal(err)
	}
	for len(s.Moves) < 100 && !p.IsOver() {
		m := p.LegalMoves().First()
		s.Moves = append(s.Moves, game.PlayedMove{Hole: m, At: time.Unix(int64(len(s.Moves)), 0)})
		p = p.After(m)
	}
	g, err := newGame(&Hub{log: slog.New(slog.DiscardHandler)}, s, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		g.stateJSON(nil)
	}
}
