package toguz

import "fmt"

// MaxHoles is the largest number of holes per side a ruleset may have.
const MaxHoles = 9

// Player is one of the two sides. White (bastaushy, south) moves first.
type Player uint8

const (
	White Player = 0
	Black Player = 1
)

// Other returns the opponent.
func (p Player) Other() Player { return p ^ 1 }

func (p Player) String() string {
	switch p {
	case White:
		return "white"
	case Black:
		return "black"
	}
	return fmt.Sprintf("Player(%d)", uint8(p))
}

// noTuzdik marks a player without a tuzdik.
const noTuzdik = 0xff

// ruleFlags pack the boolean parameters of Rules inside a Position.
const (
	flagTuzdik uint8 = 1 << iota
	flagOrigin
	flagPlayOut
)

// Position is the state of a game between moves: the stones in every hole,
// the two kazans, the tuzdiks, the player to move and the rules. It is a
// small comparable value (32 bytes); copying it is the way to keep an
// earlier state.
//
// Holes are kept as a ring, the order in which stones are sown: White's holes
// 1..n are ring indices 0..n-1, Black's holes 1..n are n..2n-1. Ring hole i
// is byte i%8 of board[i/8]. Everything is kept in whole words so that
// MakeMove works in registers and writes each word once: a byte store
// followed by a wider load of the same bytes stalls the processor.
//
// The methods that read a position have value receivers, so that they work
// on any Position value (StartPosition().LegalMoves()); only the ones that
// change it in place, MakeMove and the unexported setters, have pointer
// receivers. Copying 32 bytes costs no more than a pointer once the small
// methods are inlined: perft and the engine's search run at the same speed
// either way.
//
// Invariants (checked by Setup.Position, kept by MakeMove):
//   - the stones on the board and in the kazans add up to Rules.Total;
//   - a tuzdik hole holds no stones: a stone sown into it goes straight to its
//     owner's kazan;
//   - board bytes past the ring are zero.
type Position struct {
	board board
	// meta packs, from the low byte up: White's kazan, Black's kazan,
	// White's tuzdik and Black's tuzdik (ring indices, or noTuzdik), the
	// player to move, holes per side, stones per hole, rule flags.
	meta uint64
}

const (
	metaKazan  = 0
	metaTuzdik = 16
	metaTurn   = 32
	metaHoles  = 40
	metaStones = 48
	metaFlags  = 56
)

// NewPosition returns the starting position of a game under r.
func NewPosition(r Rules) (Position, error) {
	if err := r.Validate(); err != nil {
		return Position{}, err
	}
	p := emptyPosition(r)
	for i := range 2 * r.Holes {
		p.setHole(i, r.Stones)
	}
	return p, nil
}

// StartPosition returns the starting position of the standard game.
func StartPosition() Position {
	p, _ := NewPosition(Standard())
	return p
}

// emptyPosition returns a position under r with no stones anywhere, White
// to move.
func emptyPosition(r Rules) Position {
	var flags uint64
	if r.Tuzdik {
		flags |= uint64(flagTuzdik)
	}
	if r.OriginSowing {
		flags |= uint64(flagOrigin)
	}
	if r.PlayOut {
		flags |= uint64(flagPlayOut)
	}
	return Position{meta: noTuzdik<<metaTuzdik | noTuzdik<<(metaTuzdik+8) |
		uint64(r.Holes)<<metaHoles | uint64(r.Stones)<<metaStones | flags<<metaFlags}
}

func (p Position) holes() uint8  { return uint8(p.meta >> metaHoles) }
func (p Position) stones() uint8 { return uint8(p.meta >> metaStones) }
func (p Position) flags() uint8  { return uint8(p.meta >> metaFlags) }

// hole returns the stones in ring hole i.
func (p Position) hole(i int) int { return int(p.board.get(uint8(i))) }

// setHole puts n stones in ring hole i.
func (p *Position) setHole(i, n int) { p.board = p.board.with(uint8(i), uint64(n)) }

// board holds one byte per ring hole: hole i is byte i%8 of word i/8. It is
// a struct of words rather than an array so that it stays in registers.
type board struct{ w0, w1, w2 uint64 }

// byteMask[i] has all bits of ring hole i's byte set. It has an entry for
// every uint8 so that indexing it needs no bounds check.
var byteMask = func() (m [256]board) {
	for i := range 2 * MaxHoles {
		m[i] = oneAt(i).times(0xff)
	}
	return m
}()

// oneAt returns a board with one stone in ring hole i.
func oneAt(i int) board {
	var b board
	v := uint64(1) << (8 * (i % 8))
	switch i / 8 {
	case 0:
		b.w0 = v
	case 1:
		b.w1 = v
	default:
		b.w2 = v
	}
	return b
}

func (b board) plus(o board) board   { return board{b.w0 + o.w0, b.w1 + o.w1, b.w2 + o.w2} }
func (b board) times(k uint64) board { return board{b.w0 * k, b.w1 * k, b.w2 * k} }

// get returns the stones in ring hole i. The word is chosen by comparisons
// that the compiler turns into conditional moves.
func (b board) get(i uint8) uint64 {
	x := b.w0
	if i >= 8 {
		x = b.w1
	}
	if i >= 16 {
		x = b.w2
	}
	return x >> (8 * (i & 7)) & 0xff
}

func (b board) without(i uint8) board {
	m := byteMask[i]
	return board{b.w0 &^ m.w0, b.w1 &^ m.w1, b.w2 &^ m.w2}
}
func (b board) with(i uint8, n uint64) board { return b.without(i).plus(oneAt(int(i)).times(n)) }

// tuzdikRing returns the ring index of pl's tuzdik, or noTuzdik.
func (p Position) tuzdikRing(pl Player) uint8 { return uint8(p.meta >> (metaTuzdik + 8*uint(pl))) }

func (p *Position) setTuzdikRing(pl Player, i uint8) {
	sh := metaTuzdik + 8*uint(pl)
	p.meta = p.meta&^(0xff<<sh) | uint64(i)<<sh
}

func (p *Position) setKazan(pl Player, n int) {
	sh := metaKazan + 8*uint(pl)
	p.meta = p.meta&^(0xff<<sh) | uint64(n)<<sh
}

func (p *Position) setTurn(pl Player) {
	p.meta = p.meta&^(0xff<<metaTurn) | uint64(pl)<<metaTurn
}

// Rules returns the rules the position is played under.
func (p Position) Rules() Rules {
	f := p.flags()
	return Rules{
		Holes:        int(p.holes()),
		Stones:       int(p.stones()),
		Tuzdik:       f&flagTuzdik != 0,
		OriginSowing: f&flagOrigin != 0,
		PlayOut:      f&flagPlayOut != 0,
	}
}

// Turn returns the player to move.
func (p Position) Turn() Player { return Player(p.meta >> metaTurn & 1) }

// Holes returns the number of holes per side.
func (p Position) Holes() int { return int(p.holes()) }

// Stones returns the number of stones in hole 1..Holes() of player pl.
func (p Position) Stones(pl Player, hole int) int { return p.hole(p.ring(pl, hole)) }

// Kazan returns the stones in pl's kazan.
func (p Position) Kazan(pl Player) int { return int(uint8(p.meta >> (metaKazan + 8*uint(pl)))) }

// Tuzdik returns the number (1..Holes()) of the opponent's hole that pl owns
// as his tuzdik, or 0 when pl has none.
func (p Position) Tuzdik(pl Player) int {
	t := p.tuzdikRing(pl)
	if t == noTuzdik {
		return 0
	}
	return int(t%p.holes()) + 1
}

// IsTuzdik reports whether hole 1..Holes() on pl's side is a tuzdik (owned
// by pl's opponent).
func (p Position) IsTuzdik(pl Player, hole int) bool {
	return int(p.tuzdikRing(pl.Other())) == p.ring(pl, hole)
}

// OnBoard returns the stones left in pl's holes.
func (p Position) OnBoard(pl Player) int {
	n := 0
	for h := 1; h <= p.Holes(); h++ {
		n += p.Stones(pl, h)
	}
	return n
}

// ring returns the ring index of pl's hole 1..n.
func (p Position) ring(pl Player, hole int) int {
	return int(pl)*p.Holes() + hole - 1
}

// without2 empties ring holes i and j; an index past the ring changes
// nothing.
func (b board) without2(i, j uint8) board {
	m, n := byteMask[i], byteMask[j]
	return board{b.w0 &^ (m.w0 | n.w0), b.w1 &^ (m.w1 | n.w1), b.w2 &^ (m.w2 | n.w2)}
}

func (b board) and(o board) board { return board{b.w0 & o.w0, b.w1 & o.w1, b.w2 & o.w2} }

// keepMask[i] is byteMask[i] inverted: all ones but in ring hole i.
var keepMask = func() (m [256]board) {
	for i := range m {
		b := byteMask[i]
		m[i] = board{^b.w0, ^b.w1, ^b.w2}
	}
	return m
}()

// keepIf empties ring hole i where mask is all ones and changes nothing
// where it is zero.
func (b board) keepIf(i uint8, mask uint64) board {
	m, keep := keepMask[i], ^mask
	return board{b.w0 & (m.w0 | keep), b.w1 & (m.w1 | keep), b.w2 & (m.w2 | keep)}
}
