package toguz

import (
	"math/rand/v2"
	"testing"
)

// moverPositions returns positions to check perft's make-move on: random
// games under every named ruleset, and random setups under random rules,
// with tuzdiks anywhere they may be and holes big enough to sow several laps.
func moverPositions(t *testing.T, rng *rand.Rand) []Position {
	t.Helper()
	var out []Position
	for _, r := range []Rules{Standard(), Bestemshe(), Seven(), Pre1949()} {
		for range 40 {
			r.PlayOut = rng.IntN(2) == 0
			p, err := NewPosition(r)
			if err != nil {
				t.Fatal(err)
			}
			for !p.IsOver() {
				out = append(out, p)
				ms := p.LegalMoves().Slice()
				p = p.After(ms[rng.IntN(len(ms))])
			}
		}
	}
	for len(out) < 40000 {
		h := 2 + rng.IntN(MaxHoles-1)
		r := Rules{Holes: h, Stones: 1 + rng.IntN(255/(2*h)), Tuzdik: rng.IntN(4) != 0,
			OriginSowing: rng.IntN(2) == 0, PlayOut: rng.IntN(2) == 0}
		s := Setup{Rules: r, Turn: Player(rng.IntN(2))}
		s.Board = [2][]int{make([]int, h), make([]int, h)}
		left := r.Total()
		if r.Tuzdik {
			for pl := range 2 {
				if th := 1 + rng.IntN(h-1); rng.IntN(3) != 0 && s.Tuzdik[1-pl] != th {
					s.Tuzdik[pl] = th
					s.Kazan[pl] = 3
					left -= 3
				}
			}
		}
		// Spread the stones: a few big holes, the rest one at a time.
		for left > 0 {
			pl, hole := rng.IntN(2), rng.IntN(h)
			if s.Tuzdik[1-pl] == hole+1 {
				continue
			}
			k := 1
			if rng.IntN(8) == 0 {
				k = 1 + rng.IntN(left)
			}
			if rng.IntN(6) == 0 {
				s.Kazan[pl] += k
			} else {
				s.Board[pl][hole] += k
			}
			left -= k
		}
		p, err := s.Position()
		if err != nil {
			t.Fatalf("%+v: %v", s, err)
		}
		if !p.IsOver() {
			out = append(out, p)
		}
	}
	return out
}

// TestMoverAfter checks perft's make-move against After for every legal move
// of many positions: perftRun.make, and the folds of leaves and leavesTuzdik.
func TestMoverAfter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	tuzdiks := 0
	for _, p := range moverPositions(t, rng) {
		moves := p.sideMoves(p.Turn())
		r := newPerftRun(p)
		var hb holeBytes
		hb.set(p.board)
		tz := r.tuzdiks(p)
		var fold uint64
		for m := range moves.All() {
			want := p.After(m)
			if got := r.make(p, &hb.a, &tz, uint8(m)-1); got != want {
				t.Fatalf("%s, move %d: make gives %s, After %s", p.FEN(), m, got.FEN(), want.FEN())
			}
			fold ^= want.board.w0 ^ want.board.w1 ^ want.board.w2 ^ want.meta
		}
		n, f := r.leavesTuzdik(p, moves)
		if n != uint64(moves.Len()) || f != fold {
			t.Fatalf("%s: leavesTuzdik = %d, %#x, want %d, %#x", p.FEN(), n, f, moves.Len(), fold)
		}
		if p.hasTuzdik() {
			tuzdiks++
			continue
		}
		if n, f := r.leaves(p, moves); n != uint64(moves.Len()) || f != fold {
			t.Fatalf("%s: leaves = %d, %#x, want %d, %#x", p.FEN(), n, f, moves.Len(), fold)
		}
	}
	if tuzdiks < 5000 {
		t.Errorf("only %d positions with a tuzdik", tuzdiks)
	}
}
