package toguz

import "iter"

// Trail yields, in order, the side and number of the hole each stone of m
// falls in, m legal in p: the sowing stone by stone, as a board animates it.
// Its last hole is Landing's. A stone that falls in a tuzdik is yielded at
// the tuzdik (it goes on to the tuzdik owner's kazan).
func (p Position) Trail(m Move) iter.Seq2[Player, int] {
	return func(yield func(Player, int) bool) {
		h := p.Holes()
		ring := 2 * h
		from := int(p.Turn())*h + int(m) - 1
		n := p.Stones(p.Turn(), int(m))
		next := from + 1 // the sowing starts in the next hole
		if n > 1 && p.Rules().OriginSowing {
			next = from // the first stone goes back into the emptied hole
		}
		for range n {
			i := next % ring
			if !yield(Player(i/h), i%h+1) {
				return
			}
			next++
		}
	}
}
