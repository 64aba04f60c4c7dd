package burstein

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/toguz/toguz/internal/tournament/dutch"
)

// refPair is the slow, obviously correct reference of PairRound's choice
// of pairs and bye: it enumerates, bracket by bracket, every set of pairs of
// the residents that leaves a complete pairing of the round (C4), scores
// each on C5-C8 as the articles word them (C7 over every completion of the
// round), and takes the best, the first in the order of 4 among equals.
// The pairs come out as sorted ID pairs, sorted.
func refPair(in Input) ([][2]int, int, error) {
	var ps []pl
	for _, p := range in.Players {
		if !p.Absent {
			ps = append(ps, newPl(p))
		}
	}
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].Score != ps[j].Score {
			return ps[i].Score > ps[j].Score
		}
		return ranks(&ps[i], &ps[j])
	})
	all := make([]int, len(ps))
	for i := range all {
		all[i] = i
	}
	ok := func(a, b int) bool { return compatible(&ps[a], &ps[b]) }
	bye := 0
	left := all
	if len(ps)%2 == 1 {
		cand := slices.Clone(all)
		sort.SliceStable(cand, func(x, y int) bool {
			a, b := &ps[cand[x]], &ps[cand[y]]
			if a.Score != b.Score {
				return a.Score < b.Score
			}
			if a.Games != b.Games {
				return a.Games > b.Games
			}
			return ranks(b, a)
		})
		found := false
		for _, c := range cand {
			if !ps[c].ByeReceived && len(matchings(remove(all, c), ok, 1)) > 0 {
				bye, left, found = ps[c].ID, remove(all, c), true
				break
			}
		}
		if !found {
			return nil, 0, ErrNoPairing
		}
	} else if len(matchings(all, ok, 1)) == 0 {
		return nil, 0, ErrNoPairing
	}
	var out [][2]int
	for prev := -1; len(left) > 0; {
		res, low := brackets(ps, left, prev)
		prev = ps[res[0]].Score
		for _, i := range res {
			prev = min(prev, ps[i].Score)
		}
		inLow := map[int]bool{}
		for _, i := range low {
			inLow[i] = true
		}
		type cand struct {
			pairs [][2]int
			q     []int // C5, -C6..., C7..., C8: larger is better
			order []int // BSN of each resident's opponent, 0 for a float
		}
		var best *cand
		for _, pairs := range bracketCandidates(res, ok) {
			rest := slices.Clone(left)
			paired := map[int]bool{}
			for _, pr := range pairs {
				rest = remove(remove(rest, pr[0]), pr[1])
				paired[pr[0]], paired[pr[1]] = true, true
			}
			comps := matchings(rest, ok, -1)
			if len(comps) == 0 {
				continue // C4
			}
			var floats []int
			for _, i := range res {
				if !paired[i] {
					floats = append(floats, ps[i].Score)
				}
			}
			sort.Sort(sort.Reverse(sort.IntSlice(floats)))
			q := []int{len(pairs)}
			for k := range res {
				v := 0
				if k < len(floats) {
					v = floats[k]
				}
				q = append(q, -v)
			}
			// C7: the next bracket's pairs, then its floaters' scores
			// (the incoming floaters it pairs, by score from the top).
			var c7 []int
			for _, m := range comps {
				np := 0
				var up []int
				for _, pr := range m {
					a, b := pr[0], pr[1]
					if (inLow[a] || !paired[a] && slices.Contains(res, a)) && (inLow[b] || !paired[b] && slices.Contains(res, b)) && (inLow[a] || inLow[b]) {
						np++
						for _, x := range []int{a, b} {
							if !inLow[x] {
								up = append(up, ps[x].Score)
							}
						}
					}
				}
				sort.Sort(sort.Reverse(sort.IntSlice(up)))
				key := []int{np}
				key = append(key, levels(ps, res, up)...)
				if c7 == nil || slices.Compare(key, c7) > 0 {
					c7 = key
				}
			}
			q = append(q, c7...)
			c8 := 0
			for _, pr := range pairs {
				a, b := &ps[pr[0]], &ps[pr[1]]
				if !(a.pref != dutch.None && a.pref == b.pref) {
					c8++
				}
			}
			q = append(q, c8)
			bsn := map[int]int{}
			for k, i := range res {
				bsn[i] = k + 1
			}
			order := make([]int, len(res))
			for _, pr := range pairs {
				order[bsn[pr[0]]-1] = bsn[pr[1]]
				order[bsn[pr[1]]-1] = bsn[pr[0]]
			}
			c := &cand{pairs, q, order}
			if best == nil || slices.Compare(c.q, best.q) > 0 || (slices.Compare(c.q, best.q) == 0 && slices.Compare(c.order, best.order) > 0) {
				best = c
			}
		}
		if best == nil {
			return nil, 0, errors.New("reference: no candidate")
		}
		for _, pr := range best.pairs {
			a, b := ps[pr[0]].ID, ps[pr[1]].ID
			out = append(out, [2]int{min(a, b), max(a, b)})
			left = remove(remove(left, pr[0]), pr[1])
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out, bye, nil
}

// levels counts the scores of up by the residents' scores, the highest
// first.
func levels(ps []pl, res []int, up []int) []int {
	var ss []int
	for _, i := range res {
		if !slices.Contains(ss, ps[i].Score) {
			ss = append(ss, ps[i].Score)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(ss)))
	out := make([]int, len(ss))
	for k, s := range ss {
		for _, u := range up {
			if u == s {
				out[k]++
			}
		}
	}
	return out
}

// bracketCandidates lists every set of disjoint compatible pairs of res.
func bracketCandidates(res []int, ok func(a, b int) bool) [][][2]int {
	var out [][][2]int
	var rec func(rest []int, acc [][2]int)
	rec = func(rest []int, acc [][2]int) {
		if len(rest) == 0 {
			out = append(out, slices.Clone(acc))
			return
		}
		a := rest[0]
		rec(rest[1:], acc) // a floats
		for k := 1; k < len(rest); k++ {
			if ok(a, rest[k]) {
				nr := append(slices.Clone(rest[1:k]), rest[k+1:]...)
				rec(nr, append(acc, [2]int{a, rest[k]}))
			}
		}
	}
	rec(res, nil)
	return out
}

// matchings lists the perfect matchings of set (at most limit, -1 for all).
func matchings(set []int, ok func(a, b int) bool, limit int) [][][2]int {
	var out [][][2]int
	var rec func(rest []int, acc [][2]int)
	rec = func(rest []int, acc [][2]int) {
		if limit >= 0 && len(out) >= limit {
			return
		}
		if len(rest) == 0 {
			out = append(out, slices.Clone(acc))
			return
		}
		a := rest[0]
		for k := 1; k < len(rest); k++ {
			if ok(a, rest[k]) {
				nr := append(slices.Clone(rest[1:k]), rest[k+1:]...)
				rec(nr, append(acc, [2]int{a, rest[k]}))
			}
		}
	}
	if len(set)%2 == 0 {
		rec(set, nil)
	}
	return out
}

// randomInput is a round of n players after four played: random scores,
// colours, opponents, Index and bye status, with ties on purpose.
func randomInput(rng *rand.Rand, n int) Input {
	in := Input{Round: 5, InitialColour: dutch.White}
	met := map[[2]int]bool{}
	for a := 1; a <= n; a++ {
		for b := a + 1; b <= n; b++ {
			if rng.IntN(4) == 0 {
				met[[2]int{a, b}] = true
			}
		}
	}
	for id := 1; id <= n; id++ {
		p := Player{ID: id, Score: 2 * rng.IntN(4), Buchholz: rng.IntN(4), SonnebornBerger: rng.IntN(3),
			Games: 2 + rng.IntN(3), ByeReceived: rng.IntN(3) == 0}
		p.Points = p.Score
		for k := 0; k < 4; k++ {
			p.Colours = append(p.Colours, []dutch.Colour{dutch.White, dutch.Black, dutch.None}[rng.IntN(3)])
		}
		for o := 1; o <= n; o++ {
			if met[[2]int{min(id, o), max(id, o)}] {
				p.Opponents = append(p.Opponents, o)
			}
		}
		in.Players = append(in.Players, p)
	}
	return in
}

// TestAgainstReference pairs random rounds of 4 to 11 players both ways:
// the matching-based pairing and the enumeration of refPair choose the
// same pairs and the same bye, or both find none.
func TestAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	cases := 400
	if testing.Short() {
		cases = 100
	}
	for c := range cases {
		in := randomInput(rng, 4+rng.IntN(8))
		got, err := PairRound(in)
		want, wbye, werr := refPair(in)
		if (err != nil) != (werr != nil) {
			t.Fatalf("case %d: PairRound error %v, reference %v", c, err, werr)
		}
		if err != nil {
			continue
		}
		var gp [][2]int
		for _, pr := range got.Pairs {
			gp = append(gp, [2]int{min(pr.White, pr.Black), max(pr.White, pr.Black)})
		}
		sort.Slice(gp, func(i, j int) bool { return gp[i][0] < gp[j][0] })
		if fmt.Sprint(gp) != fmt.Sprint(want) || got.Bye != wbye {
			t.Fatalf("case %d: %+v\n got  %v bye %d\n want %v bye %d", c, in.Players, gp, got.Bye, want, wbye)
		}
	}
}
