package toguz

import "math/bits"

// sowing is the whole effect of emptying one hole and sowing its stones on
// the board: delta, added to the board words, takes the stones out of the
// origin hole and puts one in each hole they fall in (as a wrapping sum it
// is exact, because no hole of the result underflows or overflows a byte).
type sowing struct {
	delta board
	last  uint8  // ring index of the hole that gets the last stone
	side  Player // the owner of that hole

	// The rest is for perft's make-move, which reads the last hole's count
	// from a byte copy of the board before the move instead of picking it
	// out of the words after it.

	// add is what the sowing adds to the last hole (it can be negative,
	// as a wrapping byte, when a long sowing ends in the emptied hole).
	add uint8
	// opp is 1 when the last hole is on the side of the emptied hole's
	// opponent, 0 when it is on the mover's own side.
	opp uint8
	// claimable is 1 when the last hole is on the opponent's side and is
	// not his last hole, where a tuzdik may be made (docs/rules.md §2.4).
	claimable uint8
	// mirror is the ring index of the mover's hole with the same number as
	// the last one: the opponent's tuzdik must not be there for a claim.
	mirror uint8
}

// sowTables[v][from][n] is the sowing of n stones from ring hole from under
// ruleset variant v = 2·(holes−1) + origin-sowing. It covers every count a
// byte can hold, so that a move is one lookup and three additions. It is
// computed once and never written again.
var sowTables = func() *[2 * MaxHoles][2 * MaxHoles][256]sowing {
	t := new([2 * MaxHoles][2 * MaxHoles][256]sowing)
	for holes := 1; holes <= MaxHoles; holes++ {
		ring := 2 * holes
		for origin := range 2 {
			v := sowVariant(uint8(holes), origin == 1)
			for from := range ring {
				var sown board // one stone per sown hole, so far
				next := from + 1
				for n := 1; n < 256; n++ {
					if n == 2 && origin == 1 {
						// With two or more stones the first goes back
						// into the emptied hole, and the rest follow it.
						sown = oneAt(from)
						next = from + 1
					}
					if next == ring {
						next = 0
					}
					sown = sown.plus(oneAt(next))
					last := next
					next++
					me, side, num := from/holes, last/holes, last%holes
					s := sowing{
						delta:  sown.plus(oneAt(from).times(-uint64(n))),
						last:   uint8(last),
						side:   Player(side),
						mirror: uint8(me*holes + num),
					}
					// Not delta's byte: its subtraction borrows across bytes.
					s.add = uint8(sown.get(s.last))
					if last == from {
						s.add -= uint8(n)
					}
					if side != me {
						s.opp = 1
						if num != holes-1 {
							s.claimable = 1
						}
					}
					t[v][from][n] = s
				}
			}
		}
	}
	return t
}()

// sowVariant returns the index of the sowing table of a ruleset.
func sowVariant(holes uint8, origin bool) uint8 {
	v := 2 * (holes - 1)
	if origin {
		v++
	}
	return v
}

// LegalMoves returns the moves the player to move may make: every hole on
// his side that holds a stone (a tuzdik holds none). It is empty when the
// game is over.
func (p Position) LegalMoves() MoveSet {
	if p.kazanWon() {
		return 0
	}
	return p.sideMoves(p.Turn())
}

// sideMoves returns pl's non-empty holes, whatever the kazans.
func (p Position) sideMoves(pl Player) MoveSet {
	nonEmpty := nonZeroBytes(p.board.w0) | nonZeroBytes(p.board.w1)<<8 | nonZeroBytes(p.board.w2)<<16
	holes := p.holes()
	return MoveSet(nonEmpty>>(uint(pl)*uint(holes)&63)) & (1<<holes - 1)
}

// nonZeroBytes returns a byte with bit i set when byte i of x is not zero.
func nonZeroBytes(x uint64) uint64 {
	const lo7, hi = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	// High bit of each byte set when the byte is not zero.
	nz := (((x & lo7) + lo7) | x) & hi
	// Gather the eight high bits into one byte.
	return (nz >> 7) * 0x0102040810204080 >> 56
}

// kazanWon reports whether a kazan holds more than half of the stones and the
// rules end the game there.
func (p Position) kazanWon() bool {
	if p.flags()&flagPlayOut != 0 {
		return false
	}
	half := p.holes() * p.stones() // half of the stones
	return uint8(p.meta) > half || uint8(p.meta>>8) > half
}

// Play returns the position after m, or an *IllegalMoveError that says why m
// cannot be played here.
func (p Position) Play(m Move) (Position, error) {
	if err := p.CheckMove(m); err != nil {
		return p, err
	}
	p.MakeMove(m)
	return p, nil
}

// CheckMove returns nil when m is legal, or an *IllegalMoveError that says why
// it is not.
func (p Position) CheckMove(m Move) error {
	switch {
	case p.IsOver():
		return &IllegalMoveError{Move: m, Reason: "the game is over", Err: ErrGameOver}
	case m < 1 || int(m) > p.Holes():
		return &IllegalMoveError{Move: m, Reason: "there is no such hole"}
	case p.IsTuzdik(p.Turn(), int(m)):
		return &IllegalMoveError{Move: m, Reason: "the hole is a tuzdik"}
	case p.Stones(p.Turn(), int(m)) == 0:
		return &IllegalMoveError{Move: m, Reason: "the hole is empty"}
	}
	return nil
}

// MakeMove plays m in place. m must be legal (see CheckMove); MakeMove does
// not check, so that search and perft pay nothing for it.
func (p *Position) MakeMove(m Move) { *p = p.After(m) }

// After returns the position after m, which must be legal (see CheckMove).
// It is MakeMove for copy-make: the position stays in registers.
func (p Position) After(m Move) Position {
	meta := p.meta
	me := uint8(meta>>metaTurn) & 1
	holes := uint8(meta >> metaHoles)
	from := me*holes + uint8(m) - 1
	b := p.board
	n := b.get(from)

	s := &sowTables[sowVariant(holes, meta&(uint64(flagOrigin)<<metaFlags) != 0)][from][uint8(n)]
	b = b.plus(s.delta)

	// Stones sown into a tuzdik go to its owner's kazan.
	if t := uint8(meta >> metaTuzdik); t != noTuzdik {
		meta += b.get(t) << metaKazan
		b = b.without(t)
	}
	if t := uint8(meta >> (metaTuzdik + 8)); t != noTuzdik {
		meta += b.get(t) << (metaKazan + 8)
		b = b.without(t)
	}

	last := s.last
	if uint8(s.side) != me && last != uint8(meta>>(metaTuzdik+8*uint(me))) {
		c := b.get(last)
		switch {
		case c&1 == 0:
			meta += c << (metaKazan + 8*uint(me))
			b = b.without(last)
		case c == 3 && canClaim(meta, me, last):
			sh := metaTuzdik + 8*uint(me)
			meta = meta&^(0xff<<sh) | uint64(last)<<sh
			meta += 3 << (metaKazan + 8*uint(me))
			b = b.without(last)
		}
	}
	return Position{board: b, meta: meta ^ 1<<metaTurn}
}

// canClaim reports whether me may make ring hole i, on the opponent's side,
// his tuzdik (docs/rules.md §2.4).
func canClaim(meta uint64, me, i uint8) bool {
	if meta&(uint64(flagTuzdik)<<metaFlags) == 0 || uint8(meta>>(metaTuzdik+8*uint(me))) != noTuzdik {
		return false
	}
	holes := uint8(meta >> metaHoles)
	num := i % holes // hole number - 1
	if num == holes-1 {
		return false // never the opponent's last hole
	}
	if t := uint8(meta >> (metaTuzdik + 8*uint(me^1))); t != noTuzdik && t%holes == num {
		return false // not the mirror of the opponent's tuzdik
	}
	return true
}

// IsOver reports whether the game has ended: a kazan holds more than half of
// the stones (unless the rules play out), or the player to move has no stone
// to move (atsyrau).
func (p Position) IsOver() bool {
	return p.kazanWon() || p.sideMoves(p.Turn()) == 0
}

// countBits is used by perft's counting shortcut.
func countBits(s MoveSet) uint64 { return uint64(bits.OnesCount16(uint16(s))) }
