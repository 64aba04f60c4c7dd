// Package insights is the page /insights: a signed-in player's own games
// drawn as lichess's insights are (internal/chart): his score by colour,
// by time-control category, by first move and month by month, and, from
// the games' reviews, his accuracy by game phase, by first move and month
// by month. It reads the last Games games through its port, Store, which
// *store.Store satisfies; an unreviewed game counts in the scores only.
//
// Bounds: one page reads at most Games games and their reviews (a query
// for the games, one for all their reviews), and only for its own
// signed-in account.
package insights

import (
	"context"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/analysis"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/chart"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/review"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
	"golang.org/x/time/rate"
)

// Games is how many of a player's latest games the page reads.
const Games = 200

// Store is what the page reads: a player's games, newest first, and the
// reviews of those that have one, by game id.
type Store interface {
	GamesByUser(ctx context.Context, userID int64, limit, offset int) ([]store.Game, error)
	ReviewsOf(ctx context.Context, ids []string) (map[string]store.Review, error)
}

// Site is the page /insights.
type Site struct {
	kit   site.Kit
	store Store
	// views bounds the page per account: each view reads up to Games
	// games and their reviews, and a GET is under no write limit.
	views *auth.Limiter
}

// ViewsPerMinute is how often an account may draw its insights (a burst
// of ViewsBurst).
const (
	ViewsPerMinute = 6
	ViewsBurst     = 5
)

// New returns the insights' page over st.
func New(kit site.Kit, st Store) *Site {
	return &Site{kit: kit, store: st, views: auth.NewLimiter(rate.Limit(ViewsPerMinute)/60, ViewsBurst, time.Now)}
}

// Routes registers GET /insights.
func (s *Site) Routes(r site.Router) { r.Page("GET /insights", s.page) }

// The game's phases by ply: the opening's first plies, the middle game,
// the endgame from endgamePly on.
const (
	openingPlies = 20
	endgamePly   = 60
	openings     = 6 // first moves shown, the most played
)

// tally counts a group's games: their points (win 1, draw ½) and the
// accuracy of the player's reviewed moves.
type tally struct {
	games   int
	points  float64
	acc     float64
	accN    int
	reviews int
}

func (t *tally) score() float64 { return 100 * t.points / float64(t.games) }
func (t *tally) accuracy() float64 {
	return t.acc / float64(t.accN)
}

// Data is the page's.
type Data struct {
	Games, Reviewed int
	Pictures        []Picture
}

// Picture is one of the page's charts, its heading and a sentence.
type Picture struct {
	ID, Heading, Note string
	Chart             template.HTML
}

func (s *Site) page(w http.ResponseWriter, r *http.Request) error {
	id := s.kit.Identity(r)
	if id.Account.ID == 0 {
		return site.Redirect(w, r, "/login")
	}
	if !s.views.Allow(strconv.FormatInt(id.Account.ID, 10)) {
		w.Header().Set("Retry-After", "10")
		return apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.rate_limited")
	}
	ctx, cancel := context.WithTimeout(r.Context(), 4*site.StoreTimeout)
	defer cancel()
	games, err := s.store.GamesByUser(ctx, id.Account.ID, Games, 0)
	if err != nil {
		return err
	}
	ids := make([]string, 0, len(games))
	for _, g := range games {
		if g.Status == game.Ended {
			ids = append(ids, g.ID)
		}
	}
	reviews, err := s.store.ReviewsOf(ctx, ids)
	if err != nil {
		return err
	}
	st := newStats()
	for _, g := range games {
		if pl := seatOf(g, id.Account.ID); g.Status == game.Ended && pl >= 0 {
			rv, ok := reviews[g.ID]
			st.add(g, pl, rv, ok)
		}
	}
	d := Data{Games: st.games, Reviewed: st.reviewed}
	if d.Games > 0 {
		d.Pictures = s.pictures(s.kit.Catalog(), s.kit.Lang(r), st)
	}
	return s.kit.Render(w, http.StatusOK, "insights", s.kit.Page(r, "insights.title", d))
}

// stats are the tallies of a player's ended games: by colour, time
// control category, month and first move, and his reviewed moves'
// accuracy by phase.
type stats struct {
	games, reviewed int
	colour          [2]tally
	byCat           map[rating.Category]*tally
	byMonth         map[time.Time]*tally
	byFirst         map[string]*tally
	phases          [3]tally
}

func newStats() *stats {
	return &stats{byCat: map[rating.Category]*tally{}, byMonth: map[time.Time]*tally{}, byFirst: map[string]*tally{}}
}

// seatOf returns the side account user plays in g, -1 for none.
func seatOf(g store.Game, user int64) int {
	pl := -1
	for i, seat := range g.Players {
		if seat.UserID == user {
			pl = i
		}
	}
	return pl
}

// pointsOf is what result scores for side pl: 1 a win, ½ a draw.
func pointsOf(result toguz.Result, pl int) float64 {
	switch {
	case result == toguz.Draw:
		return 0.5
	case (result == toguz.WhiteWins) == (pl == 0):
		return 1
	}
	return 0
}

// add counts ended game g, played as side pl, with its review rv when
// reviewed.
func (st *stats) add(g store.Game, pl int, rv store.Review, reviewed bool) {
	st.games++
	pts := pointsOf(g.Result, pl)
	month := time.Date(g.Ended.Year(), g.Ended.Month(), 1, 0, 0, 0, 0, time.UTC)
	groups := []*tally{&st.colour[pl], get(st.byMonth, month)}
	if c, ok := rating.ForTimeControl(g.TimeControl); ok {
		groups = append(groups, get(st.byCat, c))
	}
	var first string
	var acc float64
	var accN int
	if reviewed && rv.Status == store.ReviewDone {
		first, acc, accN = st.review(g, pl, rv)
	}
	if first != "" {
		groups = append(groups, get(st.byFirst, first))
	}
	for _, t := range groups {
		t.games++
		t.points += pts
		t.acc += acc
		t.accN += accN
		if accN > 0 {
			t.reviews++
		}
	}
}

// review reads a done review of g (played as side pl) into the phases'
// tallies: it returns the game's first move and the sum and number of
// the accuracies of pl's moves (none for a game from a set position or a
// review that does not decode).
func (st *stats) review(g store.Game, pl int, rv store.Review) (first string, acc float64, accN int) {
	data, err := review.Decode(rv.Data)
	if err != nil || g.StartFEN != "" {
		return "", 0, 0
	}
	start, _ := toguz.NewPosition(g.Rules)
	if len(data.Plies) > 0 {
		if n, err := start.Notation(data.Plies[0].Move); err == nil {
			first = n
		}
	}
	turn := start.Turn()
	for i, p := range data.Plies {
		if int(turn) == pl && !p.Forced {
			a := analysis.MoveAccuracy(p.Cost)
			acc += a
			accN++
			ph := 1
			if i < openingPlies {
				ph = 0
			} else if i >= endgamePly {
				ph = 2
			}
			st.phases[ph].acc += a
			st.phases[ph].accN++
		}
		turn = turn.Other()
	}
	st.reviewed++
	return first, acc, accN
}

func get[K comparable](m map[K]*tally, k K) *tally {
	t := m[k]
	if t == nil {
		t = &tally{}
		m[k] = t
	}
	return t
}

// pictures draws the page's charts in lang.
func (s *Site) pictures(cat *i18n.Catalog, lang string, st *stats) []Picture {
	colour, byCat, byMonth, byFirst, phases := st.colour, st.byCat, st.byMonth, st.byFirst, st.phases
	pc := func(v float64) string { return cat.T(lang, "chart.percent", int(v+0.5)) }
	scoreBar := func(label string, t *tally) chart.Bar {
		if t == nil || t.games == 0 {
			return chart.Bar{Label: label, Text: "—", Title: cat.T(lang, "insights.none", label)}
		}
		b := chart.Bar{Label: label, Value: t.score(),
			Title: cat.N(lang, "insights.score_bar", t.games, label, pc(t.score()), t.games)}
		if t.accN > 0 {
			// The reviewed games' accuracy beside the score.
			b.Title += " · " + cat.T(lang, "insights.accuracy_of", pc(t.accuracy()))
			b.Text = pc(t.score()) + " · " + cat.T(lang, "insights.acc_short", pc(t.accuracy()))
		}
		return b
	}
	var out []Picture
	// By colour.
	c := chart.Bars{ID: "insights-colour", Horizontal: true, Max: 100, YFormat: pc, Title: cat.T(lang, "insights.colour.title")}
	for pl, color := range []string{"white", "black"} {
		c.Bars = append(c.Bars, scoreBar(cat.T(lang, "game."+color), &colour[pl]))
	}
	out = append(out, Picture{ID: "colour", Heading: cat.T(lang, "insights.colour"), Note: cat.T(lang, "insights.score_note"), Chart: c.SVG()})
	// By time control.
	c = chart.Bars{ID: "insights-tc", Horizontal: true, Max: 100, YFormat: pc, Title: cat.T(lang, "insights.tc.title")}
	for _, k := range rating.Categories {
		if t := byCat[k]; t != nil {
			c.Bars = append(c.Bars, scoreBar(cat.T(lang, "archive.cat."+k.String()), t))
		}
	}
	if len(c.Bars) > 0 {
		out = append(out, Picture{ID: "tc", Heading: cat.T(lang, "insights.tc"), Note: cat.T(lang, "insights.score_note"), Chart: c.SVG()})
	}
	// By first move: the most played, score and accuracy.
	firsts := make([]string, 0, len(byFirst))
	for k := range byFirst {
		firsts = append(firsts, k)
	}
	sort.Slice(firsts, func(i, j int) bool {
		a, b := byFirst[firsts[i]], byFirst[firsts[j]]
		return a.games > b.games || (a.games == b.games && firsts[i] < firsts[j])
	})
	firsts = firsts[:min(openings, len(firsts))]
	if len(firsts) > 0 {
		c = chart.Bars{ID: "insights-opening", Horizontal: true, Max: 100, YFormat: pc, Title: cat.T(lang, "insights.opening.title")}
		for _, f := range firsts {
			c.Bars = append(c.Bars, scoreBar(f, byFirst[f]))
		}
		out = append(out, Picture{ID: "opening", Heading: cat.T(lang, "insights.opening"), Note: cat.T(lang, "insights.opening_note"), Chart: c.SVG()})
	}
	// Accuracy by phase.
	if phases[0].accN+phases[1].accN+phases[2].accN > 0 {
		c = chart.Bars{ID: "insights-phase", Horizontal: true, Max: 100, YFormat: pc, Title: cat.T(lang, "insights.phase.title")}
		for ph, key := range []string{"opening", "middle", "end"} {
			label := cat.T(lang, "insights.phase."+key)
			t := phases[ph]
			if t.accN == 0 {
				c.Bars = append(c.Bars, chart.Bar{Label: label, Text: "—", Title: cat.T(lang, "insights.none", label)})
				continue
			}
			c.Bars = append(c.Bars, chart.Bar{Label: label, Value: t.accuracy(),
				Title: cat.N(lang, "insights.phase_bar", t.accN, label, pc(t.accuracy()), t.accN)})
		}
		out = append(out, Picture{ID: "phase", Heading: cat.T(lang, "insights.phase"),
			Note: cat.T(lang, "insights.phase_note", openingPlies, endgamePly), Chart: c.SVG()})
	}
	// Month by month: score and accuracy.
	months := make([]time.Time, 0, len(byMonth))
	for m := range byMonth {
		months = append(months, m)
	}
	slices.SortFunc(months, func(a, b time.Time) int { return a.Compare(b) })
	if len(months) > 1 {
		score := chart.Series{Name: cat.T(lang, "insights.score"), Dots: true}
		acc := chart.Series{Name: cat.T(lang, "insights.accuracy"), Dots: true}
		var ticks []chart.Tick
		for i, m := range months {
			t := byMonth[m]
			label := fmt.Sprintf("%s %d", cat.T(lang, fmt.Sprintf("archive.month.%d", int(m.Month()))), m.Year())
			score.Points = append(score.Points, chart.Point{X: float64(i), Y: t.score(),
				Label: label + ": " + cat.N(lang, "insights.score_bar", t.games, cat.T(lang, "insights.score"), pc(t.score()), t.games)})
			if t.accN > 0 {
				acc.Points = append(acc.Points, chart.Point{X: float64(i), Y: t.accuracy(), Label: label + ": " + cat.T(lang, "insights.accuracy_of", pc(t.accuracy()))})
			}
			tk := chart.Tick{At: float64(i), Label: cat.T(lang, fmt.Sprintf("archive.month.%d", int(m.Month())))}
			if i == 0 || m.Month() == 1 {
				tk.Sub = fmt.Sprint(m.Year())
			}
			if len(months) <= 8 || i%((len(months)+7)/8) == 0 {
				ticks = append(ticks, tk)
			}
		}
		l := chart.Line{ID: "insights-time", Title: cat.T(lang, "insights.time.title"), FixY: true, YMin: 0, YMax: 100,
			YFormat: pc, XTicks: ticks, Height: 220, FixX: true, XMin: 0, XMax: float64(len(months) - 1),
			Series: []chart.Series{score, acc}}
		out = append(out, Picture{ID: "time", Heading: cat.T(lang, "insights.time"), Note: cat.T(lang, "insights.time_note"), Chart: l.SVG()})
	}
	return out
}
