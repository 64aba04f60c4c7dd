package doubleswiss

import (
	"cmp"
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
)

// refRound is the slow, obviously correct reference: the regulation's
// procedure with every choice made by listing all candidates (every set of
// upfloaters, every pairing of a bracket), computing the criteria of each
// and taking the least in the regulation's order. No matching algorithm,
// no pruning.
func refRound(in Input) ([]Pair, error) {
	pl := slices.Clone(in.Players)
	slices.SortFunc(pl, func(a, b Player) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return a.TPN - b.TPN
	})
	met := func(a, b int) bool {
		return slices.Contains(pl[a].Opponents, pl[b].TPN) || slices.Contains(pl[b].Opponents, pl[a].TPN)
	}
	// pairings lists every pairing of set (indices) by [C1].
	var pairings func(set []int) [][][2]int
	pairings = func(set []int) [][][2]int {
		if len(set) == 0 {
			return [][][2]int{nil}
		}
		if len(set)%2 == 1 {
			return nil
		}
		var out [][][2]int
		for j := 1; j < len(set); j++ {
			if met(set[0], set[j]) {
				continue
			}
			rest := slices.Concat(set[1:j], set[j+1:])
			for _, p := range pairings(rest) {
				out = append(out, append([][2]int{{set[0], set[j]}}, p...))
			}
		}
		return out
	}
	legal := func(set []int) bool { return len(pairings(set)) > 0 }
	var all []int
	for i := range pl {
		all = append(all, i)
	}
	bye := -1
	if len(all)%2 == 1 {
		cands := slices.Clone(all)
		slices.SortFunc(cands, func(a, b int) int {
			return cmp.Or(cmp.Compare(pl[a].Score, pl[b].Score), pl[b].Matches-pl[a].Matches, pl[b].TPN-pl[a].TPN)
		})
		for _, c := range cands {
			if !pl[c].NoBye && legal(slices.DeleteFunc(slices.Clone(all), func(i int) bool { return i == c })) {
				bye = c
				break
			}
		}
		if bye < 0 {
			return nil, ErrUnpairable
		}
	} else if !legal(all) {
		return nil, ErrUnpairable
	}
	subsets := func(xs []int) [][]int {
		var out [][]int
		for mask := 0; mask < 1<<len(xs); mask++ {
			var s []int
			for i, x := range xs {
				if mask&(1<<i) != 0 {
					s = append(s, x)
				}
			}
			out = append(out, s)
		}
		return out
	}
	minus := func(xs, ys []int) []int {
		return slices.DeleteFunc(slices.Clone(xs), func(x int) bool { return slices.Contains(ys, x) })
	}
	top := func(set []int) ([]int, []int) {
		g := 0
		for g < len(set) && pl[set[g]].Score == pl[set[0]].Score {
			g++
		}
		return set[:g], set[g:]
	}
	need := func(rest []int) int { // [C6]: 1 if the next bracket needs more upfloaters than its parity
		if len(rest) == 0 {
			return 0
		}
		res, low := top(rest)
		best := len(low) + 1
		for _, u := range subsets(low) {
			if len(u) < best && legal(slices.Concat(res, u)) && legal(minus(low, u)) {
				best = len(u)
			}
		}
		if best > len(res)%2 {
			return 1
		}
		return 0
	}
	unpaired := minus(all, []int{bye})
	var pairs [][2]int
	for len(unpaired) > 0 {
		res, low := top(unpaired)
		type cand struct {
			u      []int
			key    []float64
			tpns   []int
			c6, c7 int
		}
		var cands []cand
		for _, u := range subsets(low) {
			if (len(res)+len(u))%2 == 1 || !legal(slices.Concat(res, u)) || !legal(minus(low, u)) {
				continue
			}
			// u is in rank order: score descending, then TPN.
			c := cand{u: u, c6: need(minus(low, u))}
			for _, x := range u {
				c.key = append(c.key, -pl[x].Score)
				c.tpns = append(c.tpns, pl[x].TPN)
				if pl[x].Floated && !in.LastRound {
					c.c7++
				}
			}
			cands = append(cands, c)
		}
		best := slices.MinFunc(cands, func(a, b cand) int {
			return cmp.Or(len(a.u)-len(b.u), slices.Compare(a.key, b.key), a.c6-b.c6, a.c7-b.c7, slices.Compare(a.tpns, b.tpns))
		})
		b := slices.Concat(res, best.u)
		slices.Sort(b)
		up := func(x int) bool { return slices.Contains(best.u, x) }
		type bp struct {
			p  [][2]int
			c8 int
			id []int
		}
		var bps []bp
		for _, p := range pairings(b) {
			c := bp{}
			for _, pr := range p {
				t, o := min(pr[0], pr[1]), max(pr[0], pr[1]) // rank order: the top member first
				c.p = append(c.p, [2]int{t, o})
				if !in.LastRound && ((up(t) && !up(o) && pl[o].Floated) || (up(o) && !up(t) && pl[t].Floated)) {
					c.c8++
				}
			}
			slices.SortFunc(c.p, func(x, y [2]int) int { return pl[x[0]].TPN - pl[y[0]].TPN })
			for _, pr := range c.p {
				c.id = append(c.id, pl[pr[0]].TPN)
			}
			for _, pr := range c.p {
				c.id = append(c.id, pl[pr[1]].TPN)
			}
			bps = append(bps, c)
		}
		first := slices.MinFunc(bps, func(a, b bp) int { return cmp.Or(a.c8-b.c8, slices.Compare(a.id, b.id)) })
		pairs = append(pairs, first.p...)
		unpaired = minus(unpaired, b)
	}
	slices.SortFunc(pairs, func(a, b [2]int) int { return a[0] - b[0] })
	var out []Pair
	for _, p := range pairs {
		h, o := pl[p[0]], pl[p[1]]
		if refHRPWhite(h, o, in.Initial) {
			out = append(out, Pair{h.TPN, o.TPN})
		} else {
			out = append(out, Pair{o.TPN, h.TPN})
		}
	}
	if bye >= 0 {
		out = append(out, Pair{White: pl[bye].TPN})
	}
	return out, nil
}

// refHRPWhite is 4.3 as the text reads, step by step.
func refHRPWhite(h, o Player, initial Colour) bool {
	if initial == None {
		initial = White
	}
	count := func(p Player, c Colour) int {
		n := 0
		for _, x := range p.Colours {
			if x == c {
				n++
			}
		}
		return n
	}
	if count(h, White)+count(h, Black) == 0 && count(o, White)+count(o, Black) == 0 {
		return (h.TPN%2 == 1) == (initial == White)
	}
	if wh, wo := count(h, White), count(o, White); wh != wo {
		return wh < wo
	}
	for k := len(h.Colours) - 1; k >= 0; k-- {
		if k < len(o.Colours) && h.Colours[k] != None && o.Colours[k] != None && h.Colours[k] != o.Colours[k] {
			return h.Colours[k] == Black
		}
	}
	for k := len(h.Colours) - 1; k >= 0; k-- {
		if h.Colours[k] != None {
			return h.Colours[k] == Black
		}
	}
	for k := len(o.Colours) - 1; k >= 0; k-- {
		if o.Colours[k] != None {
			return o.Colours[k] == White
		}
	}
	return true
}

// simulate plays a random tournament of n players and r rounds, pairing
// each round with pair; check is called with each round's input.
func simulate(rng *rand.Rand, n, rounds int, check func(in Input) ([]Pair, bool)) {
	type hist struct {
		score   float64
		opps    []int
		colours []Colour
		noBye   bool
		matches int
		floated bool
	}
	h := make([]hist, n+1)
	for r := 1; r <= rounds; r++ {
		in := Input{LastRound: r == rounds, Initial: Colour(1 + rng.IntN(2))}
		absent := map[int]bool{}
		for t := 1; t <= n; t++ {
			if r > 1 && rng.IntN(12) == 0 {
				absent[t] = true
				continue
			}
			x := h[t]
			in.Players = append(in.Players, Player{TPN: t, Score: x.score, Opponents: x.opps, Colours: slices.Clone(x.colours), NoBye: x.noBye, Matches: x.matches, Floated: x.floated})
		}
		pairs, ok := check(in)
		if !ok {
			return
		}
		before := make([]float64, n+1)
		for t := 1; t <= n; t++ {
			before[t] = h[t].score
			h[t].floated = false
		}
		paired := map[int]bool{}
		for _, p := range pairs {
			paired[p.White], paired[p.Black] = true, true
			if p.Black == 0 {
				h[p.White].score += 1.5
				h[p.White].noBye = true
				h[p.White].colours = append(h[p.White].colours, None)
				continue
			}
			w, b := &h[p.White], &h[p.Black]
			if before[p.White] != before[p.Black] {
				w.floated, b.floated = true, true
			}
			switch rng.IntN(20) {
			case 0: // Black forfeits both games
				w.score += 2
				w.noBye = true
				w.colours = append(w.colours, None)
				b.colours = append(b.colours, None)
				continue
			}
			w.opps = append(w.opps, p.Black)
			b.opps = append(b.opps, p.White)
			w.matches++
			b.matches++
			w.colours = append(w.colours, White)
			b.colours = append(b.colours, Black)
			for range 2 {
				x := float64(rng.IntN(3)) / 2
				w.score += x
				b.score += 1 - x
			}
		}
		for t := 1; t <= n; t++ {
			if !paired[t] {
				h[t].colours = append(h[t].colours, None)
			}
		}
	}
}

func TestAgainstReference(t *testing.T) {
	runs := 400
	if n, err := strconv.Atoi(os.Getenv("DOUBLESWISS_RUNS")); err == nil {
		runs = n // a longer comparison: DOUBLESWISS_RUNS=5000
	}
	if testing.Short() {
		runs = 60
	}
	rng := rand.New(rand.NewPCG(7, 28))
	compared := 0
	for run := range runs {
		n := 2 + rng.IntN(9)
		rounds := 1 + rng.IntN(6)
		simulate(rng, n, rounds, func(in Input) ([]Pair, bool) {
			got, err := Round(in)
			want, werr := refRound(in)
			if (err != nil) != (werr != nil) || (err != nil && !errors.Is(err, ErrUnpairable)) {
				t.Fatalf("run %d: errors differ: %v, reference %v\ninput %+v", run, err, werr, in)
			}
			if err != nil {
				return nil, false
			}
			compared++
			if !slices.Equal(got, want) {
				t.Fatalf("run %d: pairs %v, reference %v\ninput %+v", run, got, want, in)
			}
			return got, true
		})
	}
	t.Logf("%d rounds compared", compared)
}
