// Package explorer is the opening explorer's common ground: the tree of the
// moves played from a position, its filters and its answers, and the
// masters' database, held in memory.
//
// Features:
//   - The tree: every position of a game's first MaxPly plies, keyed by
//     toguz.Position.Key (which covers the ruleset), with the move played
//     from it, so that transpositions merge ([Walk]).
//   - Buckets: a game counts in one bucket of its time-control category
//     ([CatCode]), the band of its players' average rating ([Band]) and the
//     month it was played ([Month]); a [Filter] is a set of whole buckets.
//     The site's database (internal/store's explorer table) stores one row
//     per position, move and bucket; the masters' database here filters
//     its games one by one.
//   - Answers ([Answer]): per move the games, White's wins, the draws,
//     Black's wins and the average rating, and the games themselves: per
//     move the highest rated and the most recent ([Ref]).
//   - The masters ([Masters], [LoadMasters]): the 2018 master games and the
//     Master app's sample, embedded (masters/), read once at start.
//   - The site's side (site.go, eval.go): GET /explorer, /api/explorer and
//     /explorer/masters/{n} registered by Site.Routes, each move valued by
//     the opening book or a short, cached search. The site's trees come
//     through the Store port: internal/store imports this package for the
//     tree's types, so this package never imports the store.
package explorer

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/rating"
)

// MaxPly is how deep the tree goes: the positions before plies 1..MaxPly of
// each game. It is the opening of the rest of the project (the opening
// book's and the archive's 20 plies): past it nearly every game is alone in
// its position, and each ply more would add a row per game.
const MaxPly = 20

// bandFloors are the lowest average ratings of the bands 1..len: band 0 is
// a game without ratings (unrated, imported, or a guest's).
var bandFloors = [...]int{0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500}

// Bands is the number of bands, the unrated band 0 included.
const Bands = len(bandFloors) + 1

// BandFloors returns the lowest rating of each rated band (bands 1..).
func BandFloors() []int { return slices.Clone(bandFloors[:]) }

// Band returns the band of an average rating; 0 when avg <= 0 (no rating).
func Band(avg int) int {
	if avg <= 0 {
		return 0
	}
	b := 1
	for i, f := range bandFloors {
		if avg >= f {
			b = i + 1
		}
	}
	return b
}

// Month returns the month of t as year*12 + month-1, or 0 for the zero
// time (a record without a date).
func Month(t time.Time) int {
	if t.IsZero() {
		return 0
	}
	t = t.UTC()
	return t.Year()*12 + int(t.Month()) - 1
}

// CatCode is a game's time-control category as the tree stores it: 0 for
// none (an imported record, an untimed game), else 1 + the rating.Category.
func CatCode(tc clock.TimeControl) int {
	c, ok := rating.ForTimeControl(tc)
	if !ok {
		return 0
	}
	return 1 + int(c)
}

// Cats is the number of CatCodes: none, then one per rating.Category.
const Cats = 1 + len(rating.Categories)

// Filter selects games by whole buckets. The zero Filter selects every game.
type Filter struct {
	// MinRating and MaxRating bound the players' average rating (0: no
	// bound), rounded out to the bands that hold them; either set leaves
	// out the games without ratings.
	MinRating, MaxRating int
	// Cats, when not empty, are the CatCodes selected.
	Cats []int
	// FromMonth and ToMonth bound the month (Month) played, both included
	// (0: no bound); either set leaves out the games without a date.
	FromMonth, ToMonth int
}

// Bands returns the bands the filter selects, lo..hi.
func (f Filter) Bands() (lo, hi int) {
	lo, hi = 0, Bands-1
	if f.MinRating > 0 {
		lo = Band(f.MinRating)
	}
	if f.MaxRating > 0 {
		hi = Band(f.MaxRating)
		lo = max(lo, 1)
	}
	return lo, hi
}

// Months returns the months the filter selects, lo..hi.
func (f Filter) Months() (lo, hi int) {
	lo, hi = 0, 1<<30
	if f.FromMonth > 0 {
		lo = f.FromMonth
	}
	if f.ToMonth > 0 {
		hi = f.ToMonth
		lo = max(lo, 1)
	}
	return lo, hi
}

// Selects reports whether a game of that bucket passes the filter.
func (f Filter) Selects(cat, band, month int) bool {
	blo, bhi := f.Bands()
	mlo, mhi := f.Months()
	return band >= blo && band <= bhi && month >= mlo && month <= mhi &&
		(len(f.Cats) == 0 || slices.Contains(f.Cats, cat))
}

// Stats are the games of one move.
type Stats struct {
	Move                       toguz.Move
	Games, White, Draws, Black int64
	// RatingSum is the sum of the average ratings of the Rated games among
	// them.
	RatingSum, Rated int64
	// Top and Last are the highest rated and the most recent game; "" when
	// none (Ref.Key's text).
	Top, Last string
}

// AvgRating returns the average rating of the rated games; 0 when none.
func (s Stats) AvgRating() int {
	if s.Rated == 0 {
		return 0
	}
	return int((s.RatingSum + s.Rated/2) / s.Rated)
}

// Add adds the games of o (the same move).
func (s *Stats) Add(o Stats) {
	s.Games += o.Games
	s.White += o.White
	s.Draws += o.Draws
	s.Black += o.Black
	s.RatingSum += o.RatingSum
	s.Rated += o.Rated
	s.Top = max(s.Top, o.Top)
	s.Last = max(s.Last, o.Last)
}

// Ref is a game the tree points at.
type Ref struct {
	ID     string
	Rating int   // the players' average rating; 0 when none
	DateMS int64 // when it was played, Unix milliseconds; 0 when unknown
}

// TopKey and LastKey write a game as text whose greatest value is the
// highest rated, respectively the most recent game, so that one max() of
// SQL or Go keeps the game to show.
func (r Ref) TopKey() string {
	return pad(int64(r.Rating), 5) + pad(r.DateMS, 14) + r.ID
}

// LastKey: see TopKey.
func (r Ref) LastKey() string { return pad(r.DateMS, 14) + pad(int64(r.Rating), 5) + r.ID }

func pad(v int64, n int) string {
	s := strconv.FormatInt(max(v, 0), 10)
	if len(s) < n {
		s = strings.Repeat("0", n-len(s)) + s
	}
	return s
}

// ParseTop reads a TopKey back; ok is false for "".
func ParseTop(k string) (Ref, bool) {
	if len(k) <= 19 {
		return Ref{}, false
	}
	r, _ := strconv.Atoi(k[:5])
	d, _ := strconv.ParseInt(k[5:19], 10, 64)
	return Ref{ID: k[19:], Rating: r, DateMS: d}, true
}

// ParseLast reads a LastKey back; ok is false for "".
func ParseLast(k string) (Ref, bool) {
	if len(k) <= 19 {
		return Ref{}, false
	}
	d, _ := strconv.ParseInt(k[:14], 10, 64)
	r, _ := strconv.Atoi(k[14:19])
	return Ref{ID: k[19:], Rating: r, DateMS: d}, true
}

// Answer is what the explorer knows of a position.
type Answer struct {
	// Moves are the moves played, the most played first (then by hole).
	Moves []Stats
	// Top and Recent are games through the position: the highest rated
	// and the most recent, at most MaxRefs each, none in both.
	Top, Recent []Ref
}

// MaxRefs is how many games of each kind an Answer lists.
const MaxRefs = 4

// Total returns the games of the position.
func (a Answer) Total() Stats {
	var t Stats
	for _, m := range a.Moves {
		t.Add(m)
	}
	return t
}

// Finish sorts the moves and picks the games from their Top and Last.
func (a *Answer) Finish() {
	slices.SortFunc(a.Moves, func(x, y Stats) int {
		if x.Games != y.Games {
			return int(y.Games - x.Games)
		}
		return int(x.Move) - int(y.Move)
	})
	var tops, lasts []Ref
	for _, m := range a.Moves {
		if r, ok := ParseTop(m.Top); ok && r.Rating > 0 {
			tops = append(tops, r)
		}
		if r, ok := ParseLast(m.Last); ok {
			lasts = append(lasts, r)
		}
	}
	slices.SortFunc(tops, func(x, y Ref) int { return strings.Compare(y.TopKey(), x.TopKey()) })
	slices.SortFunc(lasts, func(x, y Ref) int { return strings.Compare(y.LastKey(), x.LastKey()) })
	seen := map[string]bool{}
	a.Top, a.Recent = nil, nil
	for _, r := range tops {
		if len(a.Top) < MaxRefs && !seen[r.ID] {
			seen[r.ID] = true
			a.Top = append(a.Top, r)
		}
	}
	for _, r := range lasts {
		if len(a.Recent) < MaxRefs && !seen[r.ID] {
			seen[r.ID] = true
			a.Recent = append(a.Recent, r)
		}
	}
}

// Walk calls visit with the key of each position of the game's first
// MaxPly plies and the move played from it, stopping at the first illegal
// move.
func Walk(start toguz.Position, moves []toguz.Move, visit func(key uint64, m toguz.Move)) {
	p := start
	for i, m := range moves {
		if i == MaxPly {
			return
		}
		next, err := p.Play(m)
		if err != nil {
			return
		}
		visit(p.Key(), m)
		p = next
	}
}

// Counts returns the counts of a result: White's win, a draw, Black's win.
func Counts(r toguz.Result) (white, draw, black int64) {
	switch r {
	case toguz.WhiteWins:
		return 1, 0, 0
	case toguz.Draw:
		return 0, 1, 0
	case toguz.BlackWins:
		return 0, 0, 1
	}
	return 0, 0, 0
}
