package tablebase

import "github.com/toguz/toguz"

// frame is the board of a position seen from the side to move: ring indices
// 0..h−1 are the mover's holes 1..h and h..2h−1 the opponent's, and the
// tuzdiks are as in tuzdiks. Kazans are left out: no move depends on them
// (only the end of the game does, and the values account for that).
type frame struct {
	b  [maxRing]int8
	t  tuzdiks
	h  int8 // holes a side
	tz bool // whether the ruleset has tuzdiks
}

// frameOf returns p seen from its side to move and the stones on its board.
func frameOf(p *toguz.Position) (f frame, stones int) {
	me := p.Turn()
	opp := me.Other()
	h := p.Holes()
	f.h, f.tz = int8(h), p.Rules().Tuzdik
	for i := 1; i <= h; i++ {
		a, b := p.Stones(me, i), p.Stones(opp, i)
		f.b[i-1], f.b[i-1+h] = int8(a), int8(b)
		stones += a + b
	}
	f.t = tuzdiks{-1, -1}
	if t := p.Tuzdik(me); t != 0 {
		f.t.my = int8(t + h - 1)
	}
	if t := p.Tuzdik(opp); t != 0 {
		f.t.opp = int8(t - 1)
	}
	return f, stones
}

// moves returns the mover's legal moves as ring indices 0..h−1, bit i for
// index i: every non-empty hole (a tuzdik holds no stone).
func (f *frame) moves() uint16 {
	var s uint16
	for i := range f.h {
		if f.b[i] > 0 {
			s |= 1 << i
		}
	}
	return s
}

// play plays the move from ring index i (a legal move) by docs/rules.md §2 and
// returns the position after it seen from the new side to move, with the
// stones the move put into the mover's and the opponent's kazans.
func (f *frame) play(i int) (child frame, gainMe, gainOpp int) {
	b := f.b
	h, ring := int(f.h), 2*int(f.h)
	n := int(b[i])
	b[i] = 0
	start := i // two stones or more: the first goes back into the hole
	if n == 1 {
		start = i + 1
	}
	last := 0
	for s := range n {
		last = (start + s) % ring
		b[last]++
	}
	my, opp := f.t.my, f.t.opp
	// A stone sown into a tuzdik goes to its owner's kazan.
	if my >= 0 {
		gainMe += int(b[my])
		b[my] = 0
	}
	if opp >= 0 {
		gainOpp += int(b[opp])
		b[opp] = 0
	}
	if last >= h && last != int(my) {
		switch c := b[last]; {
		case c%2 == 0:
			gainMe += int(c)
			b[last] = 0
		case c == 3 && f.claimable(last):
			my = int8(last)
			gainMe += 3
			b[last] = 0
		}
	}
	// Turn the board: the opponent moves next.
	copy(child.b[:h], b[h:ring])
	copy(child.b[h:ring], b[:h])
	child.h, child.tz = f.h, f.tz
	child.t = tuzdiks{-1, -1}
	if opp >= 0 {
		child.t.my = opp + int8(h)
	}
	if my >= 0 {
		child.t.opp = my - int8(h)
	}
	return child, gainMe, gainOpp
}

// claimable reports whether a last stone making ring hole last (on the
// opponent's side) hold 3 would make it f's mover's tuzdik.
func (f *frame) claimable(last int) bool {
	h := int(f.h)
	return f.tz && f.t.my < 0 && last != 2*h-1 && int(f.t.opp) != last-h
}

// quiet reports whether a move of f's mover whose last stone fell on ring
// hole last, which now holds c stones, captured nothing there (a tuzdik is
// never sown into by a quiet move, so last is none).
func (f *frame) quiet(last int, c int8) bool {
	return last < int(f.h) || c%2 == 1 && !(c == 3 && f.claimable(last))
}

// parents calls yield with every position, seen from the side to move, from
// which a quiet move leads to f: a move that captures nothing and sows into
// no tuzdik, so that the board keeps its stones and the tuzdiks stay. These
// are the only moves between positions with the same stones on the board.
// The parent passed to yield is reused between calls.
func (f *frame) parents(yield func(parent *frame)) {
	h, ring := int(f.h), 2*int(f.h)
	var p frame
	p.h, p.tz = f.h, f.tz
	// Turn the board back: the parent's mover is f's opponent.
	copy(p.b[:h], f.b[h:ring])
	copy(p.b[h:ring], f.b[:h])
	p.t = f.t.turned(h)
	after := p.b
	isTuzdik := func(i int) bool { return i == int(p.t.my) || i == int(p.t.opp) }
	for i := range h {
		if isTuzdik(i) {
			continue
		}
		switch c := after[i]; {
		case c == 0:
			// One stone, moved to the next hole.
			next := i + 1
			if after[next] == 0 || isTuzdik(next) || !p.quiet(next, after[next]) {
				continue
			}
			p.b = after
			p.b[i], p.b[next] = 1, after[next]-1
			yield(&p)
		case c == 1:
			// n = 2..ring stones sown into i, i+1, …, i+n−1, one each:
			// every hole of the run holds a stone and none is a tuzdik.
			p.b = after
			p.b[i] = 0
			for n := 2; n <= ring; n++ {
				last := (i + n - 1) % ring
				if after[last] == 0 || isTuzdik(last) {
					break
				}
				p.b[last]--
				if p.quiet(last, after[last]) {
					p.b[i] = int8(n)
					yield(&p)
					p.b[i] = 0
				}
			}
		case p.t.my < 0 && p.t.opp < 0:
			// More than ring stones go round the board, through every
			// hole (so no tuzdik may exist): hole i+j gets q, one more
			// for j < n mod ring, and the emptied hole i gets back c.
			for n := (int(c)-1)*ring + 1; n <= int(c)*ring; n++ {
				q, rem := n/ring, n%ring
				p.b = after
				ok := true
				for j := range ring {
					at := (i + j) % ring
					if p.b[at] -= int8(q); j < rem {
						p.b[at]--
					}
					ok = ok && p.b[at] >= 0
				}
				last := (i + n - 1) % ring
				if !ok || p.b[i] != 0 || !p.quiet(last, after[last]) {
					continue
				}
				p.b[i] = int8(n)
				yield(&p)
			}
		}
	}
}

// turned returns the tuzdiks seen from the other side.
func (t tuzdiks) turned(h int) tuzdiks {
	u := tuzdiks{-1, -1}
	if t.opp >= 0 {
		u.my = t.opp + int8(h)
	}
	if t.my >= 0 {
		u.opp = t.my - int8(h)
	}
	return u
}
