package dutch

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// bruteMatching is the best (cardinality first when maxCard, then weight)
// over every matching of a small graph.
func bruteMatching(nv int, edges []wEdge, maxCard bool) (card int, weight int64) {
	w := map[[2]int]int64{}
	for _, e := range edges {
		w[[2]int{min(e.i, e.j), max(e.i, e.j)}] = e.w
	}
	used := make([]bool, nv)
	bestC, bestW := -1, int64(-1)
	var rec func(v, c int, s int64)
	rec = func(v, c int, s int64) {
		for v < nv && used[v] {
			v++
		}
		if v == nv {
			if maxCard && (c > bestC || c == bestC && s > bestW) || !maxCard && s > bestW {
				bestC, bestW = c, s
			}
			return
		}
		used[v] = true
		rec(v+1, c, s) // v unmatched
		for u := v + 1; u < nv; u++ {
			if x, ok := w[[2]int{v, u}]; ok && !used[u] {
				used[u] = true
				rec(v+1, c+1, s+x)
				used[u] = false
			}
		}
		used[v] = false
	}
	rec(0, 0, 0)
	return bestC, bestW
}

func TestMaxWeightMatchingAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for it := range 3000 {
		nv := 1 + r.IntN(11)
		density := 1 + r.IntN(10)
		maxW := []int64{1, 2, 5, 40, 1000}[r.IntN(5)]
		var edges []wEdge
		for i := range nv {
			for j := i + 1; j < nv; j++ {
				if r.IntN(10) < density {
					edges = append(edges, wEdge{i, j, r.Int64N(maxW + 1)})
				}
			}
		}
		maxCard := r.IntN(2) == 0
		mate := maxWeightMatching(nv, edges, maxCard)
		w := map[[2]int]int64{}
		for _, e := range edges {
			w[[2]int{e.i, e.j}], w[[2]int{e.j, e.i}] = e.w, e.w
		}
		card, sum := 0, int64(0)
		for v, u := range mate {
			if u < 0 {
				continue
			}
			if mate[u] != v {
				t.Fatalf("case %d: mate not symmetric: %v", it, mate)
			}
			x, ok := w[[2]int{v, u}]
			if !ok {
				t.Fatalf("case %d: %d-%d is no edge", it, v, u)
			}
			if v < u {
				card++
				sum += x
			}
		}
		bc, bw := bruteMatching(nv, edges, maxCard)
		if maxCard && card != bc || sum != bw {
			t.Fatalf("case %d (nv %d, maxCard %v): got %d pairs weight %d, best %d pairs weight %d\nedges %v", it, nv, maxCard, card, sum, bc, bw, edges)
		}
	}
}

// BenchmarkMaxWeightMatching500 is the worst case of C7/C8 within complete
// pairings in a 500-player round: the matching over a bracket and all the
// players below it, nine in ten pairs allowed, a few weight levels.
func BenchmarkMaxWeightMatching500(b *testing.B) {
	for _, nv := range []int{60, 120, 250, 500} {
		b.Run(strconv.Itoa(nv), func(b *testing.B) { benchMatching(b, nv) })
	}
}

func benchMatching(b *testing.B, nv int) {
	r := rand.New(rand.NewPCG(1, 1))
	var edges []wEdge
	for i := range nv {
		for j := i + 1; j < nv; j++ {
			if r.IntN(10) > 0 {
				var w int64
				if j < nv/6 {
					w = 1000 + r.Int64N(50)
				} else if j < nv/3 {
					w = 10 + r.Int64N(5)
				}
				edges = append(edges, wEdge{i, j, w})
			}
		}
	}
	for b.Loop() {
		maxWeightMatching(nv, edges, true)
	}
}
