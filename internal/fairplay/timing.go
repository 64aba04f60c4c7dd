package fairplay

import (
	"math"
	"slices"
)

// timeCorr returns how many of moves have a time and the Spearman rank
// correlation of their times with their difficulty for a player of rating
// (the chance the model gives the player of missing the engine's first
// move: higher is harder); 0 with fewer
// than three timed moves or no spread.
func timeCorr(moves []Move, m Model, rating float64) (int, float64) {
	var times, hard []float64
	for _, mv := range moves {
		if mv.Time <= 0 {
			continue
		}
		_, _, agree, _ := m.Expect(mv, rating)
		times = append(times, mv.Time.Seconds())
		hard = append(hard, 1-agree)
	}
	if len(times) < 3 {
		return len(times), 0
	}
	return len(times), pearson(ranks(times), ranks(hard))
}

// ranks returns the ranks of xs, ties given their mean rank.
func ranks(xs []float64) []float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case xs[a] < xs[b]:
			return -1
		case xs[a] > xs[b]:
			return 1
		}
		return 0
	})
	r := make([]float64, len(xs))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && xs[idx[j+1]] == xs[idx[i]] {
			j++
		}
		for k := i; k <= j; k++ {
			r[idx[k]] = float64(i+j)/2 + 1
		}
		i = j + 1
	}
	return r
}

// pearson returns the correlation of a and b, 0 when either is constant.
func pearson(a, b []float64) float64 {
	n := float64(len(a))
	var ma, mb float64
	for i := range a {
		ma += a[i]
		mb += b[i]
	}
	ma, mb = ma/n, mb/n
	var sab, saa, sbb float64
	for i := range a {
		sab += (a[i] - ma) * (b[i] - mb)
		saa += (a[i] - ma) * (a[i] - ma)
		sbb += (b[i] - mb) * (b[i] - mb)
	}
	if saa == 0 || sbb == 0 {
		return 0
	}
	return sab / math.Sqrt(saa*sbb)
}
