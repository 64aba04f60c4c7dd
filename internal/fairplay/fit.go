package fairplay

import (
	"fmt"

	"github.com/toguz/toguz"
	"math"
	"slices"
)

// Sample is one side of a game the model learns from or is measured on.
type Sample struct {
	Moves  []Move
	Rating float64
}

// Samples returns both sides of each record whose players are rated.
func Samples(recs []Record) []Sample {
	var out []Sample
	for i := range recs {
		r := &recs[i]
		for pl, rating := range r.Ratings {
			if rating > 0 {
				out = append(out, Sample{Moves: r.Side(playerOf(pl)), Rating: float64(rating)})
			}
		}
	}
	return out
}

// Fit returns the model of maximum likelihood of the played moves of
// train (Nelder–Mead over A, B, C, D), with LossWeight k, its Spread
// measured on train's sides of at least MinMoves judged moves, and
// threshold.
func Fit(train []Sample, k, threshold float64) (Model, error) {
	type obs struct {
		losses []float64
		rank   int
		x      float64
	}
	var data []obs
	for _, s := range train {
		for _, mv := range s.Moves {
			if mv.Judged() {
				data = append(data, obs{mv.Losses, mv.Rank, x(s.Rating)})
			}
		}
	}
	if len(data) < 100 {
		return Model{}, fmt.Errorf("fairplay: %d judged moves to fit on, want at least 100", len(data))
	}
	nll := func(th []float64) float64 {
		total := 0.0
		var buf [16]float64
		for _, o := range data {
			s := math.Exp(th[0] + th[1]*o.x)
			c := min(max(th[2]+th[3]*o.x, 0.2), 5)
			sum := 0.0
			for i, d := range o.losses {
				buf[i] = math.Exp(-math.Pow(d/s, c))
				sum += buf[i]
			}
			total -= math.Log(max(buf[o.rank]/sum, 1e-300))
		}
		return total
	}
	th := nelderMead(nll, []float64{0, 0, 1, 0}, []float64{0.5, 0.3, 0.3, 0.2}, 2000)
	m := Model{A: th[0], B: th[1], C: th[2], D: th[3], LossWeight: k, Spread: 1, Threshold: threshold}
	var zs []float64
	for _, s := range train {
		if v := m.Judge(s.Moves, s.Rating, math.Inf(1)); v.Moves >= MinMoves {
			zs = append(zs, v.Score)
		}
	}
	mean, sd := meanSD(zs)
	m.Spread = sd
	m.Fit = fmt.Sprintf("%d judged moves of %d sides; mean z %.3f before the spread", len(data), len(train), mean)
	return m, m.valid()
}

func meanSD(xs []float64) (float64, float64) {
	if len(xs) < 2 {
		return 0, 1
	}
	var m, v float64
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return m, math.Sqrt(v / float64(len(xs)-1))
}

// nelderMead minimises f from x0 with initial steps, at most iters
// evaluations.
func nelderMead(f func([]float64) float64, x0, step []float64, iters int) []float64 {
	n := len(x0)
	pts := make([][]float64, n+1)
	vals := make([]float64, n+1)
	for i := range pts {
		pts[i] = slices.Clone(x0)
		if i > 0 {
			pts[i][i-1] += step[i-1]
		}
		vals[i] = f(pts[i])
	}
	at := func(c []float64, d []float64, t float64) []float64 {
		p := make([]float64, n)
		for i := range p {
			p[i] = c[i] + t*(d[i]-c[i])
		}
		return p
	}
	for it := 0; it < iters; it++ {
		idx := []int{}
		for i := range pts {
			idx = append(idx, i)
		}
		slices.SortFunc(idx, func(a, b int) int {
			switch {
			case vals[a] < vals[b]:
				return -1
			case vals[a] > vals[b]:
				return 1
			}
			return 0
		})
		np, nv := make([][]float64, n+1), make([]float64, n+1)
		for i, j := range idx {
			np[i], nv[i] = pts[j], vals[j]
		}
		pts, vals = np, nv
		if vals[n]-vals[0] < 1e-7*math.Abs(vals[0])+1e-9 {
			break
		}
		c := make([]float64, n)
		for _, p := range pts[:n] {
			for i := range c {
				c[i] += p[i] / float64(n)
			}
		}
		r := at(c, pts[n], -1)
		fr := f(r)
		switch {
		case fr < vals[0]:
			e := at(c, pts[n], -2)
			if fe := f(e); fe < fr {
				pts[n], vals[n] = e, fe
			} else {
				pts[n], vals[n] = r, fr
			}
		case fr < vals[n-1]:
			pts[n], vals[n] = r, fr
		default:
			k := at(c, pts[n], 0.5)
			if fk := f(k); fk < vals[n] {
				pts[n], vals[n] = k, fk
			} else {
				for i := 1; i <= n; i++ {
					pts[i] = at(pts[0], pts[i], 0.5)
					vals[i] = f(pts[i])
				}
			}
		}
	}
	best := 0
	for i := range vals {
		if vals[i] < vals[best] {
			best = i
		}
	}
	return pts[best]
}

func playerOf(i int) toguz.Player { return toguz.Player(i) }
