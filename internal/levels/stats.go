package levels

import (
	"math"
	"sort"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
)

// Ref is the deep search's score (the mover's view, hundredths of a stone)
// of every legal move of a position; Legal says which moves it holds.
type Ref struct {
	Scores [toguz.MaxHoles + 1]engine.Score
	Legal  toguz.MoveSet
}

// Best returns the move with the highest score (the lowest hole of equals).
func (r Ref) Best() toguz.Move {
	best := toguz.NoMove
	for m := range r.Legal.All() {
		if best == toguz.NoMove || r.Scores[m] > r.Scores[best] {
			best = m
		}
	}
	return best
}

// Stones returns s in stones within ±cap: a proven win or loss counts as
// cap, and so does any lead beyond it, which decides the game either way;
// without the cap one lost proven win would outweigh a hundred moves.
func Stones(s engine.Score, cap float64) float64 {
	switch {
	case s.IsMate() && s > 0:
		return cap
	case s.IsMate():
		return -cap
	}
	return math.Max(-cap, math.Min(cap, float64(s)/100))
}

// Loss returns the stones m loses against the best move of r (≥ 0).
func (r Ref) Loss(m toguz.Move, cap float64) float64 {
	return math.Max(0, Stones(r.Scores[r.Best()], cap)-Stones(r.Scores[m], cap))
}

// obs is one measured value of one position, with the cluster (the
// player-game) it belongs to: a player's moves in one game are not
// independent, so the interval is computed over clusters.
type obs struct {
	cluster int
	x       float64
}

// meanCI returns the mean of xs and the half-width of its 95% interval,
// the cluster-robust (sandwich) standard error times 1.96: with one
// observation per cluster it is the usual s/√n (with n/(n−1)).
func meanCI(xs []obs) (mean, ci float64) {
	n := float64(len(xs))
	if n == 0 {
		return 0, 0
	}
	for _, o := range xs {
		mean += o.x
	}
	mean /= n
	sums := map[int]float64{}
	for _, o := range xs {
		sums[o.cluster] += o.x - mean
	}
	g := float64(len(sums))
	if g < 2 {
		return mean, 0
	}
	// In the clusters' order, not the map's: the same sum to the last bit
	// on every run, so that a rerun writes the same table.
	clusters := make([]int, 0, len(sums))
	for c := range sums {
		clusters = append(clusters, c)
	}
	sort.Ints(clusters)
	var v float64
	for _, c := range clusters {
		v += sums[c] * sums[c]
	}
	v *= g / (g - 1) / (n * n)
	return mean, 1.96 * math.Sqrt(v)
}

// Point is a band on the curve of error against rating.
type Point struct {
	Rating float64 // the band's mean rating
	Loss   float64
	Weight float64 // positions
}

// Monotone returns points (sorted by rating here) made non-increasing in
// loss by pooling adjacent violators (weighted means of rating and loss),
// so that every loss maps to one rating: a stronger band that happens to
// lose more in the sample is pooled with its neighbour.
func Monotone(points []Point) []Point {
	ps := append([]Point(nil), points...)
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Rating < ps[j].Rating })
	var out []Point
	for _, p := range ps {
		out = append(out, p)
		for len(out) > 1 && out[len(out)-2].Loss <= out[len(out)-1].Loss {
			a, b := out[len(out)-2], out[len(out)-1]
			w := a.Weight + b.Weight
			out = out[:len(out)-2]
			out = append(out, Point{
				Rating: (a.Rating*a.Weight + b.Rating*b.Weight) / w,
				Loss:   (a.Loss*a.Weight + b.Loss*b.Weight) / w,
				Weight: w,
			})
		}
	}
	return out
}

// Place returns the rating at which the curve (from Monotone: ratings
// rising, losses falling) loses loss stones a move, interpolated linearly
// between the two bands around it. Beyond the curve's ends it returns the
// end's rating with Below (a level that loses more than the weakest band)
// or Above (less than the strongest): the data bound it, no more.
func Place(curve []Point, loss float64) (float64, Bound) {
	if len(curve) == 0 {
		return 0, About
	}
	first, last := curve[0], curve[len(curve)-1]
	switch {
	case loss > first.Loss:
		return first.Rating, Below
	case loss < last.Loss:
		return last.Rating, Above
	case len(curve) == 1:
		return first.Rating, About
	}
	for i := 1; i < len(curve); i++ {
		a, b := curve[i-1], curve[i]
		if loss >= b.Loss {
			t := (a.Loss - loss) / (a.Loss - b.Loss)
			return a.Rating + t*(b.Rating-a.Rating), About
		}
	}
	return last.Rating, About
}

// Round50 rounds a rating to the nearest 50, as the site shows it: the
// intervals are wider than that.
func Round50(r float64) int { return int(math.Round(r/50)) * 50 }
