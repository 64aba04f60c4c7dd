package tablebase

import "github.com/toguz/toguz"

// frame is the board of a standard position seen from the side to move: ring
// indices 0..8 are the mover's holes 1..9 and 9..17 the opponent's, and the
// tuzdiks are as in tuzdiks. Kazans are left out: no move depends on them
// (only the end of the game does, and the values account for that).
type frame struct {
	b [ringSize]int8
	t tuzdiks
}

// frameOf returns p seen from its side to move and the stones on its board.
func frameOf(p *toguz.Position) (f frame, stones int) {
	me := p.Turn()
	opp := me.Other()
	for h := 1; h <= 9; h++ {
		a, b := p.Stones(me, h), p.Stones(opp, h)
		f.b[h-1], f.b[h+8] = int8(a), int8(b)
		stones += a + b
	}
	f.t = tuzdiks{-1, -1}
	if t := p.Tuzdik(me); t != 0 {
		f.t.my = int8(t + 8)
	}
	if t := p.Tuzdik(opp); t != 0 {
		f.t.opp = int8(t - 1)
	}
	return f, stones
}

// moves returns the mover's legal moves as ring indices 0..8, bit i for
// index i: every non-empty hole (a tuzdik holds no stone).
func (f *frame) moves() uint16 {
	var s uint16
	for i := range 9 {
		if f.b[i] > 0 {
			s |= 1 << i
		}
	}
	return s
}

// play plays the move from ring index i (a legal move) by RULES.md §2 and
// returns the position after it seen from the new side to move, with the
// stones the move put into the mover's and the opponent's kazans.
func (f *frame) play(i int) (child frame, gainMe, gainOpp int) {
	b := f.b
	n := int(b[i])
	b[i] = 0
	start := i // two stones or more: the first goes back into the hole
	if n == 1 {
		start = i + 1
	}
	last := 0
	for s := range n {
		last = (start + s) % ringSize
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
	if last >= 9 && last != int(my) {
		switch c := b[last]; {
		case c%2 == 0:
			gainMe += int(c)
			b[last] = 0
		case c == 3 && my < 0 && last != 17 && int(opp) != last-9:
			my = int8(last)
			gainMe += 3
			b[last] = 0
		}
	}
	// Turn the board: the opponent moves next.
	copy(child.b[:9], b[9:])
	copy(child.b[9:], b[:9])
	child.t = tuzdiks{-1, -1}
	if opp >= 0 {
		child.t.my = opp + 9
	}
	if my >= 0 {
		child.t.opp = my - 9
	}
	return child, gainMe, gainOpp
}

// claimable reports whether a last stone making ring hole last (on the
// opponent's side) hold 3 would make it the mover's tuzdik under t.
func (t tuzdiks) claimable(last int) bool {
	return t.my < 0 && last != 17 && int(t.opp) != last-9
}

// quiet reports whether a move whose last stone fell on ring hole last,
// which now holds c stones, captured nothing there (a tuzdik is never sown
// into by a quiet move, so last is none).
func (t tuzdiks) quiet(last int, c int8) bool {
	return last < 9 || c%2 == 1 && !(c == 3 && t.claimable(last))
}

// parents calls yield with every position, seen from the side to move, from
// which a quiet move leads to f: a move that captures nothing and sows into
// no tuzdik, so that the board keeps its stones and the tuzdiks stay. These
// are the only moves between positions with the same stones on the board.
// The parent passed to yield is reused between calls.
func (f *frame) parents(yield func(parent *frame)) {
	var p frame
	// Turn the board back: the parent's mover is f's opponent.
	copy(p.b[:9], f.b[9:])
	copy(p.b[9:], f.b[:9])
	p.t = tuzdiks{-1, -1}
	if f.t.opp >= 0 {
		p.t.my = f.t.opp + 9
	}
	if f.t.my >= 0 {
		p.t.opp = f.t.my - 9
	}
	after := p.b
	isTuzdik := func(h int) bool { return h == int(p.t.my) || h == int(p.t.opp) }
	for i := range 9 {
		if isTuzdik(i) {
			continue
		}
		if after[i] == 0 {
			// One stone, moved to the next hole.
			next := i + 1
			if after[next] == 0 || isTuzdik(next) || !p.t.quiet(next, after[next]) {
				continue
			}
			p.b = after
			p.b[i], p.b[next] = 1, after[next]-1
			yield(&p)
			continue
		}
		if after[i] != 1 {
			// A hole emptied by n ≥ 2 stones gets exactly one back (n < 18).
			continue
		}
		// n ≥ 2 stones sown into i, i+1, …, i+n−1: every hole of the run
		// holds a stone and none is a tuzdik.
		p.b = after
		p.b[i] = 0
		for n := 2; n < ringSize; n++ {
			last := (i + n - 1) % ringSize
			if after[last] == 0 || isTuzdik(last) {
				break
			}
			p.b[last]--
			if p.t.quiet(last, after[last]) {
				p.b[i] = int8(n)
				yield(&p)
				p.b[i] = 0
			}
		}
	}
}
