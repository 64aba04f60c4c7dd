package tablebase

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/toguz/toguz"
)

// VerifyReport is what Verify checked.
type VerifyReport struct {
	Roots     int // random positions the graph was explored from
	Positions int // positions reached from them, each checked
	Distances int // of which the distance to the end was checked too
}

// ErrMismatch is wrapped by Verify's error for a position where the tables
// and the reference disagree.
var ErrMismatch = errors.New("tables and reference disagree")

// VerifyOptions says where Verify explores from.
type VerifyOptions struct {
	Roots int // random positions to explore from
	// Stones is the stones on the board of every root; 0: the table's
	// three largest layers in turn. A root of k stones reaches a graph
	// that grows steeply with k (a few dozen of 9 standard stones take
	// minutes and gigabytes), so a big table is checked from smaller
	// roots.
	Stones int
	Seed   uint64 // of the random roots
}

// Verify checks t against a reference solver that shares nothing with the
// tables but the rules library: from o.Roots random positions (seeded by
// o.Seed), it explores every position reachable (full positions, kazans
// and all) and solves the graph by the textbook fixed point. Every
// position reached must have the reference's result, and its distance to
// the end where the tables hold one. The first disagreement is an error
// wrapping ErrMismatch that names the position.
func Verify(ctx context.Context, t *Tables, o VerifyOptions) (VerifyReport, error) {
	if o.Stones < 0 || o.Stones > t.MaxStones() {
		return VerifyReport{}, fmt.Errorf("roots of %d stones: the table has 0 to %d", o.Stones, t.MaxStones())
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x766572696679))
	ref := &reference{id: map[toguz.Position]int32{}, ctx: ctx}
	for n := range o.Roots {
		if err := ctx.Err(); err != nil {
			return VerifyReport{}, err
		}
		k := max(t.MaxStones()-n%3, 1)
		if o.Stones > 0 {
			k = o.Stones
		}
		g := t.lay.g
		p, err := randomBoard(rng, g, k, rng.IntN(g.nconf), toguz.Player(n%2), g.win-1-k+rng.IntN(k+1))
		if err != nil {
			return VerifyReport{}, err
		}
		ref.add(p)
	}
	if err := ctx.Err(); err != nil {
		return VerifyReport{}, err
	}
	val := ref.solve()
	dist := ref.distances(val)
	rep := VerifyReport{Roots: o.Roots, Positions: len(ref.pos)}
	for i, p := range ref.pos {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return rep, err
			}
		}
		got, ok := t.ProbeWDL(p)
		if !ok || got != val[i] {
			return rep, fmt.Errorf("%w: %s: tables say %s (in them: %v), reference %s", ErrMismatch, p.FEN(), got, ok, val[i])
		}
		if res, plies, ok := t.ProbeDTM(p); ok {
			if res != got || plies != max(dist[i], 0) {
				return rep, fmt.Errorf("%w: %s: distance %s in %d, reference %s in %d", ErrMismatch, p.FEN(), res, plies, val[i], max(dist[i], 0))
			}
			rep.Distances++
		}
	}
	return rep, nil
}

// randomBoard returns a position of g's ruleset with k stones on the board
// in tuzdik configuration c (mover's view), the given player to move and
// the side to move holding kazan a.
func randomBoard(rng *rand.Rand, g *geometry, k, c int, turn toguz.Player, a int) (toguz.Position, error) {
	cf := &g.config[c]
	var f frame
	for range k {
		f.b[cf.free[rng.IntN(cf.nfree)]]++
	}
	return setupOf(g, f, cf.t, turn, a, g.total-k-a)
}

// setupOf builds the position of g's ruleset of frame board f with tuzdiks
// tz, seen from turn, with kazans a (mover) and b.
func setupOf(g *geometry, f frame, tz tuzdiks, turn toguz.Player, a, b int) (toguz.Position, error) {
	s := toguz.Setup{Rules: g.rules, Turn: turn}
	me, opp := turn, turn.Other()
	h := g.holes
	s.Board[me], s.Board[opp] = make([]int, h), make([]int, h)
	for i := range h {
		s.Board[me][i], s.Board[opp][i] = int(f.b[i]), int(f.b[i+h])
	}
	s.Kazan[me], s.Kazan[opp] = a, b
	if tz.my >= 0 {
		s.Tuzdik[me] = int(tz.my) - h + 1
	}
	if tz.opp >= 0 {
		s.Tuzdik[opp] = int(tz.opp) + 1
	}
	p, err := s.Position()
	if err != nil {
		return toguz.Position{}, fmt.Errorf("setup %+v: %w", s, err)
	}
	return p, nil
}

// reference solves positions by exploring the whole game graph from them with
// the rules library (full positions, kazans and all) and the textbook
// fixed point: a position is won when a move leads to a position lost for
// the opponent, lost when every move leads to a won one, and a draw when
// neither ever holds (play can go on for ever).
type reference struct {
	// ctx, when set, stops an exploration that was cancelled: the graph
	// of one root of 16 Bestemshe stones grows for minutes and gigabytes.
	ctx      context.Context
	id       map[toguz.Position]int32
	pos      []toguz.Position
	children [][]int32
}

func (r *reference) add(p toguz.Position) int32 {
	if i, ok := r.id[p]; ok {
		return i
	}
	i := int32(len(r.pos))
	r.id[p] = i
	r.pos = append(r.pos, p)
	r.children = append(r.children, nil)
	for stack, steps := []int32{i}, 1; len(stack) > 0; steps++ {
		if r.ctx != nil && steps&(1<<16-1) == 0 && r.ctx.Err() != nil {
			return i // Verify reports the cancellation
		}
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		q := r.pos[j]
		if q.IsOver() {
			continue
		}
		for m := range q.LegalMoves().All() {
			c := q.After(m)
			ci, ok := r.id[c]
			if !ok {
				ci = int32(len(r.pos))
				r.id[c] = ci
				r.pos = append(r.pos, c)
				r.children = append(r.children, nil)
				stack = append(stack, ci)
			}
			r.children[j] = append(r.children[j], ci)
		}
	}
	return i
}

func (r *reference) solve() []WDL {
	val := make([]WDL, len(r.pos))
	known := make([]bool, len(r.pos))
	for i, p := range r.pos {
		if p.IsOver() {
			o := p.Outcome()
			switch me := p.Turn(); {
			case o.Result == toguz.WinFor(me):
				val[i] = Win
			case o.Result == toguz.WinFor(me.Other()):
				val[i] = Loss
			default:
				val[i] = Draw
			}
			known[i] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for i, cs := range r.children {
			if known[i] {
				continue
			}
			allWon := true
			for _, c := range cs {
				if known[c] && val[c] == Loss {
					val[i], known[i], changed = Win, true, true
					break
				}
				if !known[c] || val[c] != Win {
					allWon = false
				}
			}
			if !known[i] && allWon {
				val[i], known[i], changed = Loss, true, true
			}
		}
	}
	return val
}

// distances returns the plies to the end of every position under best play
// by the textbook definition, level by level: a finished game is at 0; a
// won position is at d when a move leads to a lost one at d−1, and a lost
// one at d when every move leads to a won one and the farthest is at d−1.
// Draws get −1.
func (r *reference) distances(val []WDL) []int {
	dist := make([]int, len(r.pos))
	for i, p := range r.pos {
		dist[i] = -1
		if p.IsOver() {
			dist[i] = 0
		}
	}
	for d, changed := 1, true; changed; d++ {
		changed = false
		var set []int
		for i, cs := range r.children {
			if dist[i] >= 0 || val[i] == Draw {
				continue
			}
			if val[i] == Win {
				for _, c := range cs {
					if val[c] == Loss && dist[c] == d-1 {
						set = append(set, i)
						break
					}
				}
				continue
			}
			far := 0
			for _, c := range cs {
				if dist[c] < 0 {
					far = -1
					break
				}
				far = max(far, dist[c])
			}
			if far == d-1 {
				set = append(set, i)
			}
		}
		for _, i := range set {
			dist[i], changed = d, true
		}
		if !changed {
			// Nothing at this level; a later one may still come.
			for i := range r.pos {
				if dist[i] < 0 && val[i] != Draw {
					changed = true
					break
				}
			}
			if d > 10000 {
				panic("reference distances do not converge")
			}
		}
	}
	return dist
}
