package dubov

import (
	"cmp"
	"slices"
)

// referencePair pairs a round the slow way: every step of the rules is a
// choice among all the pairings of the players concerned, enumerated,
// and ranked by the criteria as the articles state them. It is for small
// rounds only (a dozen players) and shares with the engine only the
// player data (ranking order, compatibility, colour preferences) and the
// colour allocation.
func referencePair(in Input) (Pairing, bool) {
	e := newEngine(in)
	rem := make([]int, len(e.ps))
	for i := range rem {
		rem[i] = i
	}
	var out Pairing
	if len(rem)%2 == 1 {
		// 3.1: C2, C4, the lowest score, the most games, the largest TPN.
		cand := slices.Clone(rem)
		slices.SortFunc(cand, func(a, b int) int {
			pa, pb := &e.ps[a], &e.ps[b]
			return cmp.Or(cmp.Compare(pa.Score, pb.Score), cmp.Compare(pb.games(), pa.games()), cmp.Compare(pb.ID, pa.ID))
		})
		bye := -1
		for _, c := range cand {
			rest := without(rem, c)
			if !e.ps[c].ByeReceived && len(e.allMatchings(rest, nil)) > 0 {
				bye = c
				break
			}
		}
		if bye < 0 {
			return Pairing{}, false
		}
		out.Bye = e.ps[bye].ID
		rem = without(rem, bye)
	}
	if len(e.allMatchings(rem, nil)) == 0 {
		return Pairing{}, false
	}
	var pairs [][2]int
	for len(rem) > 0 {
		top := e.ps[rem[0]].Score
		isRes := func(i int) bool { return e.ps[i].Score == top }
		// 3.2.1, 3.2.2: the complete pairings of everyone left, ranked by
		// C5-C10 over the pairs with a resident; then the first set of
		// upfloaters by 4.2 among the best.
		var best []int
		var bestSet []int
		for _, m := range e.allMatchings(rem, nil) {
			q, set := e.refQuality(m, isRes, top)
			if best == nil || slices.Compare(q, best) < 0 || slices.Compare(q, best) == 0 && e.seqLess(set, bestSet) {
				best, bestSet = q, set
			}
		}
		var br []int
		isUp := map[int]bool{}
		for _, i := range rem {
			if isRes(i) {
				br = append(br, i)
			}
		}
		for _, u := range bestSet {
			br = append(br, u)
			isUp[u] = true
		}
		slices.Sort(br)
		got := e.refBracket(br, isUp)
		pairs = append(pairs, got...)
		var rest []int
		for _, i := range rem {
			if !isRes(i) && !isUp[i] {
				rest = append(rest, i)
			}
		}
		rem = rest
	}
	for k := range pairs {
		if pairs[k][1] < pairs[k][0] {
			pairs[k][0], pairs[k][1] = pairs[k][1], pairs[k][0]
		}
	}
	slices.SortFunc(pairs, func(a, b [2]int) int {
		pa, pb := &e.ps[a[0]], &e.ps[b[0]]
		return cmp.Or(cmp.Compare(pb.Score, pa.Score),
			cmp.Compare(pb.Score+e.ps[b[1]].Score, pa.Score+e.ps[a[1]].Score),
			cmp.Compare(a[0], b[0]))
	})
	for _, p := range pairs {
		w, b := e.colours(p[0], p[1])
		out.Pairs = append(out.Pairs, Pair{White: e.ps[w].ID, Black: e.ps[b].ID})
	}
	return out, true
}

func without(s []int, x int) []int {
	return slices.DeleteFunc(slices.Clone(s), func(i int) bool { return i == x })
}

// allMatchings lists every pairing of set by the absolute criteria (and
// allowed, when given).
func (e *engine) allMatchings(set []int, allowed func(a, b int) bool) [][][2]int {
	if len(set) == 0 {
		return [][][2]int{nil}
	}
	if len(set)%2 == 1 {
		return nil
	}
	a := set[0]
	var out [][][2]int
	for k := 1; k < len(set); k++ {
		b := set[k]
		if !e.compat[a][b] || allowed != nil && !allowed(a, b) {
			continue
		}
		rest := append(slices.Clone(set[1:k]), set[k+1:]...)
		for _, m := range e.allMatchings(rest, allowed) {
			out = append(out, append([][2]int{{a, b}}, m...))
		}
	}
	return out
}

// refQuality is the vector of C5-C10 of a complete pairing's pairs with a
// resident, smaller better, and the upfloaters.
func (e *engine) refQuality(m [][2]int, isRes func(int) bool, top int) ([]int, []int) {
	var ups, diffs, counts []int
	conflicts, maxUps, last := 0, 0, 0
	for _, p := range m {
		a, b := p[0], p[1]
		if !isRes(a) && !isRes(b) {
			continue
		}
		if e.ps[a].pref == e.ps[b].pref {
			conflicts++ // C7: one of the two does not get his colour
		}
		if isRes(a) && isRes(b) {
			continue
		}
		u := a
		if isRes(a) {
			u = b
		}
		ups = append(ups, u)
		diffs = append(diffs, top-e.ps[u].Score)
		if e.ps[u].maxUp {
			maxUps++
			counts = append(counts, e.ps[u].Upfloats)
		}
		if e.ps[u].UpfloatedLast {
			last++
		}
	}
	slices.Sort(diffs)
	slices.Reverse(diffs) // C6: the differences in descending order
	slices.Sort(counts)
	slices.Reverse(counts)
	q := []int{len(ups)} // C5
	q = append(q, pad(diffs, 64)...)
	q = append(q, conflicts)
	if !e.last {
		q = append(q, maxUps)             // C8
		q = append(q, pad(counts, 64)...) // C9
		q = append(q, last)               // C10
	}
	return q, ups
}

func pad(xs []int, n int) []int {
	out := make([]int, n)
	copy(out, xs)
	return out
}

// seqLess compares two sets of upfloaters by 4.2's sequence numbers
// (score descending, TPN ascending), the sets' numbers in ascending order.
func (e *engine) seqLess(a, b []int) bool {
	key := func(s []int) []int {
		s = slices.Clone(s)
		slices.SortFunc(s, func(x, y int) int {
			return cmp.Or(cmp.Compare(e.ps[y].Score, e.ps[x].Score), cmp.Compare(e.ps[x].ID, e.ps[y].ID))
		})
		k := make([]int, 0, 2*len(s))
		for _, i := range s {
			k = append(k, -e.ps[i].Score, e.ps[i].ID)
		}
		return k
	}
	return slices.Compare(key(a), key(b)) < 0
}

// refBracket pairs a bracket by 3.2.3-3.2.5, each choice made over every
// legal pairing of the bracket that is best by C7.
func (e *engine) refBracket(br []int, isUp map[int]bool) [][2]int {
	noUpUp := func(a, b int) bool { return !(isUp[a] && isUp[b]) }
	all := e.allMatchings(br, noUpUp)
	conf := func(m [][2]int) int {
		n := 0
		for _, p := range m {
			if e.ps[p[0]].pref == e.ps[p[1]].pref {
				n++
			}
		}
		return n
	}
	bestC7 := len(br)
	for _, m := range all {
		bestC7 = min(bestC7, conf(m))
	}
	var opt [][][2]int
	for _, m := range all {
		if conf(m) == bestC7 {
			opt = append(opt, m)
		}
	}
	inG1 := map[int]bool{}
	fresh := true
	for _, i := range br {
		if e.ps[i].games() > 0 {
			fresh = false
		}
	}
	if fresh {
		byTPN := slices.Clone(br)
		slices.SortFunc(byTPN, func(a, b int) int { return cmp.Compare(e.ps[a].ID, e.ps[b].ID) })
		for _, i := range byTPN[:len(byTPN)/2] {
			inG1[i] = true
		}
	} else {
		for _, i := range br {
			inG1[i] = e.ps[i].pref == White
		}
	}
	maxCross := func() int {
		best := -1
		for _, m := range opt {
			c := 0
			for _, p := range m {
				if inG1[p[0]] != inG1[p[1]] {
					c++
				}
			}
			best = max(best, c)
		}
		return best
	}
	group := func(g1 bool) []int {
		var out []int
		for _, i := range br {
			if inG1[i] == g1 {
				out = append(out, i)
			}
		}
		e.sortGroup(out, g1)
		return out
	}
	// shiftSet moves the first n-subset (in sequence order) of a subgroup
	// that makes the most crossing pairs n more, if any.
	shiftSet := func(fromG1 bool, n int) {
		if n == 0 {
			return
		}
		seq := middleOut(group(fromG1))
		want := maxCross() + n
		for _, sub := range subsets(len(seq), n) {
			for _, x := range sub {
				inG1[seq[x]] = !fromG1
			}
			if maxCross() == want {
				return
			}
			for _, x := range sub {
				inG1[seq[x]] = fromG1
			}
		}
	}
	n1 := len(group(true))
	smallG1 := n1 <= len(br)-n1
	small := n1
	if !smallG1 {
		small = len(br) - n1
	}
	shiftSet(smallG1, (small-maxCross())/2)
	n1 = len(group(true))
	if d := n1 - (len(br) - n1); d != 0 {
		shiftSet(d > 0, max(d, -d)/2)
	}
	m := len(br) / 2
	if maxCross() != m {
		return nil // the engine's fallback; the test reports a difference
	}
	s1, g2 := group(true), group(false)
	for _, perm := range permutations(g2) {
		ok := true
		var pairs [][2]int
		c := 0
		for x := range s1 {
			a, b := s1[x], perm[x]
			if !e.compat[a][b] || !noUpUp(a, b) {
				ok = false
				break
			}
			if e.ps[a].pref == e.ps[b].pref {
				c++
			}
			pairs = append(pairs, [2]int{a, b})
		}
		if ok && c == bestC7 {
			return pairs
		}
	}
	return nil
}

// subsets lists the n-subsets of 0..k-1 in lexicographic order.
func subsets(k, n int) [][]int {
	var out [][]int
	var rec func(start int, cur []int)
	rec = func(start int, cur []int) {
		if len(cur) == n {
			out = append(out, slices.Clone(cur))
			return
		}
		for i := start; i < k; i++ {
			rec(i+1, append(cur, i))
		}
	}
	rec(0, nil)
	return out
}

// permutations lists the orderings of s in lexicographic order of
// positions.
func permutations(s []int) [][]int {
	if len(s) == 0 {
		return [][]int{nil}
	}
	var out [][]int
	for i := range s {
		rest := append(slices.Clone(s[:i]), s[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]int{s[i]}, p...))
		}
	}
	return out
}
