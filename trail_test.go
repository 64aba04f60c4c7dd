package toguz

import (
	"math/rand/v2"
	"testing"
)

// TestTrail checks the trail of every legal move along random games of each
// ruleset against the rules: one hole per stone, the last one Landing's,
// and, counted onto the board before the move, the board after it except
// where the move captured (its landing, the tuzdiks).
func TestTrail(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, r := range []Rules{Standard(), Pre1949(), Seven(), Bestemshe()} {
		for game := 0; game < 20; game++ {
			p, err := NewPosition(r)
			if err != nil {
				t.Fatal(err)
			}
			for !p.IsOver() {
				for m := range p.LegalMoves().All() {
					me := p.Turn()
					var board [2][]int
					for pl := White; pl <= Black; pl++ {
						for h := 1; h <= p.Holes(); h++ {
							board[pl] = append(board[pl], p.Stones(pl, h))
						}
					}
					board[me][m-1] = 0
					var lastSide Player
					lastHole, n := 0, 0
					for side, hole := range p.Trail(m) {
						board[side][hole-1]++
						lastSide, lastHole = side, hole
						n++
					}
					if want := p.Stones(me, int(m)); n != want {
						t.Fatalf("%s %s move %d: %d stones in the trail, want %d", r, p.FEN(), m, n, want)
					}
					if ls, lh := p.Landing(m); ls != lastSide || lh != lastHole {
						t.Fatalf("%s %s move %d: the trail ends at %s %d, Landing says %s %d", r, p.FEN(), m, lastSide, lastHole, ls, lh)
					}
					q := p.After(m)
					for pl := White; pl <= Black; pl++ {
						for h := 1; h <= p.Holes(); h++ {
							if q.IsTuzdik(pl, h) || pl == lastSide && h == lastHole && q.Stones(pl, h) == 0 {
								continue
							}
							if got := q.Stones(pl, h); got != board[pl][h-1] {
								t.Fatalf("%s %s move %d: %s hole %d holds %d after the move, the trail puts %d", r, p.FEN(), m, pl, h, got, board[pl][h-1])
							}
						}
					}
				}
				moves := []Move{}
				for m := range p.LegalMoves().All() {
					moves = append(moves, m)
				}
				p = p.After(moves[rng.IntN(len(moves))])
			}
		}
	}
}
