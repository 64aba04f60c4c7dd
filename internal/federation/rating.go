package federation

import (
	"math"
	"slices"
	"time"

	"github.com/toguz/toguz/internal/tournament"
)

// The rating computation of a period: the FIDE method with the rules of a
// federation (Rules). Each rated player's games against opponents rated
// at the start of the period change his rating by K × Σ(score − PD), PD by
// table 8.1(b) (tournament.ExpectedScore) and the 400-point rule; an
// unrated player's games against rated opponents are kept until there are
// enough for an initial rating Ru = Ra + dp, Ra the opponents' average
// with the hypothetical opponents, dp by table 8.1(a) for his score with
// their draws. Games against unrated opponents are not rated. Scores are
// kept in hundredths so that the sums have no rounding noise.

// dpTable is FIDE table 8.1(a): dpTable[i] is dp for a score of 0.50 +
// i/100; a score under 0.50 has the opposite dp of its complement.
var dpTable = [...]int{0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
	149, 158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
	383, 401, 422, 444, 470, 501, 538, 589, 677, 800}

// DP returns dp by table 8.1(a) for a score of p hundredths (0..100).
func DP(p int) int {
	p = min(max(p, 0), 100)
	if p < 50 {
		return -dpTable[50-p]
	}
	return dpTable[p-50]
}

// Performance returns Ra + dp for games against opponents rated opps
// with score points in them; 0 without games.
func Performance(opps []int, score float64) int {
	if len(opps) == 0 {
		return 0
	}
	sum := 0
	for _, r := range opps {
		sum += r
	}
	p := int(math.Round(score * 100 / float64(len(opps))))
	return roundHalfAway(sum, len(opps)) + DP(p)
}

// Standing is what the computation knows of a player between periods.
type Standing struct {
	Rating  int  // 0: unrated
	Games   int  // rated games in all
	Reached bool // the published rating has reached the rules' TopFrom
	// Pending are an unrated player's games towards his initial rating.
	Pending []PendingGame
}

// PendingGame is an unrated player's game against a rated opponent.
type PendingGame struct {
	Month    int // year×12 + month−1 of the event's end
	Opponent int // the opponent's rating
	Score    int // hundredths: 100, 50, 0
}

// PeriodGame is a rated game of the period (forfeits left out), with the
// month its event ended.
type PeriodGame struct {
	White, Black string
	Score        float64 // White's
	Month        int
}

// Line is a player's result of a period.
type Line struct {
	Player  string
	Rating  int // 0: unrated after the period (not on the list)
	Change  int
	Period  int // rated games in the period
	K       int // the K the period used, 0 none
	Initial bool
}

// MonthOf returns year×12 + month−1 of t.
func MonthOf(t time.Time) int { return t.Year()*12 + int(t.Month()) - 1 }

// RatePeriod computes the period ending on day (the list's date) from
// the standings at its start and returns the standings after it and the
// lines of every player who played or holds a rating. birth gives birth
// years (absent or 0: not young).
func RatePeriod(r Rules, day time.Time, start map[string]Standing, birth map[string]int, games []PeriodGame) (map[string]Standing, []Line) {
	type acc struct {
		n, score, pd, oppSum int // score and pd in hundredths
		pending              []PendingGame
	}
	accs := map[string]*acc{}
	get := func(id string) *acc {
		a := accs[id]
		if a == nil {
			a = &acc{}
			accs[id] = a
		}
		return a
	}
	add := func(me, opp string, score int, month int) {
		own, other := start[me].Rating, start[opp].Rating
		if other == 0 {
			return
		}
		a := get(me)
		if own == 0 {
			a.pending = append(a.pending, PendingGame{Month: month, Opponent: other, Score: score})
			return
		}
		d := min(max(own-other, -r.MaxDifference), r.MaxDifference)
		a.n++
		a.score += score
		a.pd += tournament.ExpectedScore(own, own-d)
		a.oppSum += other
	}
	for _, g := range games {
		w := int(math.Round(g.Score * 100))
		add(g.White, g.Black, w, g.Month)
		add(g.Black, g.White, 100-w, g.Month)
	}
	year := day.AddDate(0, 0, -1).Year()
	now := MonthOf(day.AddDate(0, 0, -1))
	next := make(map[string]Standing, len(start))
	var lines []Line
	ids := make([]string, 0, len(start)+len(accs))
	for id := range start {
		ids = append(ids, id)
	}
	for id := range accs {
		if _, ok := start[id]; !ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		st, a := start[id], accs[id]
		if a == nil {
			a = &acc{}
		}
		if st.Rating > 0 {
			ln := Line{Player: id, Rating: st.Rating, Period: a.n}
			if a.n > 0 {
				young := birth[id] > 0 && year <= birth[id]+r.YouthAge
				k := r.KFactor(st.Rating, st.Games, young, st.Reached)
				if r.MaxKGames > 0 && k*a.n > r.MaxKGames {
					k = r.MaxKGames / a.n
				}
				ln.K = k
				ln.Change = roundHalfAway(k*(a.score-a.pd), 100)
				ln.Rating += ln.Change
				st.Games += a.n
			}
			if ln.Rating < r.Floor {
				// Below the floor he is unrated again, as any other unrated player.
				lines = append(lines, Line{Player: id, Change: ln.Change, Period: a.n, K: ln.K})
				next[id] = Standing{}
				continue
			}
			st.Rating = ln.Rating
			st.Reached = st.Reached || st.Rating >= r.TopFrom
			next[id] = st
			lines = append(lines, ln)
			continue
		}
		// Unrated: keep the games of the window, and rate him once there are enough.
		var keep []PendingGame
		for _, g := range append(st.Pending, a.pending...) {
			if now-g.Month < r.InitialMonths {
				keep = append(keep, g)
			}
		}
		st = Standing{Pending: keep}
		ln := Line{Player: id, Period: len(a.pending)}
		if len(keep) >= r.InitialGames {
			sum, score := r.FictitiousGames*r.FictitiousRating, r.FictitiousGames*50
			for _, g := range keep {
				sum += g.Opponent
				score += g.Score
			}
			n := len(keep) + r.FictitiousGames
			ru := roundHalfAway(sum, n) + DP(roundHalfAway(score, n))
			if ru >= r.Floor {
				st = Standing{Rating: ru, Games: len(keep), Reached: ru >= r.TopFrom}
				ln.Rating, ln.Initial = ru, true
			}
		}
		next[id] = st
		if ln.Rating > 0 || ln.Period > 0 {
			lines = append(lines, ln)
		}
	}
	return next, lines
}

// roundHalfAway returns a/b rounded to the nearest whole number, halves
// away from zero (b > 0).
func roundHalfAway(a, b int) int {
	if a < 0 {
		return -((-a*2 + b) / (2 * b))
	}
	return (a*2 + b) / (2 * b)
}
