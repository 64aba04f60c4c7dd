package tablebase

import (
	"fmt"

	"github.com/toguz/toguz"
)

// Tables holds the solved positions with up to MaxStones() stones on the
// board. It is immutable and safe for concurrent use.
type Tables struct {
	lay  *layout
	w    int64  // bytes per value: 1 (two nibbles) up to 15 stones, else 2
	data []byte // one value per position, indexed by layout
	dtm  dtmLayout
	dist []byte // distances to the end, indexed by dtm
}

// MaxStones returns the largest number of stones on the board the tables
// cover.
func (t *Tables) MaxStones() int { return t.lay.maxStones }

// Rules returns the ruleset the tables solve.
func (t *Tables) Rules() toguz.Rules { return t.lay.g.rules }

// value returns the two counts stored at table index i.
func (t *Tables) value(i int64) (mover, opponent int) {
	if t.w == 1 {
		v := t.data[i]
		return int(v & 15), int(v >> 4)
	}
	return int(t.data[2*i]), int(t.data[2*i+1])
}

// valueWidth is the bytes per value of a table of up to maxStones stones.
func valueWidth(maxStones int) int64 {
	if maxStones <= nibbleStones {
		return 1
	}
	return 2
}

// DistanceStones returns the largest number of stones on the board for
// which the tables hold distances to the end, −1 when they hold none.
func (t *Tables) DistanceStones() int { return t.dtm.stones }

// Positions returns the number of positions stored (each with White to
// move; a position with Black to move is looked up with the sides swapped).
func (t *Tables) Positions() int64 { return t.lay.size() }

// WDL is a game-theoretic result from the side to move's view.
type WDL int8

const (
	Loss WDL = -1
	Draw WDL = 0
	Win  WDL = 1
)

func (w WDL) String() string {
	switch w {
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	case Win:
		return "win"
	}
	return fmt.Sprintf("WDL(%d)", int8(w))
}

// Value returns the value stored for p's board: mover, the most stones the
// side to move can make sure to add to his kazan from now on (in finite
// time, whatever the opponent does), and opponent, the same for the
// opponent. ok is false when p is not in the tables: another ruleset than
// Rules(), or more than MaxStones() stones on the board. It does not allocate.
func (t *Tables) Value(p toguz.Position) (mover, opponent int, ok bool) {
	i, _, ok := t.find(&p)
	if !ok {
		return 0, 0, false
	}
	a, d := t.value(i)
	return a, d, true
}

// find returns the index of p in the tables and the stones on its board.
func (t *Tables) find(p *toguz.Position) (i int64, stones int, ok bool) {
	if p.Rules() != t.lay.g.rules {
		return 0, 0, false
	}
	f, k := frameOf(p)
	if k > t.lay.maxStones {
		return 0, 0, false
	}
	return t.lay.index(&f, k), k, true
}

// ProbeDTM returns the exact result of p under best play and the plies to
// the end of the game (the winner ending it as soon as he can, the loser
// holding out as long as he can; 0 for a draw or a game already over), and
// ok=false when p has more than DistanceStones() stones on the board or is
// not in the tables. It does not allocate.
func (t *Tables) ProbeDTM(p toguz.Position) (result WDL, plies int, ok bool) {
	i, k, ok := t.find(&p)
	if !ok || k > t.dtm.stones {
		return Draw, 0, false
	}
	me := p.Turn()
	r := t.lay.g.win - p.Kazan(me) // what the mover lacks
	switch {
	case r <= 0:
		return Win, 0, true
	case r >= k+2:
		// The opponent lacks k+2−r ≤ 0: he has won.
		return Loss, 0, true
	}
	a, d := t.value(i)
	switch {
	case a >= r:
		result = Win
	case d >= k+2-r:
		result = Loss
	default:
		return Draw, 0, true
	}
	return result, int(t.dist[t.slot(i, k, r)]), true
}

// ProbeWDL returns the exact result of p under best play, from the side to
// move's view, and ok=false when p is not in the tables (see Value). A game
// that can go on for ever without either kazan reaching the winning score
// (82 in the standard game) is a draw. It
// does not allocate.
//
// The side to move wins when he can make sure to collect the win − kazan
// stones he lacks, loses when the opponent can, and draws otherwise; both
// cannot hold, since they add up to more than the stones on the board
// (see the package documentation).
func (t *Tables) ProbeWDL(p toguz.Position) (WDL, bool) {
	mover, opponent, ok := t.Value(p)
	if !ok {
		return Draw, false
	}
	me := p.Turn()
	win := t.lay.g.win
	switch {
	case mover >= win-p.Kazan(me):
		return Win, true
	case opponent >= win-p.Kazan(me.Other()):
		return Loss, true
	}
	return Draw, true
}
