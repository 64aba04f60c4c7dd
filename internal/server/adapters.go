package server

import (
	"context"
	"errors"
	"fmt"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/archive"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/profile"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Archive is what the pages and the API read from the database besides the
// live games: the archive's own pages (internal/archive: its search,
// imports and exports) and the server's (profiles, game pages, the
// leaderboard, the seats' ratings).
type Archive interface {
	// Store is the archive's port: Game, Tags, Import and Search.
	archive.Store
	// profile.Profile returns a user's ratings and rating history (errors wrap
	// live.ErrNotFound for an unknown name).
	Profile(ctx context.Context, name string) (profile.Profile, error)
	// UserGames returns a user's games, newest first.
	UserGames(ctx context.Context, name string, limit int) ([]site.GameSummary, error)
	// Leaderboard returns the best players of a category with a stable
	// (not provisional) rating.
	Leaderboard(ctx context.Context, c rating.Category, limit int) ([]profile.LeaderRow, error)
	// RatingCounts returns the leaderboard's players of a category in
	// bands of width points (profile.Store's).
	RatingCounts(ctx context.Context, c rating.Category, width float64) (lo float64, counts []int, err error)
	// SetLang stores the interface language an account chose.
	SetLang(ctx context.Context, userID int64, lang string) error
}

// StoreArchive puts internal/store behind Archive, for the pages and the
// API; its games come through store.LiveStore, as the hub's do.
type StoreArchive struct{ S *store.Store }

var _ Archive = StoreArchive{}

// Game loads a stored game with its moves.
func (sa StoreArchive) Game(ctx context.Context, id string) (game.Saved, error) {
	return store.LiveStore{S: sa.S}.Game(ctx, id)
}

// liveNotFound makes the store's not found the API's (live.ErrNotFound).
func liveNotFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%w: %w", live.ErrNotFound, err)
	}
	return err
}

// profile.Profile returns a user's ratings and rating history.
func (sa StoreArchive) Profile(ctx context.Context, name string) (profile.Profile, error) {
	u, err := sa.S.UserByName(ctx, name)
	if err != nil {
		return profile.Profile{}, liveNotFound(err)
	}
	p := profile.Profile{Name: u.Name, Created: u.Created, Ratings: map[string]profile.RatingInfo{}}
	perfs, err := sa.S.Perfs(ctx, u.ID)
	if err != nil {
		return p, err
	}
	for _, pf := range perfs {
		if pf.Games == 0 {
			continue
		}
		p.Ratings[pf.Category.String()] = profile.RatingInfo{Rating: pf.Rating.Rating, RD: pf.RD, Provisional: pf.Provisional(), Games: pf.Games}
		h, err := sa.S.RatingHistory(ctx, u.ID, pf.Category)
		if err != nil {
			return p, err
		}
		for _, pt := range h {
			p.History = append(p.History, profile.RatingPoint{Category: pf.Category.String(), At: pt.At, Rating: pt.Rating.Rating})
		}
	}
	// The bots' categories (a bot's games, a person's against bots): the
	// ratings, not in the chart's history.
	for _, c := range rating.BotCategories {
		pf, err := sa.S.Perf(ctx, u.ID, c)
		if err != nil {
			return p, err
		}
		if pf.Games > 0 {
			p.Ratings[c.String()] = profile.RatingInfo{Rating: pf.Rating.Rating, RD: pf.RD, Provisional: pf.Provisional(), Games: pf.Games}
		}
	}
	return p, nil
}

// UserGames returns a user's games, newest first.
func (sa StoreArchive) UserGames(ctx context.Context, name string, limit int) ([]site.GameSummary, error) {
	u, err := sa.S.UserByName(ctx, name)
	if err != nil {
		return nil, liveNotFound(err)
	}
	games, err := sa.S.GamesByUser(ctx, u.ID, limit, 0)
	if err != nil {
		return nil, err
	}
	return summaries(games), nil
}

func summaries(games []store.Game) []site.GameSummary {
	out := make([]site.GameSummary, len(games))
	for i, g := range games {
		status := map[game.Status]string{game.Playing: "playing", game.Created: "playing",
			game.Ended: "ended", game.Aborted: "aborted"}[g.Status]
		out[i] = site.GameSummary{ID: g.ID, White: g.Players[0].Name, Black: g.Players[1].Name,
			WhiteEngine: g.Players[0].Engine, BlackEngine: g.Players[1].Engine, Status: status,
			Result: g.Result.String(), Termination: g.Termination.String(), TC: tcText(g.TimeControl),
			Rated: g.Rated, Plies: g.Plies, Created: g.Created, Source: string(g.Source)}
		if !g.Date.IsZero() {
			d := g.Date
			out[i].Date = &d
		}
	}
	return out
}

// Import stores the games of one import in one transaction.
func (sa StoreArchive) Import(ctx context.Context, by string, perDay int, games []store.Import) ([]store.Stored, error) {
	return sa.S.ImportGames(ctx, by, perDay, games)
}

// Search returns a page of the archive.
func (sa StoreArchive) Search(ctx context.Context, q store.Search) ([]site.GameSummary, bool, error) {
	games, more, err := sa.S.SearchGames(ctx, q)
	if err != nil {
		return nil, false, err
	}
	return summaries(games), more, nil
}

// SetLang stores an account's language.
func (sa StoreArchive) SetLang(ctx context.Context, userID int64, lang string) error {
	return sa.S.SetLang(ctx, userID, lang)
}

func tcText(tc clock.TimeControl) string {
	if tc.Kind() == clock.Unlimited {
		return "∞"
	}
	return tc.String()
}

// Leaderboard returns the best stable ratings of a category.
func (sa StoreArchive) Leaderboard(ctx context.Context, c rating.Category, limit int) ([]profile.LeaderRow, error) {
	es, err := sa.S.Leaderboard(ctx, c, rating.RankableRD, limit)
	if err != nil {
		return nil, err
	}
	out := make([]profile.LeaderRow, len(es))
	for i, e := range es {
		out[i] = profile.LeaderRow{Name: e.Name, Rating: e.Rating.Rating, RD: e.RD, Games: e.Games}
	}
	return out, nil
}

// RatingCounts counts the stable ratings of a category in bands.
func (sa StoreArchive) RatingCounts(ctx context.Context, c rating.Category, width float64) (float64, []int, error) {
	return sa.S.RatingCounts(ctx, c, rating.RankableRD, width)
}

// Tags returns an imported game's record tags.
func (sa StoreArchive) Tags(ctx context.Context, id string) ([]toguz.Tag, error) {
	tags, err := sa.S.Tags(ctx, id)
	return tags, liveNotFound(err)
}
