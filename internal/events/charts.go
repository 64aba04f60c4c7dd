package events

import (
	"math"
	"strconv"

	"github.com/toguz/toguz/internal/chart"
	"github.com/toguz/toguz/internal/i18n"
)

// progressPlayers is how many of the leaders the score progression
// draws: more lines than that cannot be told apart.
const progressPlayers = 6

// ratingBand is the width of the rating distribution's bands.
const ratingBand = 100

// pictures draws the event page's pictures in lang (internal/chart): the
// leaders' points after each round played (an event of rounds, once one
// is over) and the distribution of the players' ratings (two rated players
// or more).
func (v *eventView) pictures(cat *i18n.Catalog, lang string, e *Event) {
	// The rounds played: the shown ones whose every game has its result
	// (a round being played would flatten every line at its end).
	played := 0
	for _, r := range v.Pairings {
		done := r.Round <= v.Shown
		for _, g := range r.Games {
			done = done && (g.Bye || g.Result != "")
		}
		if !done {
			break
		}
		played = r.Round
	}
	if e.Settings.Kind != Arena && played > 0 && len(v.Standings) > 0 {
		te := e.Tournament(resultsUpto(v.Shown))
		c := chart.Line{ID: "event-progress", Height: 220,
			YFormat: func(f float64) string { return points(f) }}
		for _, row := range v.Standings[:min(progressPlayers, len(v.Standings))] {
			p := te.Player(row.Start)
			if p == nil {
				continue
			}
			s := chart.Series{Name: row.Name, NameData: true, Dots: played <= 12}
			for r := 0; r <= played; r++ {
				sc := te.Score(p, r)
				s.Points = append(s.Points, chart.Point{X: float64(r), Y: sc,
					Label: cat.T(lang, "chart.event.point", row.Name, r, points(sc))})
			}
			c.Series = append(c.Series, s)
		}
		c.XFormat = func(f float64) string { return strconv.Itoa(int(f)) }
		c.Title = cat.N(lang, "chart.event.progress", played, played)
		v.Progress = c.SVG()
	}
	var rated []int
	for _, en := range e.Entries {
		if en.Rating > 0 {
			rated = append(rated, en.Rating)
		}
	}
	if len(rated) < 2 {
		return
	}
	lo, hi := math.MaxInt, 0
	for _, r := range rated {
		lo, hi = min(lo, r/ratingBand), max(hi, r/ratingBand)
	}
	title := cat.T(lang, "chart.event.ratings", cat.N(lang, "chart.hist.bar", len(rated), lo*ratingBand, (hi+1)*ratingBand-1, len(rated)))
	lo, hi = lo-1, hi+1 // an empty band either side: the shape reads as a distribution
	counts := make([]int, hi-lo+1)
	for _, r := range rated {
		counts[r/ratingBand-lo]++
	}
	c := chart.Bars{ID: "event-ratings", Edges: true}
	for i, n := range counts {
		from := (lo + i) * ratingBand
		c.Bars = append(c.Bars, chart.Bar{Label: strconv.Itoa(from), Value: float64(n),
			Title: cat.N(lang, "chart.hist.bar", n, from, from+ratingBand-1, n)})
	}
	c.Title = title
	v.Ratings = c.SVG()
}
