package doubleswiss

import "slices"

// roles of the bracket's members in a pairing: the top member of a pair is
// its higher ranked player (3.6).
const (
	free int8 = iota
	top
	bottom
)

// search is the pairing of one bracket (3.6): the members in rank order
// (positions), the first nres residents, the rest upfloaters.
type search struct {
	s       *state
	b       []int // the members: indices in rank order
	nres    int
	role    []int8
	mate    []int // the member paired so far, -1
	allowed []bool
	ups     []int // upfloaters with an opponent [C8] counts
}

// bad reports a pair [C8] counts: an upfloater and a resident who floated
// in the previous round.
func (q *search) bad(x, y int) bool {
	if q.s.last {
		return false
	}
	ux, uy := x >= q.nres, y >= q.nres
	return (ux && !uy && q.s.pl[q.b[y]].Floated) || (uy && !ux && q.s.pl[q.b[x]].Floated)
}

// edge reports whether members x and y may still be paired: not met
// ([C1]), their roles kept, a [C8] pair only for an allowed upfloater.
func (q *search) edge(x, y int) bool {
	if q.s.met[q.b[x]][q.b[y]] {
		return false
	}
	hi, lo := min(x, y), max(x, y) // the higher ranked is the top member
	if q.role[hi] == bottom || q.role[lo] == top {
		return false
	}
	if q.bad(x, y) {
		up := max(x, y) // the upfloater ranks below the resident
		return q.allowed[up]
	}
	return true
}

// feasible reports whether the members not yet paired can be paired with
// their roles and at most a more [C8] pairs.
func (q *search) feasible(a int) bool {
	var act []int
	for x := range q.b {
		if q.mate[x] < 0 {
			act = append(act, x)
		}
	}
	var ups []int
	for _, u := range q.ups {
		if q.mate[u] < 0 {
			ups = append(ups, u)
		}
	}
	try := func() bool {
		return q.s.m.perfect(len(act), func(i, j int) bool { return q.edge(act[i], act[j]) })
	}
	if a >= len(ups) {
		for _, u := range ups {
			q.allowed[u] = true
		}
		ok := try()
		for _, u := range ups {
			q.allowed[u] = false
		}
		return ok
	}
	// A pairing with at most a [C8] pairs is one of the pairings where
	// only some a of the upfloaters may have them.
	return combos(ups, a, func(c []int) bool {
		for _, u := range c {
			q.allowed[u] = true
		}
		ok := try()
		for _, u := range c {
			q.allowed[u] = false
		}
		return ok
	})
}

// bracket pairs the members b (rank order, the first nres residents): the
// pairs (top, bottom) of the first identifier among the pairings with the
// fewest [C8] pairs; nil if there is none.
func (s *state) bracket(b []int, nres int) [][2]int {
	q := &search{s: s, b: b, nres: nres, role: make([]int8, len(b)), mate: make([]int, len(b)), allowed: make([]bool, len(b))}
	for x := range q.mate {
		q.mate[x] = -1
	}
	if !s.last {
		for u := nres; u < len(b); u++ {
			for x := range nres {
				if q.bad(x, u) {
					q.ups = append(q.ups, u)
					break
				}
			}
		}
	}
	allow := -1
	for a := 0; a <= len(q.ups); a++ {
		if q.feasible(a) {
			allow = a
			break
		}
	}
	if allow < 0 {
		return nil
	}
	// Positions by TPN: the identifier lists TPNs.
	order := make([]int, len(b))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return s.pl[b[x]].TPN - s.pl[b[y]].TPN })
	m := len(b) / 2
	var tops []int
	// The top members, ascending: every member before the next top (by
	// TPN) that is not a top is a bottom member.
	var chooseTop func(from int) bool
	chooseTop = func(from int) bool {
		if len(tops) == m {
			for _, x := range order[from:] {
				q.role[x] = bottom
			}
			return true
		}
		for oi := from; oi < len(order); oi++ {
			x := order[oi]
			q.role[x] = top
			if q.count(bottom) <= m && q.feasible(allow) {
				tops = append(tops, x)
				if chooseTop(oi + 1) {
					return true
				}
				tops = tops[:len(tops)-1]
			}
			q.role[x] = bottom // passed over: a bottom member
			if q.count(bottom) > m {
				break
			}
		}
		for _, x := range order[from:] {
			q.role[x] = free
		}
		return false
	}
	if !chooseTop(0) {
		return nil
	}
	// Their opponents, in the same order, each the first by TPN.
	var out [][2]int
	left := allow
	for _, t := range tops {
		done := false
		for _, y := range order {
			if q.role[y] != bottom || q.mate[y] >= 0 || y < t || q.s.met[b[t]][b[y]] {
				continue
			}
			used := 0
			if q.bad(t, y) {
				used = 1
			}
			if used > left {
				continue
			}
			q.mate[t], q.mate[y] = y, t
			if q.feasible(left - used) {
				left -= used
				out = append(out, [2]int{b[t], b[y]})
				done = true
				break
			}
			q.mate[t], q.mate[y] = -1, -1
		}
		if !done {
			return nil
		}
	}
	return out
}

func (q *search) count(r int8) int {
	n := 0
	for _, x := range q.role {
		if x == r {
			n++
		}
	}
	return n
}

// colours gives White and Black of the match of h (the higher ranked) and
// o (4.3), as indices.
func (s *state) colours(h, o int) (w, b int) {
	ph, po := s.pl[h], s.pl[o]
	give := func(c Colour) (int, int) {
		if c == White {
			return h, o
		}
		return o, h
	}
	had := func(p Player) (whites, n int, last Colour) {
		for _, c := range p.Colours {
			if c != None {
				n++
				last = c
				if c == White {
					whites++
				}
			}
		}
		return
	}
	wh, nh, lh := had(ph)
	wo, no, lo := had(po)
	initial := s.in.Initial
	if initial == None {
		initial = White
	}
	if nh == 0 && no == 0 {
		if ph.TPN%2 == 1 {
			return give(initial)
		}
		return give(initial.other())
	}
	if wh != wo {
		if wh < wo {
			return h, o
		}
		return o, h
	}
	// Both lists have one entry a round of the event, from the first.
	for k := min(len(ph.Colours), len(po.Colours)) - 1; k >= 0; k-- {
		if ch, co := ph.Colours[k], po.Colours[k]; ch != None && co != None && ch != co {
			return give(ch.other())
		}
	}
	if lh != None {
		return give(lh.other())
	}
	return give(lo)
}
