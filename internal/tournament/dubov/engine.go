package dubov

import (
	"cmp"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/toguz/toguz/internal/tournament"
)

// ErrUnpairable is tournament.ErrUnpairable: no pairing of the round
// satisfies the absolute criteria.
var ErrUnpairable = tournament.ErrUnpairable

// pl is a player as the engine sees it: the input and what follows from it.
type pl struct {
	Player
	pref  Colour
	str   strength
	maxUp bool // 1.8: upfloated MaxT times already
	met   map[int]bool
}

// engine pairs one round. ps is in the ranking order (A.2 of the older
// text, 1.3 here): score descending, then TPN ascending; indexes into it
// name the players everywhere below.
type engine struct {
	in     Input
	ps     []pl
	last   bool // the round is the last (C8-C10 do not apply)
	compat [][]bool
}

func newEngine(in Input) *engine {
	e := &engine{in: in, last: in.Rounds > 0 && in.Round >= in.Rounds}
	for _, p := range in.Players {
		q := pl{Player: p, met: map[int]bool{}}
		q.pref, q.str = preference(p.Colours)
		q.maxUp = p.Upfloats >= maxT(in.Rounds)
		for _, o := range p.Opponents {
			q.met[o] = true
		}
		e.ps = append(e.ps, q)
	}
	slices.SortStableFunc(e.ps, func(a, b pl) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.ID, b.ID))
	})
	n := len(e.ps)
	e.compat = make([][]bool, n)
	for i := range n {
		e.compat[i] = make([]bool, n)
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			a, b := &e.ps[i], &e.ps[j]
			// C1: no rematch; C3: no two players with the same absolute
			// colour preference.
			ok := !a.met[b.ID] && !b.met[a.ID] && !(a.str == absolute && b.str == absolute && a.pref == b.pref)
			e.compat[i][j], e.compat[j][i] = ok, ok
		}
	}
	return e
}

// PairRound pairs one round by the Dubov system.
func PairRound(in Input) (Pairing, error) {
	if err := in.validate(); err != nil {
		return Pairing{}, err
	}
	e := newEngine(in)
	rem := make([]int, len(e.ps))
	for i := range rem {
		rem[i] = i
	}
	var out Pairing
	if len(rem)%2 == 1 {
		b, err := e.bye(rem)
		if err != nil {
			return Pairing{}, err
		}
		out.Bye = e.ps[b].ID
		rem = slices.DeleteFunc(rem, func(i int) bool { return i == b })
	} else if !e.perfect(rem) {
		return Pairing{}, fmt.Errorf("%w: the players cannot all be paired", ErrUnpairable)
	}
	var pairs [][2]int
	for len(rem) > 0 {
		got, rest, err := e.bracket(rem)
		if err != nil {
			return Pairing{}, err
		}
		pairs = append(pairs, got...)
		rem = rest
	}
	// D.9: the boards by the score of the pair's higher ranked player,
	// then the sum of the scores, then the higher ranked player's rank.
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
	return out, nil
}

// perfect reports whether the players can all be paired (C4, the
// completion of the round).
func (e *engine) perfect(set []int) bool {
	if len(set)%2 == 1 {
		return false
	}
	mate := e.match(set, func(a, b int) (wide, bool) { return wide{}, e.compat[a][b] })
	for _, m := range mate {
		if m < 0 {
			return false
		}
	}
	return true
}

// match returns, for each player of set (by position), the position of
// his partner in a matching of the largest cardinality whose weight is the
// largest, -1 for none; weight says whether two players may meet and the
// weight of their pair.
func (e *engine) match(set []int, weight func(a, b int) (wide, bool)) []int {
	var edges []wEdge
	for x := range set {
		for y := x + 1; y < len(set); y++ {
			if w, ok := weight(set[x], set[y]); ok {
				// Shifted by one so that every allowed pair weighs more
				// than nothing: the matching keeps zero-weight edges.
				edges = append(edges, wEdge{i: x, j: y, w: w.shl(1).add(small(1))})
			}
		}
	}
	return maxWeightMatching(len(set), edges, true)
}

// bye chooses the player who gets the pairing-allocated bye (3.1): no bye
// or win without playing before (C2), the others can all be paired (C4),
// the lowest score, the most games played, the largest TPN.
func (e *engine) bye(rem []int) (int, error) {
	cand := slices.Clone(rem)
	slices.SortFunc(cand, func(a, b int) int {
		pa, pb := &e.ps[a], &e.ps[b]
		return cmp.Or(cmp.Compare(pa.Score, pb.Score), cmp.Compare(pb.games(), pa.games()), cmp.Compare(pb.ID, pa.ID))
	})
	for _, c := range cand {
		if e.ps[c].ByeReceived {
			continue
		}
		rest := slices.DeleteFunc(slices.Clone(rem), func(i int) bool { return i == c })
		if e.perfect(rest) {
			return c, nil
		}
	}
	return 0, fmt.Errorf("%w: no player can take the bye and leave the others pairable", ErrUnpairable)
}

// layout packs the criteria of a pair into a weight: one field per
// criterion, the most important highest, each wide enough for the sum
// over a whole pairing.
type layout struct{ width, fields int }

func newLayout(players, fields int) (layout, error) {
	l := layout{width: bits.Len(uint(players)) + 1, fields: fields}
	if l.width*fields > wideWords*64-8 {
		return l, errors.New("the bracket's criteria do not fit the matching's weights")
	}
	return l, nil
}

func (l layout) pack(vals []int) wide {
	var w wide
	for _, v := range vals {
		w = w.shl(l.width).add(small(v))
	}
	return w
}

// bracket pairs the bracket of the highest score among rem (3.2) and
// returns its pairs and the players left for the next one.
func (e *engine) bracket(rem []int) ([][2]int, []int, error) {
	top := e.ps[rem[0]].Score
	var res, low []int
	for _, i := range rem {
		if e.ps[i].Score == top {
			res = append(res, i)
		} else {
			low = append(low, i)
		}
	}
	isRes := func(i int) bool { return e.ps[i].Score == top }
	ups, err := e.upfloaters(rem, res, low, isRes)
	if err != nil {
		return nil, nil, err
	}
	br := append(slices.Clone(res), ups...)
	isUp := map[int]bool{}
	for _, u := range ups {
		isUp[u] = true
	}
	pairs, err := e.pairBracket(br, isUp)
	if err != nil {
		return nil, nil, err
	}
	rest := slices.DeleteFunc(slices.Clone(low), func(i int) bool { return isUp[i] })
	return pairs, rest, nil
}

// upfloaters chooses the bracket's upfloaters (3.2.1, 3.2.2): as few as a
// legal pairing of the residents needs (C5), then the pairing best by
// C6-C10, the set first in the order of 4.2 (score descending, TPN
// ascending) among the best. One maximum-weight matching of all the
// players left answers each question, so that the rest of the round can
// be completed (C4).
func (e *engine) upfloaters(rem, res, low []int, isRes func(int) bool) ([]int, error) {
	// No upfloater is best by C5 whenever the residents pair among
	// themselves and the others can still all be paired: then nothing is
	// left to choose here.
	if len(res)%2 == 0 && e.perfect(res) && e.perfect(low) {
		return nil, nil
	}
	top := e.ps[res[0]].Score
	var diffs, counts []int // C6's score differences, C9's upfloat counts
	for _, i := range low {
		diffs = append(diffs, top-e.ps[i].Score)
		if e.ps[i].maxUp {
			counts = append(counts, e.ps[i].Upfloats)
		}
	}
	diffs = distinctDesc(diffs)
	counts = distinctDesc(counts)
	nf := 1 + max(len(diffs)-1, 0) + 1 + 1 // C5, C6, C7, tie
	if !e.last {
		nf += 1 + max(len(counts)-1, 0) + 1 // C8, C9, C10
	}
	// In the largest events (hundreds of players, a score group at every
	// half point over many rounds) the weight cannot hold a C6 field for
	// every score below: the farthest are merged, so that upfloaters from
	// there are told apart by C7-C10 and the order alone. The nearest
	// scores, where upfloaters come from, keep theirs.
	if room := (wideWords*64 - 8) / (bits.Len(uint(len(rem))) + 1); nf > room {
		drop := min(nf-room, max(len(diffs)-1, 0))
		diffs, nf = diffs[drop:], nf-drop
	}
	lay, err := newLayout(len(rem), nf)
	if err != nil {
		return nil, err
	}
	fixed := map[int]bool{}    // chosen upfloaters: they meet a resident
	incentive := map[int]int{} // the one candidate being tried
	vals := make([]int, 0, nf)
	weight := func(a, b int) (wide, bool) {
		if !e.compat[a][b] {
			return wide{}, false
		}
		ra, rb := isRes(a), isRes(b)
		if !ra && !rb {
			if fixed[a] || fixed[b] {
				return wide{}, false
			}
			return wide{}, true
		}
		vals = vals[:0]
		if ra && rb {
			vals = append(vals, 1) // C5
			for range max(len(diffs)-1, 0) {
				vals = append(vals, 0)
			}
			vals = append(vals, e.noConflict(a, b))
			if !e.last {
				vals = append(vals, 0)
				for range max(len(counts)-1, 0) {
					vals = append(vals, 0)
				}
				vals = append(vals, 0)
			}
			vals = append(vals, 0)
			return lay.pack(vals), true
		}
		u := b // the upfloater
		if !ra {
			u = a
		}
		up := &e.ps[u]
		vals = append(vals, 0)
		d := top - up.Score
		for _, dd := range diffs[:max(len(diffs)-1, 0)] {
			vals = append(vals, b2i(d < dd)) // C6: fewer upfloaters at each difference from the largest down
		}
		vals = append(vals, e.noConflict(a, b)) // C7
		if !e.last {
			vals = append(vals, b2i(!up.maxUp)) // C8
			for _, c := range counts[:max(len(counts)-1, 0)] {
				vals = append(vals, b2i(up.maxUp && up.Upfloats < c)) // C9
			}
			vals = append(vals, b2i(!up.UpfloatedLast)) // C10
		}
		vals = append(vals, incentive[u])
		return lay.pack(vals), true
	}
	pos := map[int]int{}
	for x, i := range rem {
		pos[i] = x
	}
	solve := func() ([]int, error) {
		mate := e.match(rem, weight)
		for _, m := range mate {
			if m < 0 {
				return nil, fmt.Errorf("%w: the round cannot be completed", ErrUnpairable)
			}
		}
		return mate, nil
	}
	mate, err := solve()
	if err != nil {
		return nil, err
	}
	upOf := func(mate []int, i int) bool { return isRes(rem[mate[pos[i]]]) }
	need := 0
	for _, i := range low {
		if upOf(mate, i) {
			need++
		}
	}
	order := slices.Clone(low) // 4.2: score descending, TPN ascending
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(e.ps[b].Score, e.ps[a].Score), cmp.Compare(e.ps[a].ID, e.ps[b].ID))
	})
	// Every best set has the same C6 differences, and as many maximum
	// upfloaters and players upfloated the round before (C8, C10): a
	// candidate who would change them is in none and needs no matching.
	needD := map[int]int{}
	needMax, needLast := 0, 0
	for _, i := range low {
		if upOf(mate, i) {
			needD[top-e.ps[i].Score]++
			needMax += b2i(e.ps[i].maxUp)
			needLast += b2i(e.ps[i].UpfloatedLast)
		}
	}
	var ups []int
	for _, c := range order {
		if len(ups) == need {
			break
		}
		p := &e.ps[c]
		if needD[top-p.Score] == 0 || !e.last && (p.maxUp && needMax == 0 || p.UpfloatedLast && needLast == 0) {
			continue
		}
		if !upOf(mate, c) {
			incentive[c] = 1
			m2, err := solve()
			incentive[c] = 0
			if err != nil {
				return nil, err
			}
			if !upOf(m2, c) {
				continue
			}
			mate = m2
		}
		ups = append(ups, c)
		fixed[c] = true
		needD[top-p.Score]--
		needMax -= b2i(p.maxUp)
		needLast -= b2i(p.UpfloatedLast)
	}
	if len(ups) != need {
		return nil, fmt.Errorf("internal error: %d upfloaters chosen of %d", len(ups), need)
	}
	return ups, nil
}

func (e *engine) noConflict(a, b int) int { return b2i(e.ps[a].pref != e.ps[b].pref) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func distinctDesc(xs []int) []int {
	slices.Sort(xs)
	xs = slices.Compact(xs)
	slices.Reverse(xs)
	return xs
}
