package match

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/toguz/toguz"
)

// Elo returns the logistic Elo difference that an expected score s (0 < s <
// 1) stands for: s = 1/(1+10^(-elo/400)).
func Elo(s float64) float64 {
	if s == 0.5 {
		return 0 // not -0, which prints as "-0.0"
	}
	return -400 * math.Log10(1/s-1)
}

// ExpectedScore is the inverse of Elo.
func ExpectedScore(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// Counts are the results of a match from the first engine's view. WDL counts
// games; Pairs counts, for each pair of games played from one opening with
// colours swapped, the first engine's total score in half points (index 0:
// both lost, … 4: both won), the pentanomial counts that fishtest uses.
type Counts struct {
	Wins, Draws, Losses int
	Pairs               [5]int
}

// Games returns the number of games.
func (c Counts) Games() int { return c.Wins + c.Draws + c.Losses }

// Score returns the first engine's mean score per game.
func (c Counts) Score() float64 {
	n := c.Games()
	if n == 0 {
		return 0.5
	}
	return (float64(c.Wins) + 0.5*float64(c.Draws)) / float64(n)
}

// EloEstimate is an Elo difference with its 95% confidence interval.
type EloEstimate struct {
	Elo    float64 // the estimate
	Margin float64 // half the width of the 95% interval, in Elo
	Lower  float64 // the interval
	Upper  float64
}

func (e EloEstimate) String() string {
	return fmt.Sprintf("%+.1f ± %.1f", e.Elo, e.Margin)
}

// z95 is the two-sided 95% quantile of the normal distribution.
const z95 = 1.959963984540054

// EloFromCounts estimates the Elo difference from the game counts: the mean
// score and its standard error from the trinomial (win/draw/loss) variance,
// mapped through Elo, as cutechess-cli does. With no games, or when one side
// won every game, the estimate is infinite.
func EloFromCounts(c Counts) EloEstimate {
	n := float64(c.Games())
	if n == 0 {
		return EloEstimate{Margin: math.Inf(1), Lower: math.Inf(-1), Upper: math.Inf(1)}
	}
	s := c.Score()
	w, d, l := float64(c.Wins)/n, float64(c.Draws)/n, float64(c.Losses)/n
	v := w*(1-s)*(1-s) + d*(0.5-s)*(0.5-s) + l*s*s
	se := math.Sqrt(v / n)
	lo, hi := clamp01(s-z95*se), clamp01(s+z95*se)
	e := EloEstimate{Elo: Elo(s), Lower: Elo(lo), Upper: Elo(hi)}
	e.Margin = (e.Upper - e.Lower) / 2
	if math.IsNaN(e.Margin) { // one side won every game: no finite interval
		e.Margin = math.Inf(1)
	}
	return e
}

func clamp01(x float64) float64 { return math.Min(1, math.Max(0, x)) }

// SPRT is a sequential probability ratio test of H0: elo = Elo0 against H1:
// elo = Elo1 (logistic Elo), with error rates Alpha (accepting H1 when H0
// holds) and Beta.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// Bounds returns the lower and upper LLR bounds: below the lower, H0 is
// accepted; above the upper, H1.
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// Validate reports whether the test is well formed.
func (t SPRT) Validate() error {
	switch {
	case !(t.Elo0 < t.Elo1):
		return fmt.Errorf("sprt: elo0 %g must be below elo1 %g", t.Elo0, t.Elo1)
	case !(t.Alpha > 0 && t.Alpha < 0.5 && t.Beta > 0 && t.Beta < 0.5):
		return fmt.Errorf("sprt: alpha %g and beta %g must be in (0, 0.5)", t.Alpha, t.Beta)
	}
	return nil
}

// Decision is the state of an SPRT.
type Decision int

const (
	Continue Decision = iota // neither bound is crossed
	AcceptH0                 // LLR fell below the lower bound
	AcceptH1                 // LLR rose above the upper bound
)

func (d Decision) String() string {
	return [...]string{"continue", "H0 accepted", "H1 accepted"}[d]
}

// Decide compares llr with the bounds.
func (t SPRT) Decide(llr float64) Decision {
	lo, hi := t.Bounds()
	switch {
	case llr <= lo:
		return AcceptH0
	case llr >= hi:
		return AcceptH1
	}
	return Continue
}

// LLRTrinomial returns the generalized log-likelihood ratio of the test for
// the win/draw/loss counts (GSPRT, as fishtest computes it).
func (t SPRT) LLRTrinomial(c Counts) float64 {
	return gsprt([]float64{0, 0.5, 1}, []float64{float64(c.Losses), float64(c.Draws), float64(c.Wins)},
		ExpectedScore(t.Elo0), ExpectedScore(t.Elo1))
}

// LLRPentanomial returns the GSPRT log-likelihood ratio for the pair counts,
// which accounts for the correlation of the two games of an opening.
func (t SPRT) LLRPentanomial(c Counts) float64 {
	n := make([]float64, 5)
	for i, k := range c.Pairs {
		n[i] = float64(k)
	}
	return gsprt([]float64{0, 0.25, 0.5, 0.75, 1}, n, ExpectedScore(t.Elo0), ExpectedScore(t.Elo1))
}

// gsprt returns the generalized log-likelihood ratio for outcomes with scores
// a[i] observed n[i] times, of mean score s1 against mean score s0 (Van den
// Bergh, "A generalized sequential probability ratio test", as in fishtest):
// each hypothesis' distribution is the maximum-likelihood multinomial with
// the given mean, and the LLR is the difference of their log-likelihoods.
// Outcomes never observed get a small count so that it stays finite.
func gsprt(a, n []float64, s0, s1 float64) float64 {
	total := 0.0
	for _, k := range n {
		total += k
	}
	if total == 0 {
		return 0
	}
	const eps = 1e-3 // regularisation of empty cells, as fishtest does
	p := make([]float64, len(n))
	sum := 0.0
	for i, k := range n {
		p[i] = max(k, eps)
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
	ll := func(s float64) float64 {
		q := mleWithMean(a, p, s)
		v := 0.0
		for i := range n {
			v += n[i] * math.Log(q[i])
		}
		return v
	}
	return ll(s1) - ll(s0)
}

// mleWithMean returns the distribution q that maximises Σ p[i] log q[i]
// subject to Σ q[i] a[i] = s: q[i] = p[i] / (1 + λ (a[i] - s)), with λ the
// root of Σ p[i] (a[i]-s) / (1 + λ (a[i]-s)) = 0, found by bisection on the
// interval where every q[i] stays positive.
func mleWithMean(a, p []float64, s float64) []float64 {
	amin, amax := a[0], a[0]
	for _, x := range a {
		amin, amax = math.Min(amin, x), math.Max(amax, x)
	}
	// 1 + λ(a-s) > 0 for every a: λ in (-1/(amax-s), 1/(s-amin)).
	lo, hi := -1/(amax-s), 1/(s-amin)
	f := func(l float64) float64 {
		v := 0.0
		for i := range a {
			v += p[i] * (a[i] - s) / (1 + l*(a[i]-s))
		}
		return v
	}
	// f decreases in λ; shrink the open interval a little to stay inside.
	const shrink = 1e-12
	lo, hi = lo+shrink*(hi-lo), hi-shrink*(hi-lo)
	for range 200 {
		mid := (lo + hi) / 2
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	l := (lo + hi) / 2
	q := make([]float64, len(a))
	for i := range a {
		q[i] = p[i] / (1 + l*(a[i]-s))
	}
	return q
}

// LLRNormal is the normal approximation of the GSPRT LLR for outcomes with
// the given mean score and variance per trial over n trials:
// n·(s1−s0)·(2·mean−s0−s1)/(2·variance). It checks gsprt in the tests and
// is close to it when the scores are near 0.5.
func LLRNormal(n, mean, variance, s0, s1 float64) float64 {
	return n * (s1 - s0) * (2*mean - s0 - s1) / (2 * variance)
}

// MoveTimes sums up how long one engine took for its answers over a match,
// as the referee measured them (Game.Times): what a time per move or a
// clock leaves it, and how close it goes to the limit.
type MoveTimes struct {
	Moves int // answers
	Min   time.Duration
	Mean  time.Duration
	P50   time.Duration // the median
	P99   time.Duration // 99 in 100 answers took this long or less
	Max   time.Duration
	Late  int // answers after the limit but within the margin (Game.Late)
	// LostOnTime counts the games it lost by its answer's lateness (past
	// the margin, or none in time).
	LostOnTime int
}

// MoveTimes returns engine's answer times over the finished games.
func (rep *Report) MoveTimes(engine string) MoveTimes {
	var mt MoveTimes
	var all []time.Duration
	var sum time.Duration
	for _, g := range rep.Finished {
		for side, name := range [2]string{g.White, g.Black} {
			if name != engine {
				continue
			}
			all = append(all, g.Times[side]...)
			mt.Late += g.Late[side]
			if g.Termination == toguz.ByTime && g.Result == toguz.WinFor(toguz.Player(side).Other()) {
				mt.LostOnTime++
			}
		}
	}
	if len(all) == 0 {
		return mt
	}
	for _, d := range all {
		sum += d
	}
	slices.Sort(all)
	mt.Moves = len(all)
	mt.Min = all[0]
	mt.Mean = sum / time.Duration(len(all))
	mt.P50 = all[(len(all)-1)/2]
	mt.P99 = all[(len(all)*99+99)/100-1] // the nearest rank
	mt.Max = all[len(all)-1]
	return mt
}
