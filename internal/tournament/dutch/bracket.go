package dutch

import (
	"fmt"
	"slices"
	"sort"
)

// The quality of a candidate is one vector of integers compared
// lexicographically, smaller being better; its segments follow the
// criteria's order of priority. Lists of score differences (the PSD of C6
// and C8, and C18-C21) are kept as histograms from the largest difference
// down: comparing those is comparing the lists sorted in descending order.
//
//	[C6 histogram][C7: -pairs][C8 histogram][C9][C10 … C17][C18 … C21 histograms]
func (e *engine) vlen() int         { return 6*e.k + 10 }
func (e *engine) h6(sd int) int     { return e.k - 1 - sd }
func (e *engine) o7() int           { return e.k }
func (e *engine) h8(sd int) int     { return e.k + 1 + e.k - 1 - sd }
func (e *engine) o9() int           { return 2*e.k + 1 }
func (e *engine) oc(c int) int      { return 2*e.k + 2 + c - 10 } // C10 … C17
func (e *engine) h18(c, sd int) int { return 2*e.k + 10 + (c-18)*e.k + e.k - 1 - sd }

// pruned reports whether a node whose lower bound is lb cannot beat the best
// candidate so far: a later candidate only wins by being strictly better.
func (c *bctx) pruned(lb []int) bool {
	if c.e.exhaustive || c.best == nil {
		return false
	}
	if !c.bestOrdered { // the dive's candidate: only worse nodes go
		return less(c.best, lb)
	}
	return !less(lb, c.best)
}

func less(a, b []int) bool {
	if b == nil {
		return true
	}
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// bctx is the pairing of one bracket (1.3.2): its moved-down players and
// residents, and the players of the lower scoregroups still to be paired.
type bctx struct {
	e         *engine
	mdps, res []int
	lower     []int
	last      bool  // the last bracket: everyone is paired but for the bye
	c7        bool  // C7/C8 apply: the bracket is neither the PPB nor the last
	nextRes   []int // residents of the next bracket (C7, C8)
	collapsed bool
	low       int // lowest score in the bracket (PSD, C6)

	cur         []int
	pairs       [][2]int
	limbo       []int
	best        []int
	bestOrdered bool // best was found by the search in the rules' order
	bestPairs   [][2]int
	bestDown    []int
	nodes       int
	budget      int
	cut         bool
	memo7       map[string][]int
	memoNode    map[string]nodeBound
	mmNext      int // matching size among the next bracket's residents, -1 until known

	// The search's p and m1, and the bound on C7/C8 over all its
	// candidates once the completion is seen to bind them (bestC7).
	p, m1   int
	g7      []int
	g7Tried bool
}

// pairBracket pairs one bracket and returns its pairs and downfloaters.
func (e *engine) pairBracket(mdps, res, lower, nextRes []int, last, c7 bool) ([][2]int, []int, error) {
	c := &bctx{e: e, mdps: mdps, res: res, lower: lower, last: last, c7: c7, nextRes: nextRes, memo7: map[string][]int{}, memoNode: map[string]nodeBound{}, mmNext: -1}
	c.budget = e.in.MaxNodes
	if c.budget <= 0 {
		c.budget = DefaultMaxNodes
	}
	e.st.Brackets++
	all := append(append([]int(nil), mdps...), res...)
	c.low = e.ps[all[0]].score
	for _, x := range all {
		c.low = min(c.low, e.ps[x].score)
	}
	n := len(all)
	// MaxPairs: pairs possible in the bracket, MDPs meeting residents or
	// residents meeting residents; M1: MDPs that can be paired.
	isM := map[int]bool{}
	for _, m := range mdps {
		isM[m] = true
	}
	_, maxPairs := maxMatching(n, func(i, j int) bool {
		return !(isM[all[i]] && isM[all[j]]) && e.compat[all[i]][all[j]]
	})
	_, m1max := e.bipartiteGreedy(mdps, res)
	// C5 (maximise the pairs) and C6 (pair as many MDPs as possible) over
	// the candidates that satisfy C4.
	// C4 needs the lower players completed: those the lower scoregroups
	// cannot pair among themselves (their deficiency, less a bye) must meet
	// downfloaters of this bracket, so it floats at least that many.
	if len(lower) > 0 {
		_, nu := maxMatching(len(lower), func(i, j int) bool { return e.compat[lower[i]][lower[j]] })
		need := len(lower) - 2*nu
		if (n+len(lower))%2 == 1 {
			need--
		}
		maxPairs = min(maxPairs, (n-max(need, 0))/2)
	}
	for p := maxPairs; p >= 0; p-- {
		if last && n-2*p > 1 {
			break
		}
		for m1 := min(m1max, p); m1 >= 0; m1-- {
			if p-m1 > (len(res)-m1)/2 {
				continue
			}
			c.nodes, c.cut = 0, false
			c.searchHet(p, m1)
			e.st.Nodes += c.nodes
			if c.cut {
				e.st.BudgetHits++
			}
			if c.best != nil {
				return c.bestPairs, c.bestDown, nil
			}
		}
	}
	if !last {
		return nil, nil, fmt.Errorf("dutch: bracket of score %d could not be paired", e.ps[res[0]].score)
	}
	// The collapsed last bracket: all its players together, paired as one
	// homogeneous bracket, so that the round can be completed.
	e.st.Collapsed++
	c.collapsed = true
	sort.Ints(all)
	c.resetVector()
	if n%2 == 1 {
		c.cur[e.o9()] = c.minUnplayed(all)
	}
	c.limbo = nil
	c.nodes, c.cut = 0, false
	c.searchRem(all, n/2)
	e.st.Nodes += c.nodes
	if c.cut {
		e.st.BudgetHits++
	}
	if c.best == nil {
		return nil, nil, ErrNoPairing
	}
	return c.bestPairs, c.bestDown, nil
}

func (c *bctx) resetVector() {
	c.cur = make([]int, c.e.vlen())
	c.pairs = c.pairs[:0]
}

func (c *bctx) minUnplayed(players []int) int {
	m := -1
	for _, x := range players {
		if p := c.e.ps[x]; p.byeOK && (m < 0 || p.unplayed < m) {
			m = p.unplayed
		}
	}
	return max(m, 0)
}

// searchHet runs through the candidates with p pairs of which m1 pair an MDP,
// in the rules' order: the choice of S1 among the MDPs (exchanges with the
// Limbo, D.3), the MDP-pairing's transpositions of S2 (D.1), then the
// remainder (D.2, D.1).
func (c *bctx) searchHet(p, m1 int) {
	e := c.e
	if c.p != p || c.m1 != m1 {
		c.p, c.m1, c.g7, c.g7Tried = p, m1, nil, false
	}
	forExchanges(m1, len(c.mdps)-m1, func(ex exchange) bool {
		if c.cut {
			return false
		}
		s1, limbo := applyExchange(c.mdps, m1, ex)
		c.resetVector()
		c.limbo = limbo
		s := e.ps[c.res[0]].score
		u := len(c.res) - m1 - 2*(p-m1) // residents who will float down
		for _, x := range limbo {
			c.addDown(x, 1, true)
		}
		c.cur[e.h6(2)] += u // a resident downfloater's difference: one point
		if c.c7 {
			if u == 0 { // the downfloaters are known: no bound needed
				c.setC7(c.cur, c.actualC7(limbo))
			} else {
				var ds []int
				for _, x := range limbo {
					ds = append(ds, e.ps[x].score)
				}
				for range u {
					ds = append(ds, s)
				}
				c.setC7(c.cur, c.idealC7(ds))
				c.raiseC7(c.cur)
			}
		}
		if u == 0 && !c.last && !e.completable(append(slices.Clone(limbo), c.lower...)) {
			return true // the downfloaters are the Limbo alone: C4 fails for all
		}
		if c.last && (len(c.mdps)+len(c.res))%2 == 1 {
			c.cur[e.o9()] = c.minUnplayed(append(append([]int(nil), c.mdps...), c.res...))
		}
		if c.pruned(c.cur) {
			return true
		}
		used := make([]bool, len(c.res))
		var rec func(i int)
		rec = func(i int) {
			if c.cut {
				return
			}
			if i == len(s1) {
				var rem []int
				for j, r := range c.res {
					if !used[j] {
						rem = append(rem, r)
					}
				}
				c.searchRem(rem, p-m1)
				return
			}
			c.nodes++
			if c.nodes > c.budget {
				c.cut = true
				return
			}
			if c.pruned(c.cur) {
				return
			}
			for j, r := range c.res {
				if used[j] || !e.compat[s1[i]][r] {
					continue
				}
				used[j] = true
				c.addPair(s1[i], r, 1)
				rec(i + 1)
				c.addPair(s1[i], r, -1)
				used[j] = false
			}
		}
		rec(0)
		return true
	})
}

// searchRem pairs a homogeneous bracket or remainder X (ordered by rank)
// with n1 pairs: S1 its first n1 players, S2 the others; exchanges between
// S1 and S2 in the order of D.2, and for each the transpositions of S2 in
// lexicographic order (D.1).
func (c *bctx) searchRem(x []int, n1 int) {
	e := c.e
	var all, all13 [3]int
	for _, y := range x {
		all[e.ps[y].pref]++
		all13[e.ps[y].strongPref()]++
	}
	// No candidate of this remainder can do better than this bound.
	global := func() bool {
		lb, lb13 := globalBound(all, n1), globalBound(all13, n1)
		c.cur[e.oc(12)] += lb
		c.cur[e.oc(13)] += lb13
		cut := c.pruned(c.cur)
		c.cur[e.oc(12)] -= lb
		c.cur[e.oc(13)] -= lb13
		return cut
	}
	if global() {
		return
	}
	c.dive(x, n1)
	var b1, b2, b13, b23 [3]int
	for i, y := range x {
		if i < n1 {
			b1[e.ps[y].pref]++
			b13[e.ps[y].strongPref()]++
		} else {
			b2[e.ps[y].pref]++
			b23[e.ps[y].strongPref()]++
		}
	}
	done := forExchanges(n1, len(x)-n1, func(ex exchange) bool {
		if c.cut || global() {
			return false
		}
		c.nodes++
		if c.nodes > c.budget {
			c.cut = true
			return false
		}
		// The bound of this exchange from the counts alone, before building
		// its S1 and S2.
		s1c, s2c, s13, s23 := b1, b2, b13, b23
		for t := range ex.a {
			pa, pb := &e.ps[x[ex.a[t]]], &e.ps[x[n1+ex.b[t]]]
			s1c[pa.pref]--
			s2c[pa.pref]++
			s13[pa.strongPref()]--
			s23[pa.strongPref()]++
			s1c[pb.pref]++
			s2c[pb.pref]--
			s13[pb.strongPref()]++
			s23[pb.strongPref()]--
		}
		lb, lb13 := c12Bound(s1c, s2c), c12Bound(s13, s23)
		c.cur[e.oc(12)] += lb
		c.cur[e.oc(13)] += lb13
		cut := c.pruned(c.cur)
		c.cur[e.oc(12)] -= lb
		c.cur[e.oc(13)] -= lb13
		if cut {
			return true
		}
		s1, s2 := applyExchange(x, n1, ex)
		// Colour-preference kinds of S1's suffixes and of S2's unused
		// players, for the lower bounds on C12 and C13.
		suf := make([][3]int, len(s1)+1)
		suf13 := make([][3]int, len(s1)+1)
		for i := len(s1) - 1; i >= 0; i-- {
			suf[i], suf13[i] = suf[i+1], suf13[i+1]
			suf[i][e.ps[s1[i]].pref]++
			suf13[i][e.ps[s1[i]].strongPref()]++
		}
		cnt2, cnt13 := s2c, s23
		used := make([]bool, len(s2))
		// The one S2 player this remainder leaves unpaired may be the bye's
		// receiver (C9): bound C9 by the unpaired S2 players left.
		byeLeft := len(c.limbo) == 0 && len(s2)-len(s1) == 1 && (c.last || c.e.byeScore >= 0)
		// The assignment bound (assign.go), built once the search is big.
		var ac *assignCosts
		acTried := false
		var rec func(i int)
		rec = func(i int) {
			if c.cut {
				return
			}
			c.nodes++
			if c.nodes > c.budget {
				c.cut = true
				return
			}
			if i == len(s1) {
				var down []int
				for j, y := range s2 {
					if !used[j] {
						down = append(down, y)
					}
				}
				c.leaf(down, true)
				return
			}
			lb, lb13 := c12Bound(suf[i], cnt2), c12Bound(suf13[i], cnt13)
			o9 := c.cur[e.o9()]
			if byeLeft {
				b, ok := c.byeBound(s2, used)
				if !ok {
					return
				}
				c.cur[e.o9()] = max(o9, b)
			}
			c.cur[e.oc(12)] += lb
			c.cur[e.oc(13)] += lb13
			cut := c.pruned(c.cur)
			if !cut && c.g7Tried && c.c7 && !e.exhaustive && !e.noNodeBound {
				cut = c.nodePruned(s1[i:], s2, used)
			}
			c.cur[e.oc(12)] -= lb
			c.cur[e.oc(13)] -= lb13
			c.cur[e.o9()] = o9
			// The assignment counts C12 and C13 itself: from the vector
			// without their counting bounds.
			if !cut && c.nodes >= e.assignAfter && !e.exhaustive {
				if !acTried {
					ac, _ = c.buildAssign(s1, s2)
					acTried = true
				}
				if ac != nil {
					cut = c.assignPruned(ac, i, used)
				}
			}
			if cut {
				return
			}
			for j, y := range s2 {
				if used[j] || !e.compat[s1[i]][y] {
					continue
				}
				used[j] = true
				cnt2[e.ps[y].pref]--
				cnt13[e.ps[y].strongPref()]--
				c.addPair(s1[i], y, 1)
				rec(i + 1)
				c.addPair(s1[i], y, -1)
				cnt2[e.ps[y].pref]++
				cnt13[e.ps[y].strongPref()]++
				used[j] = false
			}
		}
		rec(0)
		return true
	})
	if !done && !c.cut && !global() {
		c.cut = true // too many exchanges to list: the search is incomplete
	}
}

// byeBound is the least C9 a remainder's candidate can have when the one
// S2 player it leaves unpaired floats alone (see leaf), over the S2
// players not used yet; false when in the last bracket none of them may
// have the bye, so no candidate completes the round.
func (c *bctx) byeBound(s2 []int, used []bool) (int, bool) {
	b, ok := -1, false
	for j, y := range s2 {
		if used[j] {
			continue
		}
		p := &c.e.ps[y]
		u := 0
		switch {
		case c.last:
			if !p.byeOK {
				continue
			}
			u = p.unplayed
		case p.score == c.e.byeScore:
			u = p.unplayed
		}
		ok = true
		if b < 0 || u < b {
			b = u
		}
	}
	return max(b, 0), ok || !c.last
}

// dive finds a good candidate fast, to prune the search in the rules' order
// from its start: each player in turn, from the top, takes the partner that
// keeps the lower bound lowest. It is only a bound: the ordered search then
// takes the first candidate at least as good (see leaf).
func (c *bctx) dive(x []int, n1 int) {
	e := c.e
	if len(x) < 8 || n1 == 0 {
		return
	}
	used := make([]bool, len(x))
	var cnt, cnt13 [3]int
	for _, y := range x {
		cnt[e.ps[y].pref]++
		cnt13[e.ps[y].strongPref()]++
	}
	take := func(y, sign int) {
		cnt[e.ps[y].pref] -= sign
		cnt13[e.ps[y].strongPref()] -= sign
	}
	made := 0
	var down []int
	var undo [][2]int
	defer func() {
		for i := len(undo) - 1; i >= 0; i-- {
			c.addPair(undo[i][0], undo[i][1], -1)
		}
	}()
	free := len(x)
	for i, xi := range x {
		if used[i] {
			continue
		}
		if made == n1 {
			down = append(down, xi)
			continue
		}
		used[i] = true
		take(xi, 1)
		free--
		best, bestJ := []int(nil), -1
		for j := i + 1; j < len(x); j++ {
			y := x[j]
			if used[j] || !e.compat[xi][y] {
				continue
			}
			take(y, 1)
			c.addPair(xi, y, 1)
			lb, lb13 := globalBound(cnt, n1-made-1), globalBound(cnt13, n1-made-1)
			c.cur[e.oc(12)] += lb
			c.cur[e.oc(13)] += lb13
			if less(c.cur, best) {
				best, bestJ = slices.Clone(c.cur), j
			}
			c.cur[e.oc(12)] -= lb
			c.cur[e.oc(13)] -= lb13
			c.addPair(xi, y, -1)
			take(y, -1)
		}
		if bestJ < 0 {
			if free-2*(n1-made) < 0 {
				return
			}
			down = append(down, xi) // floats
			continue
		}
		used[bestJ] = true
		take(x[bestJ], 1)
		free--
		c.addPair(xi, x[bestJ], 1)
		undo = append(undo, [2]int{xi, x[bestJ]})
		made++
	}
	if made == n1 {
		c.leaf(down, false)
	}
}

// globalBound bounds the players without their colour when p pairs are made
// among players counted in a by preferred colour, the others floating.
func globalBound(a [3]int, p int) int {
	hi, lo := max(a[White], a[Black]), min(a[White], a[Black])
	float := a[White] + a[Black] + a[None] - 2*p
	r := hi - lo - a[None] - float
	return max(0, r/2)
}

// strongPref is the preferred colour when the preference is strong or
// absolute (C13), None otherwise.
func (p *pl) strongPref() Colour {
	if p.strength >= prefStrong {
		return p.pref
	}
	return None
}

// c12Bound is a lower bound of the players who will not get their colour
// preference (C12) when the S1 players counted in a are paired with some
// of the S2 players counted in b (indexed by the preferred colour). Counting
// only strong and absolute preferences, it bounds C13 the same way.
func c12Bound(a, b [3]int) int {
	x := min(a[White], b[Black])
	y := min(a[Black], b[White])
	left := a[White] - x + a[Black] - y
	return max(0, left-b[None])
}

// leaf evaluates a complete candidate whose unpaired players are down. A
// candidate from the search in the rules' order replaces the best when it is
// better, or as good as a best that came from the dive; the dive's only
// when strictly better.
func (c *bctx) leaf(down []int, ordered bool) {
	e := c.e
	v := slices.Clone(c.cur)
	save := c.cur
	c.cur = v
	for _, x := range down {
		c.addDown(x, 1, c.collapsed)
	}
	c.cur = save
	better := func() bool {
		if ordered && !c.bestOrdered && c.best != nil {
			return !less(c.best, v)
		}
		return less(v, c.best)
	}
	// C9: a single downfloater with the bye's score (restrictBye) is the
	// bye's receiver, whether he floats from his own bracket, on from a
	// lower one as an MDP left in the Limbo, or stays unpaired in the last.
	d := append(slices.Clone(c.limbo), down...)
	if len(d) == 1 && (c.last || e.ps[d[0]].score == e.byeScore) {
		v[e.o9()] = e.ps[d[0]].unplayed
	}
	if !better() { // already with the bounds of C7 and C8
		return
	}
	if c.c7 {
		c.setC7(v, c.actualC7(d))
	}
	if !better() {
		return
	}
	rest := append(slices.Clone(d), c.lower...)
	if !e.completable(rest) {
		return
	}
	c.best = v
	c.bestOrdered = ordered
	c.bestPairs = slices.Clone(c.pairs)
	c.bestDown = d
}

// addPair adds (sign 1) or removes (-1) the pair a-b's share of the quality
// vector.
func (c *bctx) addPair(a, b, sign int) {
	e := c.e
	if sign > 0 {
		c.pairs = append(c.pairs, [2]int{a, b})
	} else {
		c.pairs = c.pairs[:len(c.pairs)-1]
	}
	pa, pb := &e.ps[a], &e.ps[b]
	v := c.cur
	if pa.score != pb.score {
		hi, lo := pa, pb
		if pb.score > pa.score {
			hi, lo = pb, pa
		}
		sd := hi.score - lo.score
		v[e.h6(sd)] += sign // C6
		if hi.f1 == Down {
			v[e.oc(14)] += sign
			v[e.h18(18, sd)] += sign
		}
		if lo.f1 == Up {
			v[e.oc(15)] += sign
			v[e.h18(19, sd)] += sign
		}
		if hi.f2 == Down {
			v[e.oc(16)] += sign
			v[e.h18(20, sd)] += sign
		}
		if lo.f2 == Up {
			v[e.oc(17)] += sign
			v[e.h18(21, sd)] += sign
		}
	}
	if pa.pref != None && pa.pref == pb.pref {
		v[e.oc(12)] += sign
		if pa.strength >= prefStrong && pb.strength >= prefStrong {
			v[e.oc(13)] += sign
		}
	}
	if pa.top || pb.top {
		w, bl := e.allocate(a, b)
		for _, g := range [2]struct {
			p int
			c Colour
		}{{w, White}, {bl, Black}} {
			cd, three := e.ps[g.p].afterGame(g.c)
			if cd > 2 || cd < -2 {
				v[e.oc(10)] += sign
			}
			if three {
				v[e.oc(11)] += sign
			}
		}
	}
}

// addDown counts a player who leaves the bracket unpaired: a downfloat
// (C14, C16) whose score difference (C18, C20) is, as in the PSD, his score
// less one point below the bracket's lowest score; when psd, that term of
// the PSD itself (C6).
func (c *bctx) addDown(x, sign int, psd bool) {
	e := c.e
	p := &e.ps[x]
	sd := p.score - (c.low - 2)
	if psd {
		c.cur[e.h6(sd)] += sign
	}
	if p.f1 == Down {
		c.cur[e.oc(14)] += sign
		c.cur[e.h18(18, sd)] += sign
	}
	if p.f2 == Down {
		c.cur[e.oc(16)] += sign
		c.cur[e.h18(20, sd)] += sign
	}
}

// c7part is the next bracket's share of the vector: -pairs and its PSD.
func (c *bctx) setC7(v, part []int) {
	e := c.e
	v[e.o7()] = part[0]
	copy(v[e.h8(e.k-1):e.h8(e.k-1)+e.k], part[1:])
}

// idealC7 is the best the next bracket could do with downfloaters of the
// given scores if nobody there had met or were barred from meeting: a lower
// bound of actualC7.
func (c *bctx) idealC7(ds []int) []int {
	e := c.e
	part := make([]int, 1+e.k)
	r := len(c.nextRes)
	if r == 0 {
		return part
	}
	s := e.ps[c.nextRes[0]].score
	sort.Sort(sort.Reverse(sort.IntSlice(ds)))
	m := min(len(ds), r)
	// At most one pair per downfloater plus the residents' own matching.
	if c.mmNext < 0 {
		_, c.mmNext = maxMatching(r, func(i, j int) bool { return e.compat[c.nextRes[i]][c.nextRes[j]] })
	}
	p := min(m+(r-m)/2, len(ds)+c.mmNext)
	part[0] = -p
	for i, d := range ds {
		sd := d - s
		if i >= m {
			sd += 2
		}
		part[1+e.k-1-sd]++
	}
	part[1+e.k-1-2] += max(0, r-2*p+m)
	return part
}

// actualC7 computes C7 (pairs) and C8 (PSD) of the next bracket with the
// downfloaters d as its MDPs, counted within complete pairings of the round
// (C4), as the matching-based programs count them: the best over every
// pairing of d, the next bracket's residents and the lower players that
// pairs them all but for one who may receive the bye. The best the next
// bracket can do alone (bracketC7) is the answer when one of its pairings
// that achieves it leaves players the lower brackets can complete, which is
// nearly always; otherwise a maximum-weight matching (exactC7) finds it.
func (c *bctx) actualC7(d []int) []int {
	k := key(d)
	if p, ok := c.memo7[k]; ok {
		return p
	}
	part, exported := c.bracketC7(d)
	if len(c.nextRes) > 0 && !c.e.completable(append(exported, c.lower[len(c.nextRes):]...)) &&
		c.e.completable(append(slices.Clone(d), c.lower...)) {
		if x := c.exactC7(d); x != nil {
			if !slices.Equal(x, part) && !c.g7Tried {
				// The completion binds C7/C8 here: bound them for the
				// rest of the search by the best any candidate can do.
				c.g7Tried = true
				c.g7 = c.bestC7()
				c.raiseC7(c.cur)
			}
			part = x
		}
	}
	c.memo7[k] = part
	return part
}

// raiseC7 raises the C7/C8 segment of the lower bound v to bestC7's when
// that is higher. It stays a lower bound of every candidate whose C6 is the
// best (C6 comes first), and the others lose to such a candidate anyway.
func (c *bctx) raiseC7(v []int) {
	if c.g7 == nil || !c.c7 || c.e.exhaustive {
		return
	}
	e := c.e
	seg := v[e.o7() : e.o7()+1+e.k]
	if less(seg, c.g7) {
		copy(seg, c.g7)
	}
}

// mulOK multiplies when the product stays under 2^58.
func mulOK(a, b int64) (int64, bool) {
	if a != 0 && b > (int64(1)<<58)/a {
		return 0, false
	}
	return a * b, true
}

// bestC7 is the C7/C8 segment of the best candidate of this search (p
// pairs, m1 of them an MDP's) counted within complete pairings: one
// maximum-weight matching, among the maximum-cardinality ones, of the
// bracket, the next bracket's residents and the lower players (and a vertex
// for the bye), whose weights order, as the criteria do, the bracket's
// pairs, its MDPs paired, the MDPs paired from the highest score down (C6's
// PSD for given pairs), the next bracket's pairs (C7), and the downfloaters
// paired there from the highest score down (C8). nil when the weights would
// not fit, when its p and m1 are not the search's, or when no complete
// pairing exists.
func (c *bctx) bestC7() []int {
	e := c.e
	b := append(slices.Clone(c.mdps), c.res...)
	nm, nb := len(c.mdps), len(c.mdps)+len(c.res)
	nq := nb + len(c.nextRes)
	all := append(append(slices.Clone(b), c.nextRes...), c.lower[len(c.nextRes):]...)
	if !e.spend(len(all) + 1) {
		return nil // no bound: the search is only slower
	}
	e.st.BestC7++
	cw, ok := e.c7WeightsOf(b, c.mdps, nq)
	if !ok {
		return nil
	}
	mate := e.matchRound(all, e.c7Edges(all, nm, nb, nq, cw))
	gp, gm1, n7 := 0, 0, 0
	var down []int
	pairedDown := map[int]bool{}
	for i := range nq {
		j := mate[i]
		if j < 0 {
			return nil // not complete
		}
		switch {
		case i < nb && j < nb && !(i < nm && j < nm):
			if i < j {
				gp++
				if i < nm || j < nm {
					gm1++
				}
			}
		case i < nb:
			down = append(down, all[i])
			if nb <= j && j < nq {
				pairedDown[all[i]] = true
				n7++
			}
		case j < nq && j >= nb && i < j:
			n7++
		}
	}
	if gp != c.p || gm1 != c.m1 {
		return nil
	}
	ds := c.sortDown(down)
	paired := make([]bool, len(ds))
	for i, x := range ds {
		paired[i] = pairedDown[x]
	}
	return c.c7Part(ds, paired, n7)
}

// scoreRadix returns the mixed-radix digits of the scores of the players
// xs, the lowest score first: the weight of each score's digit, the rank
// of each score, and the product of the radixes (each score's count plus
// one); false when it would not fit.
func (e *engine) scoreRadix(xs []int) ([]int64, map[int]int, int64, bool) {
	cnt := map[int]int64{}
	for _, x := range xs {
		cnt[e.ps[x].score]++
	}
	var scores []int
	for sc := range cnt {
		scores = append(scores, sc)
	}
	sort.Ints(scores)
	w := make([]int64, len(scores))
	rank := map[int]int{}
	u, ok := int64(1), true
	for i, sc := range scores {
		w[i], rank[sc] = u, i
		if u, ok = mulOK(u, cnt[sc]+1); !ok {
			return nil, nil, 0, false
		}
	}
	return w, rank, u, true
}

// c7Weights are bestC7's weights: of a pair of the next bracket (p7), of
// an MDP's digit (base6), of an MDP paired (wm) and of a pair of the
// bracket (wp), and the digits of the scores (scoreRadix) of the
// bracket's players (w8, r8) and MDPs (w6, r6).
type c7Weights struct {
	p7, base6, wm, wp int64
	w8, w6            []int64
	r8, r6            map[int]int
}

// c7WeightsOf returns bestC7's weights for the bracket b (its MDPs
// first, mdps) and nq players up to the end of the next bracket's
// residents; false when they would not fit.
func (e *engine) c7WeightsOf(b, mdps []int, nq int) (c7Weights, bool) {
	nm, nb := len(mdps), len(b)
	// Mixed-radix digits, the lowest first: the rank of a score among the
	// bracket's players (C8) and among its MDPs (C6).
	w8, r8, u8, ok1 := e.scoreRadix(b)
	w6, r6, u6, ok2 := e.scoreRadix(mdps)
	if !ok1 || !ok2 {
		return c7Weights{}, false
	}
	p7 := u8
	base6, ok3 := mulOK(p7, int64(nq/2+1))
	wm, ok4 := mulOK(base6, u6)
	wp, ok5 := mulOK(wm, int64(nm+1))
	top, ok6 := mulOK(wp, int64(nb/2+1))
	if !ok3 || !ok4 || !ok5 || !ok6 || top > int64(1)<<58 {
		return c7Weights{}, false
	}
	return c7Weights{p7: p7, base6: base6, wm: wm, wp: wp, w8: w8, r8: r8, w6: w6, r6: r6}, true
}

// c7Edges returns bestC7's edges between the players all that may meet:
// the first nm the MDPs, up to nb the bracket, up to nq the next
// bracket's residents, the lower players after them.
func (e *engine) c7Edges(all []int, nm, nb, nq int, cw c7Weights) []wEdge {
	var edges []wEdge
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			if !e.compat[all[i]][all[j]] {
				continue
			}
			var w int64
			switch {
			case j < nm: // two MDPs: no pair of the bracket
			case j < nb:
				w = cw.wp
				if i < nm {
					w += cw.wm + cw.base6*cw.w6[cw.r6[e.ps[all[i]].score]]
				}
			case j < nq:
				w = cw.p7
				if i < nb {
					w += cw.w8[cw.r8[e.ps[all[i]].score]]
				}
			}
			edges = append(edges, wEdge{i, j, w})
		}
	}
	return edges
}

// c7WorkBudget bounds, per round, the sum of the cubed sizes of the
// maximum-weight matchings C7/C8 within complete pairings may run: a
// quarter of a second of CPU at the slowest rate measured (a dense matching
// of 500 vertices, 1.25·10⁸, takes 0.3 s; of 250, 30 ms). A round that
// would need more keeps the next bracket's own values from there on
// (Stats.C7Approx).
const c7WorkBudget = 100_000_000

// matchRound returns the maximum-weight matching of the largest
// cardinality of players (edges between their indexes), with a vertex
// more for the bye when they are odd in number, joined to those who may
// have it.
func (e *engine) matchRound(players []int, edges []wEdge) []int {
	nv := len(players)
	if nv%2 == 1 {
		for i, x := range players {
			if e.ps[x].byeOK {
				edges = append(edges, wEdge{i, nv, 0})
			}
		}
		nv++
	}
	return maxWeightMatching(nv, edges, true)
}

// spend takes a matching of nv vertices from the round's budget.
func (e *engine) spend(nv int) bool {
	cost := int64(nv) * int64(nv) * int64(nv)
	if cost > e.c7Work {
		return false
	}
	e.c7Work -= cost
	return true
}

// sortDown orders downfloaters by rank (score, then pairing number).
func (c *bctx) sortDown(d []int) []int {
	e := c.e
	ds := slices.Clone(d)
	sort.SliceStable(ds, func(i, j int) bool {
		if e.ps[ds[i]].score != e.ps[ds[j]].score {
			return e.ps[ds[i]].score > e.ps[ds[j]].score
		}
		return ds[i] < ds[j]
	})
	return ds
}

// c7Part is the next bracket's share of the vector when p pairs are made
// there and the downfloaters ds[i] with paired[i] are among them.
func (c *bctx) c7Part(ds []int, paired []bool, p int) []int {
	e := c.e
	part := make([]int, 1+e.k)
	s := e.ps[c.nextRes[0]].score
	part[0] = -p
	m1 := 0
	for i, x := range ds {
		sd := e.ps[x].score - s
		if paired[i] {
			m1++
		} else {
			sd += 2
		}
		part[1+e.k-1-sd]++
	}
	part[1+e.k-1-2] += len(c.nextRes) - m1 - 2*(p-m1)
	return part
}

// bracketC7 is C7 and C8 of the next bracket alone, paired by its own
// MaxPairs and M1 with the downfloaters d as its MDPs, and the players one
// of its pairings that achieves them leaves unpaired. A set of MDPs that some matching pairs is paired by a
// maximum one too (augmenting paths uncover no vertex), so MaxPairs and the
// M1 MDPs chosen in rank order are achieved together.
func (c *bctx) bracketC7(d []int) ([]int, []int) {
	e := c.e
	r := c.nextRes
	if len(r) == 0 {
		return make([]int, 1+e.k), nil
	}
	ds := c.sortDown(d)
	all := append(slices.Clone(ds), r...)
	nd := len(ds)
	chosen, _, matchR := e.bipartiteGreedyMatch(ds, r)
	init := make([]int, len(all))
	for i := range init {
		init[i] = -1
	}
	for j, l := range matchR {
		if l >= 0 {
			init[l], init[nd+j] = nd+j, l
		}
	}
	mate, p := maxMatchingFrom(len(all), func(i, j int) bool {
		return !(i < nd && j < nd) && e.compat[all[i]][all[j]]
	}, init)
	var exported []int
	for i, x := range all {
		if mate[i] == -1 {
			exported = append(exported, x)
		}
	}
	return c.c7Part(ds, chosen, p), exported
}

// exactC7 is C7 and C8 within complete pairings of the round: a
// maximum-weight matching among the maximum-cardinality ones of the
// downfloaters d, the next bracket's residents and the lower players (one
// more vertex for the bye, joined to who may receive it), where a pair of
// the next bracket weighs P and a pair of an MDP of the r-th lowest score
// there W_r more. W_r is the product of (count+1) over the lower scores and
// P the product over all, so the weights compare pairs first, then the
// MDPs paired from the highest score down: the order of C7, then of C8's
// PSD, whose largest differences are the unpaired MDPs of the highest
// scores. nil when the weights would not fit in an int64 or the round's
// budget is spent (counted in Stats.C7Approx).
func (c *bctx) exactC7(d []int) []int {
	e := c.e
	ds := c.sortDown(d)
	rest := append(append(slices.Clone(ds), c.nextRes...), c.lower[len(c.nextRes):]...)
	if !e.spend(len(rest) + 1) {
		e.st.C7Approx++
		return nil
	}
	e.st.ExactC7++
	nd, nn := len(ds), len(ds)+len(c.nextRes)
	var counts []int64 // per distinct score, lowest first
	rank := make([]int, nd)
	for i := nd - 1; i >= 0; i-- {
		if i == nd-1 || e.ps[ds[i]].score != e.ps[ds[i+1]].score {
			counts = append(counts, 0)
		}
		counts[len(counts)-1]++
		rank[i] = len(counts) - 1
	}
	wr := make([]int64, len(counts))
	P := int64(1)
	limit := int64(1) << 60 / int64(len(rest)+2)
	for r, n := range counts {
		wr[r] = P
		if P > limit/(n+1) {
			e.st.C7Approx++
			return nil
		}
		P *= n + 1
	}
	var edges []wEdge
	for i := range rest {
		for j := i + 1; j < len(rest); j++ {
			if !e.compat[rest[i]][rest[j]] {
				continue
			}
			var w int64
			if nd <= j && j < nn { // a pair of the next bracket (no two MDPs)
				w = P
				if i < nd {
					w += wr[rank[i]]
				}
			}
			edges = append(edges, wEdge{i, j, w})
		}
	}
	mate := e.matchRound(rest, edges)
	p := 0
	paired := make([]bool, nd)
	for i := range nn {
		j := mate[i]
		if j < 0 || j >= nn || i < nd && j < nd {
			continue
		}
		if i < nd {
			paired[i] = true
		}
		if i < j {
			p++
		}
	}
	return c.c7Part(ds, paired, p)
}

// An exchange swaps the members a of S1 (positions in S1) with the members
// b of S2 (positions in S2).
type exchange struct{ a, b []int }

// forExchanges calls f with the exchanges between an S1 of n1 and an S2 of
// n2 players in the order of D.2 (D.3 for MDPs and the Limbo): fewer players
// exchanged first; then the smallest difference between the sums of the
// BSNs moved to S1 and to S2; then the one moving the largest BSN from S1
// to S2; then the one moving the smallest BSN from S2 to S1. f returns false
// to stop; forExchanges returns false when it stopped or gave up (too many).
func forExchanges(n1, n2 int, f func(exchange) bool) bool {
	for k := 0; k <= min(n1, n2); k++ {
		if !exchangesK(n1, n2, k, f) {
			return false
		}
	}
	return true
}

// maxCombos bounds the subsets listed for one size of exchange.
const maxCombos = 200_000

func exchangesK(n1, n2, k int, f func(exchange) bool) bool {
	if k == 0 {
		return f(exchange{})
	}
	if binom(n1, k) > maxCombos || binom(n2, k) > maxCombos {
		return false
	}
	as := combos(n1, k)
	// Rule 3: compare the BSNs moved from S1 from the largest down.
	slices.SortStableFunc(as, func(x, y []int) int {
		for t := k - 1; t >= 0; t-- {
			if x[t] != y[t] {
				return y[t] - x[t]
			}
		}
		return 0
	})
	sumA := make([]int, len(as))
	for i, a := range as {
		for _, v := range a {
			sumA[i] += v + 1
		}
	}
	// Rule 4: the subsets of S2 in lexicographic order, as combos lists them,
	// grouped by the sum of their BSNs.
	bySum := map[int][][]int{}
	lo, hi := -1, -1
	for _, b := range combos(n2, k) {
		s := 0
		for _, v := range b {
			s += v + 1 + n1
		}
		bySum[s] = append(bySum[s], b)
	}
	for s := range bySum {
		if lo < 0 || s < lo {
			lo = s
		}
		hi = max(hi, s)
	}
	minA, maxA := sumA[0], sumA[0]
	for _, s := range sumA {
		minA, maxA = min(minA, s), max(maxA, s)
	}
	// Rule 2: by the difference of the sums.
	for d := lo - maxA; d <= hi-minA; d++ {
		for i, a := range as {
			for _, b := range bySum[d+sumA[i]] {
				if !f(exchange{a, b}) {
					return false
				}
			}
		}
	}
	return true
}

func combos(n, k int) [][]int {
	var out [][]int
	c := make([]int, k)
	var rec func(i, from int)
	rec = func(i, from int) {
		if i == k {
			out = append(out, slices.Clone(c))
			return
		}
		for v := from; v <= n-(k-i); v++ {
			c[i] = v
			rec(i+1, v+1)
		}
	}
	rec(0, 0)
	return out
}

func binom(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	r := 1
	for i := 1; i <= k; i++ {
		r = r * (n - k + i) / i
	}
	return r
}

// applyExchange splits x into S1 (first n1) and S2, swaps ex, and orders both
// by rank again.
func applyExchange(x []int, n1 int, ex exchange) ([]int, []int) {
	s1 := slices.Clone(x[:n1])
	s2 := slices.Clone(x[n1:])
	for t := range ex.a {
		s1[ex.a[t]], s2[ex.b[t]] = s2[ex.b[t]], s1[ex.a[t]]
	}
	sort.Ints(s1)
	sort.Ints(s2)
	return s1, s2
}

// run pairs the brackets from the top scoregroup down.
func (e *engine) run() ([][2]int, int, error) {
	var groups [][]int
	for i := range e.ps {
		if i == 0 || e.ps[i].score != e.ps[i-1].score {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], i)
	}
	var mdps []int
	var pairs [][2]int
	for g := range groups {
		var lower []int
		for _, h := range groups[g+1:] {
			lower = append(lower, h...)
		}
		var next []int
		if g+1 < len(groups) {
			next = groups[g+1]
		}
		last := g == len(groups)-1
		ps, down, err := e.pairBracket(mdps, groups[g], lower, next, last, g < len(groups)-2)
		if err != nil {
			return nil, -1, err
		}
		pairs = append(pairs, ps...)
		mdps = down
	}
	switch len(mdps) {
	case 0:
		return pairs, -1, nil
	case 1:
		return pairs, mdps[0], nil
	}
	return nil, -1, ErrNoPairing
}

// nodeC7 bounds C7/C8 below a node of the remainder's search, where the
// pairs made so far are fixed, rest are the bracket's players still to be
// paired, and need the pairs still to be made among them: bestC7's
// maximum-weight matching over rest (the Limbo's MDPs float: they are no
// longer paired in the bracket), the next bracket's residents and the
// lower players. It returns the best C7/C8 segment any candidate below the
// node can have, nil when it does not know (budget, weights, a matching
// with other than need pairs in the bracket), and dead when no pairing
// below the node completes the round (C4).
func (c *bctx) nodeC7(rest []int, need int) (seg []int, dead bool) {
	e := c.e
	b := append(slices.Clone(c.limbo), rest...)
	nm, nb := len(c.limbo), len(c.limbo)+len(rest)
	nq := nb + len(c.nextRes)
	all := append(append(slices.Clone(b), c.nextRes...), c.lower[len(c.nextRes):]...)
	cost := int64(len(all)+1) * int64(len(all)+1) * int64(len(all)+1)
	if cost > e.nodeWork {
		return nil, false
	}
	e.nodeWork -= cost
	e.st.NodeC7++
	cw, ok := e.c7WeightsOf(b, c.limbo, nq)
	if !ok {
		return nil, false
	}
	var edges []wEdge
	for _, ed := range e.c7Edges(all, nm, nb, nq, cw) {
		if ed.i < nm && ed.j < nb {
			continue // a Limbo MDP is not paired in the bracket
		}
		edges = append(edges, ed)
	}
	mate := e.matchRound(all, edges)
	gp, n7 := 0, 0
	var down []int
	pairedDown := map[int]bool{}
	for i := range all {
		j := mate[i]
		if j < 0 {
			return nil, true // no complete pairing: C4 fails below the node
		}
		if i >= nq {
			continue
		}
		switch {
		case i < nb && j < nb && !(i < nm && j < nm):
			if i < j {
				gp++
			}
		case i < nb:
			down = append(down, all[i])
			if nb <= j && j < nq {
				pairedDown[all[i]] = true
				n7++
			}
		case j < nq && j >= nb && i < j:
			n7++
		}
	}
	if gp != need {
		return nil, false
	}
	ds := c.sortDown(down)
	paired := make([]bool, len(ds))
	for i, x := range ds {
		paired[i] = pairedDown[x]
	}
	return c.c7Part(ds, paired, n7), false
}

// nodeBound is a memoised nodeC7.
type nodeBound struct {
	seg  []int
	dead bool
}

// nodePruned reports whether the node of the remainder's search whose S1
// players s1 are still to be paired, with the S2 players not used yet,
// cannot beat the best candidate once its C7/C8 are bounded by nodeC7 (the
// bound depends only on the players left, so it is memoised on them).
func (c *bctx) nodePruned(s1, s2 []int, used []bool) bool {
	e := c.e
	rest := slices.Clone(s1)
	for j, y := range s2 {
		if !used[j] {
			rest = append(rest, y)
		}
	}
	sort.Ints(rest)
	k := key(c.limbo) + "|" + key(rest)
	nb, ok := c.memoNode[k]
	if !ok {
		nb.seg, nb.dead = c.nodeC7(rest, len(s1))
		c.memoNode[k] = nb
	}
	if nb.dead {
		return true
	}
	if nb.seg == nil {
		return false
	}
	seg := c.cur[e.o7() : e.o7()+1+e.k]
	if !less(seg, nb.seg) {
		return false
	}
	save := slices.Clone(seg)
	copy(seg, nb.seg)
	cut := c.pruned(c.cur)
	copy(seg, save)
	return cut
}

// nodeWorkBudget bounds, per round, the matchings of nodeC7, in vertices
// cubed: about a second of CPU.
const nodeWorkBudget = 400_000_000
