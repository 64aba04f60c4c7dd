package dubov

import (
	"cmp"
	"fmt"
	"slices"
)

// pairBracket pairs the bracket's players, residents and the upfloaters
// chosen (who do not meet each other), by 3.2.3-3.2.5: the subgroups G1
// (White seekers) and G2, the shifts that make the pairing legal and the
// subgroups equal, then S1 (G1 by ascending ARO) against the first
// transposition of G2 that yields a legal pairing. Every step keeps the
// bracket's C7 (the colour preferences granted) at its best; its other
// criteria are fixed by the upfloaters.
func (e *engine) pairBracket(br []int, isUp map[int]bool) ([][2]int, error) {
	slices.Sort(br) // the ranking order
	lay, err := newLayout(len(br), 2)
	if err != nil {
		return nil, err
	}
	inG1 := map[int]bool{}
	fresh := true
	for _, i := range br {
		if e.ps[i].games() > 0 {
			fresh = false
		}
	}
	// 3.2.3: G1 holds the White seekers; when no player of the bracket
	// has played yet, the first half by TPN.
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
	bipartite := false
	partner := map[int]int{} // pairs fixed while choosing the transposition
	weight := func(a, b int) (wide, bool) {
		if !e.compat[a][b] || isUp[a] && isUp[b] {
			return wide{}, false
		}
		if p, ok := partner[a]; ok && p != b {
			return wide{}, false
		}
		if p, ok := partner[b]; ok && p != a {
			return wide{}, false
		}
		cross := inG1[a] != inG1[b]
		if bipartite && !cross {
			return wide{}, false
		}
		return lay.pack([]int{e.noConflict(a, b), b2i(cross)}), true
	}
	type result struct {
		c7, cross int
		perfect   bool
		pairs     [][2]int
	}
	eval := func() result {
		mate := e.match(br, weight)
		r := result{perfect: true}
		for x, y := range mate {
			if y < 0 {
				r.perfect = false
				continue
			}
			if x < y {
				a, b := br[x], br[y]
				r.c7 += e.noConflict(a, b)
				r.cross += b2i(inG1[a] != inG1[b])
				r.pairs = append(r.pairs, [2]int{a, b})
			}
		}
		return r
	}
	cur := eval()
	if !cur.perfect {
		return nil, fmt.Errorf("internal error: the bracket of %d players cannot be paired", len(br))
	}
	m := len(br) / 2
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
	// shift moves up to n players of one subgroup into the other, the
	// first in the order of 4.3 whose move lets one more pair cross the
	// subgroups with C7 at its best (the best set, greedily).
	shift := func(fromG1 bool, n int) {
		for _, p := range middleOut(group(fromG1)) {
			if n == 0 {
				return
			}
			inG1[p] = !fromG1
			if r := eval(); r.perfect && r.c7 == cur.c7 && r.cross == cur.cross+1 {
				cur = r
				n--
				continue
			}
			inG1[p] = fromG1
		}
	}
	// 3.2.4.1: the pairs the smaller subgroup (G1 when equal) must play
	// within itself: as many of its players go to the other subgroup.
	n1 := len(group(true))
	smallG1 := n1 <= len(br)-n1
	within := 0
	for _, p := range cur.pairs {
		if inG1[p[0]] == smallG1 && inG1[p[1]] == smallG1 {
			within++
		}
	}
	shift(smallG1, within)
	// 3.2.4.2: equal sizes, shifting from the larger subgroup.
	n1 = len(group(true))
	if n1 != len(br)-n1 {
		largeG1 := n1 > len(br)-n1
		d := n1 - (len(br) - n1)
		shift(largeG1, max(d, -d)/2)
	}
	if cur.cross != m {
		// No partition lets every pair cross: the best pairing as found.
		return cur.pairs, nil
	}
	// 3.2.5: S1 against the first transposition of G2 (TPN order) that
	// yields a legal pairing, found player by player of S1.
	bipartite = true
	s1, g2 := group(true), group(false)
	used := map[int]bool{}
	for _, s := range s1 {
		found := false
		for _, t := range g2 {
			if used[t] {
				continue
			}
			partner[s], partner[t] = t, s
			if r := eval(); r.perfect && r.c7 == cur.c7 {
				used[t], found = true, true
				break
			}
			delete(partner, s)
			delete(partner, t)
		}
		if !found {
			return nil, fmt.Errorf("internal error: no transposition pairs player %d", e.ps[s].ID)
		}
	}
	var out [][2]int
	for _, s := range s1 {
		out = append(out, [2]int{s, partner[s]})
	}
	return out, nil
}

// sortGroup sorts a subgroup as 4.3.2 and 3.2.5 do: G1 by ascending ARO,
// then ascending TPN; G2 by ascending TPN.
func (e *engine) sortGroup(g []int, g1 bool) {
	slices.SortFunc(g, func(a, b int) int {
		pa, pb := &e.ps[a], &e.ps[b]
		if g1 {
			return cmp.Or(cmp.Compare(pa.ARO, pb.ARO), cmp.Compare(pa.ID, pb.ID))
		}
		return cmp.Compare(pa.ID, pb.ID)
	})
}

// middleOut returns a sorted list in the order of its sequence numbers by
// 4.3.3: the player in the remaining middle first, of two in the middle
// the one higher in the list.
func middleOut(list []int) []int {
	rest := slices.Clone(list)
	var out []int
	for len(rest) > 0 {
		k := (len(rest) - 1) / 2
		out = append(out, rest[k])
		rest = slices.Delete(rest, k, k+1)
	}
	return out
}

// colours gives the pair's colours (5.2) and returns White, Black; a is the
// higher ranked player (more points, or the smaller TPN).
func (e *engine) colours(a, b int) (int, int) {
	pa, pb := &e.ps[a], &e.ps[b]
	give := func(c Colour) (int, int) { // c is a's colour
		if c == White {
			return a, b
		}
		return b, a
	}
	switch {
	case pa.games() == 0 && pb.games() == 0: // 5.2.1
		c := e.in.InitialColour
		if c == None {
			c = White
		}
		if pa.ID%2 == 0 {
			c = -c
		}
		return give(c)
	case pa.pref != pb.pref: // 5.2.2
		return give(pa.pref)
	case pa.str > pb.str: // 5.2.3
		return give(pa.pref)
	case pb.str > pa.str:
		return give(-pb.pref)
	}
	// 5.2.4: alternate from the most recent time they had different
	// colours. Unplayed rounds do not count (the General Handling Rules):
	// the two players' games are compared from the latest back, each
	// skipping his own rounds without a game, as the endorsed programs
	// read the Dutch system's same rule.
	ga, gb := pa.played(), pb.played()
	for i := 1; i <= min(len(ga), len(gb)); i++ {
		if ca, cb := ga[len(ga)-i], gb[len(gb)-i]; ca != cb {
			return give(-ca)
		}
	}
	return give(pa.pref) // 5.2.5
}
