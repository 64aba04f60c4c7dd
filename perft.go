package toguz

import (
	"encoding/binary"
	"math/bits"
	"runtime"
)

// Perft counts the move paths of the given length from p, making every move
// down to the last ply. A finished game counts as one leaf wherever it ends.
// It is the standard check of a move generator: docs/rules.md §7 lists the counts
// from the start.
func Perft(p Position, depth int) uint64 {
	if depth == 0 || p.IsOver() {
		return 1
	}
	r := newPerftRun(p)
	moves := p.sideMoves(p.Turn())
	var n, fold uint64
	switch {
	case depth > 1:
		n, fold = r.perft(p, moves, depth)
	case !p.hasTuzdik():
		n, fold = r.leaves(p, moves)
	default:
		n, fold = r.leavesTuzdik(p, moves)
	}
	// The fold of every leaf position is what makes the last ply's moves
	// whole: kept alive here, no compiler may leave any part of them out.
	runtime.KeepAlive(fold)
	return n
}

// The last ply is most of perft's work (nine leaves for each position
// before it), so perft makes its moves itself rather than calling After.
// What After works out for every move (the mover's sowing tables, his
// kazan, the tuzdiks) is worked out once per perft or once per position
// here, and the stones in the holes are read from a byte copy of the board,
// one load each, instead of being picked out of the words. The capture
// takes a mask rather than a branch, which the processor would guess wrong
// for every other move; only the rarer claim of a tuzdik is a branch. The
// positions made are After's, which TestMoverAfter checks move by move; the
// counts are docs/rules.md's, and the reference rules' (internal/refrules).

// perftRun is what perft's make-move needs that is the same for every
// position of one count.
type perftRun struct {
	side [2]perftSide
	// claims is 1 when the rules have tuzdiks.
	claims uint8
	// half is the largest kazan that does not end the game (255 when the
	// rules play out).
	half uint8
	// childShift[me] is the ring index of hole 1 of me's opponent, and
	// sideMask has a bit for each hole of a side: they pick a child
	// position's moves out of its non-empty holes.
	childShift [2]uint8
	sideMask   MoveSet
}

// perftSide is what a perftRun keeps of one player.
type perftSide struct {
	row   *[MaxHoles][256]sowing // the sowing tables of his holes 1..n
	kunit uint64                 // one stone in his kazan
	tunit uint64                 // 1 in the byte of his tuzdik
	base  uint8                  // ring index of his hole 1
}

func newPerftRun(p Position) *perftRun {
	r := &perftRun{claims: p.flags() & flagTuzdik, half: p.holes() * p.stones()}
	if p.flags()&flagPlayOut != 0 {
		r.half = 0xff
	}
	holes := p.holes()
	r.childShift = [2]uint8{holes, 0}
	r.sideMask = 1<<holes - 1
	v := sowVariant(holes, p.flags()&flagOrigin != 0)
	for me := range uint8(2) {
		r.side[me] = perftSide{
			row:   (*[MaxHoles][256]sowing)(sowTables[v][me*holes:]),
			kunit: 1 << (metaKazan + 8*uint(me)),
			tunit: 1 << (metaTuzdik + 8*uint(me)),
			base:  me * holes,
		}
	}
	return r
}

// hasTuzdik reports whether either player has a tuzdik.
func (p Position) hasTuzdik() bool {
	return p.meta>>metaTuzdik&0xffff != noTuzdik<<8|noTuzdik
}

// holeBytes is a board as bytes, ring hole i at a[i], and as words. It
// lives in memory (its bytes are indexed), so loops read the words as
// operands and keep the registers for the move being made.
type holeBytes struct {
	a [32]uint8
	b board
}

// set writes b. It writes in place: a copy of the array just written would
// read it back wider than it was written, which stalls.
func (hb *holeBytes) set(b board) {
	binary.LittleEndian.PutUint64(hb.a[0:], b.w0)
	binary.LittleEndian.PutUint64(hb.a[8:], b.w1)
	binary.LittleEndian.PutUint64(hb.a[16:], b.w2)
	hb.b = b
}

// tuzdiks is what make needs of a position's tuzdiks.
type tuzdiks struct {
	keep   board  // all ones but in the tuzdiks' bytes
	tw, tb picker // White's and Black's tuzdik
	// mayClaim is 1 when the mover may still make a tuzdik: the rules
	// have them and he has none.
	mayClaim uint8
	mine     uint8 // ring index of the mover's tuzdik, or noTuzdik
	theirs   uint8 // ring index of the opponent's tuzdik, or noTuzdik
}

func (r *perftRun) tuzdiks(p Position) tuzdiks {
	me := p.Turn()
	tw, tb := p.tuzdikRing(White), p.tuzdikRing(Black)
	m := board{^uint64(0), ^uint64(0), ^uint64(0)}
	t := tuzdiks{keep: m.without2(tw, tb), tw: newPicker(tw), tb: newPicker(tb),
		mine: p.tuzdikRing(me), theirs: p.tuzdikRing(me.Other())}
	if t.mine == noTuzdik {
		t.mayClaim = r.claims
	}
	return t
}

// picker reads one hole of boards: its word (0, 1 or 2) and shift.
type picker struct {
	word uint8
	sh   uint8
}

func newPicker(i uint8) picker {
	if i == noTuzdik {
		return picker{word: 3} // reads 0
	}
	return picker{word: i / 8, sh: 8 * (i % 8)}
}

// get returns the stones in the hole. Its branch goes the same way for
// every move of a position, which the processor learns at once.
func (pk picker) get(b board) uint64 {
	var x uint64
	switch pk.word {
	case 0:
		x = b.w0
	case 1:
		x = b.w1
	case 2:
		x = b.w2
	}
	return x >> (pk.sh & 63) & 0xff
}

// make returns the position after the move from hole h+1 of p, whose
// bytes are a and tuzdiks t, as After does.
func (r *perftRun) make(p Position, a *[32]uint8, t *tuzdiks, h uint8) Position {
	sd := &r.side[p.meta>>metaTurn&1]
	s := &sd.row[h][a[(sd.base+h)&31]]
	b := p.board.plus(s.delta)
	// Stones sown into a tuzdik go to its owner's kazan; a last stone in
	// the mover's own tuzdik then finds it empty.
	cm := p.meta ^ 1<<metaTurn + t.tw.get(b)<<metaKazan + t.tb.get(b)<<(metaKazan+8)
	b = b.and(t.keep)
	c := uint64(a[s.last&31]+s.add) & -b2u(s.last != t.mine)
	// take is all ones when the last stone takes the hole's stones: an
	// even count on the opponent's side, or a new tuzdik (rare enough for
	// a branch).
	take := -(uint64(s.opp) &^ c & 1)
	if c == 3 && s.claimable&t.mayClaim != 0 && t.theirs != s.mirror {
		take = ^uint64(0)
		cm ^= uint64(s.last^noTuzdik) * sd.tunit
	}
	cm += (c & take) * sd.kunit
	return Position{board: b.keepIf(s.last, take), meta: cm}
}

// perft counts from a position that is not over, whose legal moves are
// given, depth ≥ 2. It also returns the exclusive or of every leaf
// position's words, so that each leaf is made in full although only its
// count is wanted.
func (r *perftRun) perft(p Position, moves MoveSet, depth int) (n, fold uint64) {
	var hb holeBytes
	hb.set(p.board)
	a := &hb.a
	t := r.tuzdiks(p)
	for moves != 0 {
		h := uint8(bits.TrailingZeros16(uint16(moves))) // hole number - 1
		moves &= moves - 1
		child := r.make(p, a, &t, h)
		// The test of IsOver, keeping the moves for the child's count
		// (sideMoves, written out: it is too big to be inlined).
		nonEmpty := nonZeroBytes(child.board.w0) | nonZeroBytes(child.board.w1)<<8 | nonZeroBytes(child.board.w2)<<16
		next := MoveSet(nonEmpty>>(r.childShift[p.meta>>metaTurn&1]&63)) & r.sideMask
		if next == 0 || uint8(child.meta) > r.half || uint8(child.meta>>8) > r.half {
			n++
			fold ^= child.board.w0 ^ child.board.w1 ^ child.board.w2 ^ child.meta
			continue
		}
		var cn, cf uint64
		switch {
		case depth > 2:
			cn, cf = r.perft(child, next, depth-1)
		case !child.hasTuzdik():
			cn, cf = r.leaves(child, next)
		default:
			cn, cf = r.leavesTuzdik(child, next)
		}
		n += cn
		fold ^= cf
	}
	return n, fold
}

// leaves makes every move in moves from p, which has no tuzdik, and counts
// them. It is make without the tuzdiks' steps. The board is read from a
// alone, so that the registers are left for the move being made.
func (r *perftRun) leaves(p Position, moves MoveSet) (n, fold uint64) {
	var hb holeBytes
	hb.set(p.board)
	a := &hb.a
	sd := &r.side[p.meta>>metaTurn&1]
	meta := p.meta ^ 1<<metaTurn
	// With no tuzdik on the board the mover may claim one wherever the
	// table allows, if the rules have tuzdiks.
	mayClaim := r.claims
	for moves != 0 {
		h := uint8(bits.TrailingZeros16(uint16(moves))) // hole number - 1
		moves &= moves - 1
		s := &sd.row[h][a[(sd.base+h)&31]]
		c := uint64(a[s.last&31] + s.add) // stones in the last hole now
		take := -(uint64(s.opp) &^ c & 1)
		cm := meta
		// A new tuzdik is rare enough for a branch.
		if c == 3 && s.claimable&mayClaim != 0 {
			take = ^uint64(0)
			cm ^= uint64(s.last^noTuzdik) * sd.tunit
		}
		cm += (c & take) * sd.kunit
		b := hb.b.plus(s.delta).keepIf(s.last, take)
		n++
		fold ^= b.w0 ^ b.w1 ^ b.w2 ^ cm
	}
	return n, fold
}

// leavesTuzdik is leaves for a position with a tuzdik: make, inlined.
func (r *perftRun) leavesTuzdik(p Position, moves MoveSet) (n, fold uint64) {
	var hb holeBytes
	hb.set(p.board)
	a := &hb.a
	t := r.tuzdiks(p)
	sd := &r.side[p.meta>>metaTurn&1]
	meta := p.meta ^ 1<<metaTurn
	for moves != 0 {
		h := uint8(bits.TrailingZeros16(uint16(moves))) // hole number - 1
		moves &= moves - 1
		s := &sd.row[h][a[(sd.base+h)&31]]
		b := hb.b.plus(s.delta)
		cm := meta + t.tw.get(b)<<metaKazan + t.tb.get(b)<<(metaKazan+8)
		b = b.and(t.keep)
		c := uint64(a[s.last&31]+s.add) & -b2u(s.last != t.mine)
		take := -(uint64(s.opp) &^ c & 1)
		if c == 3 && s.claimable&t.mayClaim != 0 && t.theirs != s.mirror {
			take = ^uint64(0)
			cm ^= uint64(s.last^noTuzdik) * sd.tunit
		}
		cm += (c & take) * sd.kunit
		b = b.keepIf(s.last, take)
		n++
		fold ^= b.w0 ^ b.w1 ^ b.w2 ^ cm
	}
	return n, fold
}

// b2u is 1 for true and 0 for false, without a branch.
func b2u(x bool) uint64 {
	if x {
		return 1
	}
	return 0
}

// PerftBulk returns the same count as Perft but does not make the moves of
// the last ply: each of them is a leaf whether or not it ends the game.
func PerftBulk(p Position, depth int) uint64 {
	if depth == 0 || p.IsOver() {
		return 1
	}
	return perftBulk(p, depth)
}

func perftBulk(p Position, depth int) uint64 {
	moves := p.sideMoves(p.Turn())
	if depth == 1 {
		return countBits(moves)
	}
	var n uint64
	for moves != 0 {
		m := moves.First()
		moves &= moves - 1
		child := p.After(m)
		if child.IsOver() {
			n++
		} else {
			n += perftBulk(child, depth-1)
		}
	}
	return n
}
