package teamswiss

import (
	"cmp"
	"slices"
)

// upfloaters forms the next bracket (3.3.2): the top-scoregroup of the
// teams not yet paired (3.2) and the set of upfloaters 3.5 chooses: of the
// sets with the fewest upfloaters ([C4]) that leave the bracket and the
// rest pairable ([C1], [C3]), those with the best scores ([C5]); of those,
// the fewest extra upfloaters the following scoregroup's bracket would
// need ([C6]), then the fewest upfloaters that floated in the previous
// round ([C7]); then the first in 3.5.4's order.
func (e *engine) upfloaters(rest []*team) (top, ups []*team) {
	ord := slices.Clone(rest)
	slices.SortFunc(ord, byScoreTPN)
	i := 0
	for i < len(ord) && ord[i].Primary == ord[0].Primary {
		i++
	}
	top, cands := ord[:i], ord[i:]
	groups := groupByScore(cands)
	for k := len(top) % 2; k <= len(cands); k += 2 {
		for _, prof := range profiles(groups, k) {
			var legal [][]*team
			e.eachSet(groups, prof, func(set []*team) bool {
				if e.splitLegal(rest, top, set) {
					legal = append(legal, slices.Clone(set))
				}
				return true
			})
			if len(legal) == 0 {
				continue
			}
			if len(legal) == 1 {
				return top, legal[0]
			}
			type keyed struct {
				set    []*team
				c6, c7 int
			}
			ks := make([]keyed, len(legal))
			for j, set := range legal {
				ks[j] = keyed{set, e.c6(rest, top, set, groups), e.c7(set)}
			}
			best := slices.MinFunc(ks, func(a, b keyed) int {
				if c := cmp.Compare(a.c6, b.c6); c != 0 {
					return c
				}
				if c := cmp.Compare(a.c7, b.c7); c != 0 {
					return c
				}
				return cmpSets(a.set, b.set)
			})
			return top, best.set
		}
	}
	return top, cands // every team below: the rest was checked legal
}

func byScoreTPN(a, b *team) int {
	if a.Primary != b.Primary {
		return b.Primary - a.Primary
	}
	return a.ID - b.ID
}

// cmpSets is 3.5.3 and 3.5.4: each set in descending score, then
// ascending TPN (the order eachSet builds them in), the sets in the
// lexicographic order of their TPNs.
func cmpSets(a, b []*team) int {
	for i := range min(len(a), len(b)) {
		if a[i].ID != b[i].ID {
			return a[i].ID - b[i].ID
		}
	}
	return len(a) - len(b)
}

func groupByScore(ts []*team) [][]*team {
	var gs [][]*team
	for _, t := range ts {
		if n := len(gs); n > 0 && gs[n-1][0].Primary == t.Primary {
			gs[n-1] = append(gs[n-1], t)
		} else {
			gs = append(gs, []*team{t})
		}
	}
	return gs
}

// profiles lists how many upfloaters each scoregroup below gives to a set
// of k, best first by [C5]: the upfloaters' scores taken in ascending
// order, the larger list first (the smaller score differences).
func profiles(groups [][]*team, k int) [][]int {
	var out [][]int
	cur := make([]int, len(groups))
	var rec func(g, left int)
	rec = func(g, left int) {
		if g == len(groups) {
			if left == 0 {
				out = append(out, slices.Clone(cur))
			}
			return
		}
		for c := min(left, len(groups[g])); c >= 0; c-- {
			cur[g] = c
			rec(g+1, left-c)
		}
		cur[g] = 0
	}
	rec(0, k)
	asc := func(p []int) []int {
		var v []int
		for g := len(p) - 1; g >= 0; g-- {
			for range p[g] {
				v = append(v, groups[g][0].Primary)
			}
		}
		return v
	}
	slices.SortStableFunc(out, func(a, b []int) int { return -slices.Compare(asc(a), asc(b)) })
	return out
}

// eachSet calls f with every set of the profile, in 3.5.4's order (the
// groups in descending score, each group's teams by TPN), until f returns
// false or the budget is spent.
func (e *engine) eachSet(groups [][]*team, prof []int, f func([]*team) bool) {
	set := make([]*team, 0, 8)
	var rec func(g, from, left int) bool
	rec = func(g, from, left int) bool {
		if left == 0 {
			g++
			for g < len(groups) && prof[g] == 0 {
				g++
			}
			if g == len(groups) {
				e.nodes++
				if e.nodes > e.budget {
					e.hit = true
					return false
				}
				return f(set)
			}
			return rec(g, 0, prof[g])
		}
		for i := from; i <= len(groups[g])-left; i++ {
			set = append(set, groups[g][i])
			ok := rec(g, i+1, left-1)
			set = set[:len(set)-1]
			if !ok {
				return false
			}
		}
		return true
	}
	rec(-1, 0, 0)
}

// splitLegal reports whether the bracket top+set and the teams left out of
// it can both be paired ([C1], [C3]).
func (e *engine) splitLegal(rest, top, set []*team) bool {
	in := make(map[*team]bool, len(top)+len(set))
	bracket := make([]*team, 0, len(top)+len(set))
	for _, t := range top {
		in[t] = true
		bracket = append(bracket, t)
	}
	for _, t := range set {
		in[t] = true
		bracket = append(bracket, t)
	}
	var out []*team
	for _, t := range rest {
		if !in[t] {
			out = append(out, t)
		}
	}
	return e.legal(bracket) && e.legal(out)
}

// c6 is [C6]: how many more upfloaters than its parity asks the following
// scoregroup's bracket would need ([C1], [C3] and [C4] there); 0 when the
// set empties that scoregroup.
func (e *engine) c6(rest, top, set []*team, groups [][]*team) int {
	if len(groups) == 0 {
		return 0
	}
	taken := map[*team]bool{}
	for _, t := range top {
		taken[t] = true
	}
	for _, t := range set {
		taken[t] = true
	}
	var next []*team
	left := 0
	for _, t := range rest {
		if !taken[t] {
			next = append(next, t)
			if t.Primary == groups[0][0].Primary {
				left++
			}
		}
	}
	if left == 0 {
		return 0
	}
	return e.minUpfloaters(next) - left%2
}

// minUpfloaters is the fewest upfloaters with which the top-scoregroup of
// rest (all of it pairable) can form a legal bracket.
func (e *engine) minUpfloaters(rest []*team) int {
	ord := slices.Clone(rest)
	slices.SortFunc(ord, byScoreTPN)
	i := 0
	for i < len(ord) && ord[i].Primary == ord[0].Primary {
		i++
	}
	top, cands := ord[:i], ord[i:]
	groups := groupByScore(cands)
	for k := len(top) % 2; k <= len(cands); k += 2 {
		found := false
		for _, prof := range profiles(groups, k) {
			e.eachSet(groups, prof, func(set []*team) bool {
				found = e.splitLegal(rest, top, set)
				return !found
			})
			if found {
				return k
			}
		}
	}
	return len(cands)
}

// c7 is [C7]: the upfloaters that were floaters in the previous round,
// none counted in the last two rounds.
func (e *engine) c7(set []*team) int {
	if e.lastTwo {
		return 0
	}
	n := 0
	for _, t := range set {
		if t.Floated {
			n++
		}
	}
	return n
}

// cost is a pairing's [C8], [C9] and [C10] counts, compared in that order.
type cost [3]int

func (c cost) add(d cost) cost { return cost{c[0] + d[0], c[1] + d[1], c[2] + d[2]} }

func (c cost) less(d cost) bool { return slices.Compare(c[:], d[:]) < 0 }

// pairCost is what one pair adds: [C8] a preference left unfulfilled (two
// teams that want the same colour), [C9] a strong one (Type B: both
// strong; a strong preference beats a mild one, 4.3.4), [C10] an
// upfloater's opponent that floated in the previous round.
func (e *engine) pairCost(a, b *team, up map[*team]bool) cost {
	var c cost
	if a.pref != None && a.pref == b.pref {
		c[0] = 1
		if e.in.Preferences == TypeB && a.strong && b.strong {
			c[1] = 1
		}
	}
	if !e.lastTwo {
		if up[a] && b.Floated {
			c[2]++
		}
		if up[b] && a.Floated {
			c[2]++
		}
	}
	return c
}

// bound is a lower bound of [C8] and [C9] over the teams not yet paired:
// of those that want one colour at most one a pair gets it.
func (e *engine) bound(ts []*team, free []bool) cost {
	var w, b, sw, sb, n int
	for i, t := range ts {
		if !free[i] {
			continue
		}
		n++
		switch t.pref {
		case White:
			w++
			if t.strong {
				sw++
			}
		case Black:
			b++
			if t.strong {
				sb++
			}
		}
	}
	h := n / 2
	c := cost{max(0, w-h) + max(0, b-h), 0, 0}
	if e.in.Preferences == TypeB {
		c[1] = max(0, sw-h) + max(0, sb-h)
	}
	return c
}

// pairBracket pairs a bracket by 3.6: a pairing's identifier is its top
// members' TPNs (the smaller of each pair) in ascending order, then their
// bottom members' in the same order; the first pairing in the
// identifier's lexicographic order that complies with [C1] and best with
// [C8], [C9] and [C10] is chosen. The search walks the identifiers in that
// order (tops first, then the bottoms), keeps a partial pairing only while
// a legal completion exists (a perfect matching under the roles decided),
// and cuts a branch whose bound cannot beat the best found: the first
// found among equals is kept, so the result is the rules' choice.
func (e *engine) pairBracket(ts []*team, ups []*team) [][2]*team {
	n := len(ts)
	m := n / 2
	up := map[*team]bool{}
	for _, t := range ups {
		up[t] = true
	}
	const (
		undecided = iota
		top
		bottom
	)
	role := make([]int, n)
	partner := make([]int, n)
	for i := range partner {
		partner[i] = -1
	}
	free := make([]bool, n)
	for i := range free {
		free[i] = true
	}
	var best [][2]*team
	var bestCost cost
	floor := e.bound(ts, free)
	nodes := 0
	done := false
	// completable checks that the free teams can be paired under the roles.
	completable := func() bool {
		var idx []int
		for i := range n {
			if partner[i] < 0 {
				idx = append(idx, i)
			}
		}
		return perfect(len(idx), func(a, b int) bool {
			x, y := idx[a], idx[b]
			return compatible(ts[x], ts[y]) && role[x] != bottom && role[y] != top
		})
	}
	var tops []int
	var bottoms func(j int, c cost)
	bottoms = func(j int, c cost) {
		if done {
			return
		}
		if j == m {
			if best == nil || c.less(bestCost) {
				best = best[:0]
				for _, t := range tops {
					best = append(best, [2]*team{ts[t], ts[partner[t]]})
				}
				bestCost = c
				if !floor.less(c) {
					done = true
				}
			}
			return
		}
		t := tops[j]
		for y := t + 1; y < n; y++ {
			if role[y] != bottom || partner[y] >= 0 || !compatible(ts[t], ts[y]) {
				continue
			}
			nc := c.add(e.pairCost(ts[t], ts[y], up))
			partner[t], partner[y] = y, t
			free[t], free[y] = false, false
			if best == nil || nc.add(e.bound(ts, free)).less(bestCost) {
				nodes++
				if nodes > e.budget && best != nil {
					e.hit = true
					done = true
				} else if completable() {
					bottoms(j+1, nc)
				}
			}
			partner[t], partner[y] = -1, -1
			free[t], free[y] = true, true
			if done {
				return
			}
		}
	}
	var roles func(i, tc, bc int)
	roles = func(i, tc, bc int) {
		if done {
			return
		}
		if i == n {
			bottoms(0, cost{})
			return
		}
		if best != nil && !floor.less(bestCost) {
			done = true
			return
		}
		if tc < m {
			role[i] = top
			tops = append(tops, i)
			nodes++
			if completable() {
				roles(i+1, tc+1, bc)
			}
			tops = tops[:len(tops)-1]
		}
		if bc < tc && !done {
			role[i] = bottom
			nodes++
			if completable() {
				roles(i+1, tc, bc+1)
			}
		}
		role[i] = undecided
		if nodes > e.budget && best != nil {
			e.hit = true
			done = true
		}
	}
	roles(0, 0, 0)
	return best
}
