// Package rating computes Glicko-2 ratings the way lichess applies them.
//
// Features:
//   - [Rating]: rating, deviation (RD) and volatility; [Default] is 1500/500/0.09,
//     [Rating.Provisional] while RD > 110, [Rating.Rankable] while RD <= 75.
//   - [System]: Glickman's Glicko-2 update ([System.Update]) for one rating period,
//     with lichess's constants in [Lichess] (tau 0.75, RD between 45 and 500,
//     volatility at most 0.1, rating between 400 and 4000).
//   - [System.Game]: the update of both players after one game. Lichess rates
//     each game at once as a rating period of its own; the deviation first grows
//     with the time since the player's previous rated game, at
//     [RatingPeriodsPerDay] periods per day.
//   - [Category]: bullet, blitz, rapid, classical and correspondence, and
//     [Categorize], which places a time control by its estimated duration
//     (base + 40 × increment) as lichess does.
package rating

import (
	"fmt"
	"math"
	"time"
)

// Lichess's constants.
const (
	DefaultRating       = 1500.0
	DefaultRD           = 500.0
	DefaultVolatility   = 0.09
	MinRD               = 45.0
	MaxRD               = 500.0
	MaxVolatility       = 0.1
	MinRating           = 400.0
	MaxRating           = 4000.0
	ProvisionalRD       = 110.0   // a rating is provisional while its RD is above this
	RankableRD          = 75.0    // leaderboards list ratings with an RD at most this
	RatingPeriodsPerDay = 0.21436 // the deviation grows as if this many periods passed per idle day
)

// scale converts between the Glicko scale and the Glicko-2 scale (Glickman, step 2).
const scale = 173.7178

// Rating is a Glicko-2 rating on the Glicko scale.
type Rating struct {
	Rating     float64
	RD         float64 // rating deviation
	Volatility float64
}

// Default returns the rating of a player who has not played yet.
func Default() Rating { return Rating{DefaultRating, DefaultRD, DefaultVolatility} }

// Provisional reports whether the rating is still too uncertain to show without a "?".
func (r Rating) Provisional() bool { return r.RD > ProvisionalRD }

// Rankable reports whether the rating is certain enough for a leaderboard.
func (r Rating) Rankable() bool { return r.RD <= RankableRD }

// Int returns the rating rounded to an integer, as it is shown.
func (r Rating) Int() int { return int(math.Round(r.Rating)) }

func (r Rating) String() string {
	q := ""
	if r.Provisional() {
		q = "?"
	}
	return fmt.Sprintf("%d%s", r.Int(), q)
}

// Result is one game of a rating period, from the rated player's side.
type Result struct {
	Opponent Rating
	Score    float64 // 1 win, 0.5 draw, 0 loss
}

// System holds the parameters of Glicko-2 and the bounds applied to its output.
// The zero bounds mean no bound.
type System struct {
	Tau                  float64 // constrains the change of volatility
	MinRD, MaxRD         float64
	MaxVolatility        float64
	MinRating, MaxRating float64
}

// Lichess returns the system with lichess's constants.
func Lichess() System {
	return System{Tau: 0.75, MinRD: MinRD, MaxRD: MaxRD, MaxVolatility: MaxVolatility, MinRating: MinRating, MaxRating: MaxRating}
}

// Glickman returns the plain system of Glickman's paper with the given tau and no bounds.
func Glickman(tau float64) System { return System{Tau: tau} }

// Update returns r after a rating period in which the player had results and
// which lasted periods rating periods (1 in Glickman's paper; lichess uses the
// time since the player's last game). With no results only the deviation grows.
func (s System) Update(r Rating, results []Result, periods float64) Rating {
	mu := (r.Rating - DefaultRating) / scale
	phi := r.RD / scale
	sigma := r.Volatility
	if len(results) == 0 {
		return s.bound(r.Rating, scale*math.Sqrt(phi*phi+periods*sigma*sigma), sigma)
	}
	// Steps 3 and 4: the estimated variance v and improvement delta.
	var invV, sum float64
	for _, res := range results {
		muj := (res.Opponent.Rating - DefaultRating) / scale
		phij := res.Opponent.RD / scale
		g := 1 / math.Sqrt(1+3*phij*phij/(math.Pi*math.Pi))
		e := 1 / (1 + math.Exp(-g*(mu-muj)))
		invV += g * g * e * (1 - e)
		sum += g * (res.Score - e)
	}
	v := 1 / invV
	delta := v * sum
	sigma = s.volatility(phi, sigma, v, delta)
	// Steps 6 and 7.
	phiStar := math.Sqrt(phi*phi + periods*sigma*sigma)
	phi = 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu += phi * phi * sum
	return s.bound(scale*mu+DefaultRating, scale*phi, sigma)
}

// volatility is step 5: the Illinois algorithm on f (Glickman, 2013 version).
func (s System) volatility(phi, sigma, v, delta float64) float64 {
	const epsilon = 1e-6
	tau2 := s.Tau * s.Tau
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/tau2
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*s.Tau) < 0 {
			k++
		}
		B = a - k*s.Tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

func (s System) bound(r, rd, vol float64) Rating {
	clamp := func(x, lo, hi float64) float64 {
		if lo != 0 && x < lo {
			return lo
		}
		if hi != 0 && x > hi {
			return hi
		}
		return x
	}
	return Rating{clamp(r, s.MinRating, s.MaxRating), clamp(rd, s.MinRD, s.MaxRD), clamp(vol, 0, s.MaxVolatility)}
}

// Periods returns the rating periods elapsed between a player's previous rated
// game (zero: none) and now, as lichess counts them.
func Periods(last, now time.Time) float64 {
	if last.IsZero() || now.Before(last) {
		return 1
	}
	return now.Sub(last).Hours() / 24 * RatingPeriodsPerDay
}

// Game returns the ratings of White and Black after a game between them, each
// rated as a period of its own; whiteScore is 1, 0.5 or 0, and periods holds
// each player's elapsed rating periods (see [Periods]), White first.
func (s System) Game(white, black Rating, whiteScore float64, periods [2]float64) (Rating, Rating) {
	w := s.Update(white, []Result{{black, whiteScore}}, periods[0])
	b := s.Update(black, []Result{{white, 1 - whiteScore}}, periods[1])
	return w, b
}
