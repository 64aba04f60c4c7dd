// Package profile is the players' pages: a player's profile GET /@/{name}
// (his ratings, the chart of their history, his games), the leaderboard
// GET /leaderboard, and their API GET /api/users/{name},
// /api/users/{name}/games and /api/leaderboard.
//
// It owns the profile's domain types and reads them through its port,
// Store (the server's archive over internal/store). It keeps no state:
// every answer is read from the store. An unknown player is a 404
// not_found (apierr.no_player) on the pages and the API alike; the
// leaderboard lists only stable (not provisional) ratings, as the store
// ranks them.
package profile

import (
	"cmp"
	"context"
	"errors"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/site"
)

// Profile is a user's public page.
type Profile struct {
	Name    string                `json:"name"`
	Created time.Time             `json:"created"`
	Ratings map[string]RatingInfo `json:"ratings"`
	History []RatingPoint         `json:"history"`
}

// RatingInfo is a rating in one category.
type RatingInfo struct {
	Rating      float64 `json:"rating"`
	RD          float64 `json:"rd"`
	Provisional bool    `json:"provisional"`
	Games       int     `json:"games"`
}

// RatingPoint is one entry of the rating history.
type RatingPoint struct {
	Category string    `json:"category"`
	At       time.Time `json:"at"`
	Rating   float64   `json:"rating"`
}

// LeaderRow is a line of the leaderboard.
type LeaderRow struct {
	Name   string  `json:"name"`
	Rating float64 `json:"rating"`
	RD     float64 `json:"rd"`
	Games  int     `json:"games"`
}

// Store is what the players' pages read: the server's archive.
type Store interface {
	// Profile returns a user's ratings and rating history (errors wrap
	// live.ErrNotFound for an unknown name).
	Profile(ctx context.Context, name string) (Profile, error)
	// UserGames returns a user's games, newest first.
	UserGames(ctx context.Context, name string, limit int) ([]site.GameSummary, error)
	// Leaderboard returns the best players of a category with a stable
	// (not provisional) rating.
	Leaderboard(ctx context.Context, c rating.Category, limit int) ([]LeaderRow, error)
	// RatingCounts returns how many of the leaderboard's players (stable
	// ratings) of a category fall into each band of width points, from
	// lo (none: no player).
	RatingCounts(ctx context.Context, c rating.Category, width float64) (lo float64, counts []int, err error)
}

// ErrorKeys are the messages of the players' pages' errors, for the
// catalog's completeness test.
func ErrorKeys() []string { return []string{"apierr.bad_category", "apierr.no_player"} }

// The lists' lengths: the profile's games, the leaderboard's players, and
// the games GET /api/users/{name}/games gives when ?limit= does not say
// (at most maxUserGames).
const (
	profileGames     = 100
	leaderboardRows  = 100
	defaultUserGames = 50
	maxUserGames     = 200
)

// Site is the players' pages and their API.
type Site struct {
	kit   site.Kit
	store Store
	rel   Relations   // nil: no account is closed, nobody blocks
	feds  Federations // nil: no register
	// social returns the follows' panel (nil: none).
	social func(ctx context.Context, viewer int64, name string) (any, error)
}

// Relations tells a profile page what the site's privacy knows: whether
// the player's account is closed, and whether who looks blocks him.
type Relations interface {
	// Closed reports whether name (its own or its games' neutral name)
	// is a closed account's.
	Closed(ctx context.Context, name string) (bool, error)
	// Blocks reports whether account viewer blocks the player name.
	Blocks(ctx context.Context, viewer int64, name string) (bool, error)
}

// SetRelations gives the profile pages the site's privacy.
func (s *Site) SetRelations(rel Relations) { s.rel = rel }

// FederationEntry is the federations' register entry an account is
// linked to (internal/federation): its federation id and its ratings in
// its federation's latest lists by discipline.
type FederationEntry struct {
	ID, Federation string
	Ratings        map[string]int
}

// Federations finds the register entry linked to a player's account.
type Federations interface {
	// LinkedEntry returns the entry linked to the account name; false
	// when none is.
	LinkedEntry(ctx context.Context, name string) (FederationEntry, bool, error)
}

// SetFederations gives the profile pages the federations' register: a
// linked player's profile shows his federation ratings beside the site's.
func (s *Site) SetFederations(f Federations) { s.feds = f }

// SetSocial gives the profile pages the follows' panel of the player name
// as account viewer (0: nobody) sees it (internal/friends; the template
// "profile-social" draws it).
func (s *Site) SetSocial(f func(ctx context.Context, viewer int64, name string) (any, error)) {
	s.social = f
}

// NewSite returns the players' pages and API over st.
func NewSite(kit site.Kit, st Store) *Site {
	return &Site{kit: kit, store: st}
}

// Routes registers the players' routes on r.
func (s *Site) Routes(r site.Router) {
	r.API("GET /api/users/{name}", s.apiUser)
	r.API("GET /api/users/{name}/games", s.apiUserGames)
	r.API("GET /api/leaderboard", s.apiLeaderboard)
	r.Page("GET /@/{name}", s.pageProfile)
	r.Page("GET /leaderboard", s.pageLeaderboard)
}

// playerError is the error of the store's answer about the player name.
func playerError(err error, name string) error {
	if errors.Is(err, live.ErrNotFound) {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_player", site.Excerpt(name))
	}
	return err
}

// category reads the leaderboard's ?category= (blitz when absent), a 400
// bad_request when rating knows none of that name.
func category(r *http.Request) (rating.Category, error) {
	c, err := rating.ParseCategory(cmp.Or(r.URL.Query().Get("category"), "blitz"))
	if err != nil {
		return c, apierr.BadRequest(apierr.CodeBadRequest, "apierr.bad_category", site.Excerpt(r.URL.Query().Get("category"))).WithDetail(err)
	}
	return c, nil
}

// ---- pages ----

type ratingRow struct {
	Category string
	RatingInfo
}

type profileData struct {
	Profile     Profile
	Ratings     []ratingRow
	Games       []site.GameSummary
	Chart       template.HTML
	Provisional bool // a rating is provisional: the page explains the mark
	// Closed: the account is closed, and the page says only that.
	// CanBlock: an account other than the player looks; Blocked: it
	// blocks him.
	Closed, CanBlock, Blocked bool
	// Federation is the register entry linked to the account, nil none.
	Federation *FederationEntry
	// Social is the follows' panel (internal/friends), nil without one.
	Social any
}

func (s *Site) pageProfile(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	name := r.PathValue("name")
	if s.rel != nil {
		if closed, err := s.rel.Closed(ctx, name); err != nil {
			return err
		} else if closed {
			p := s.kit.Page(r, "profile.title", profileData{Profile: Profile{Name: name}, Closed: true}, name)
			return s.kit.Render(w, http.StatusOK, "profile", p)
		}
	}
	prof, err := s.store.Profile(ctx, name)
	if err != nil {
		return playerError(err, name)
	}
	games, err := s.store.UserGames(ctx, name, profileGames)
	if err != nil {
		return err
	}
	var rows []ratingRow
	for _, c := range append(rating.Categories[:], rating.BotCategories[:]...) {
		if ri, ok := prof.Ratings[c.String()]; ok {
			rows = append(rows, ratingRow{c.String(), ri})
		}
	}
	p := s.kit.Page(r, "profile.title", nil, prof.Name)
	cat := s.kit.Catalog()
	chart := ratingChart(prof.History, func(key string, args ...any) string { return cat.T(p.Lang, key, args...) })
	provisional := slices.ContainsFunc(rows, func(r ratingRow) bool { return r.Provisional })
	d := profileData{Profile: prof, Ratings: rows, Games: games, Chart: chart, Provisional: provisional}
	if me := s.kit.Identity(r).Account; s.rel != nil && me.ID != 0 && !strings.EqualFold(me.Name, prof.Name) {
		d.CanBlock = true
		if d.Blocked, err = s.rel.Blocks(ctx, me.ID, prof.Name); err != nil {
			return err
		}
	}
	if s.feds != nil {
		if fe, ok, err := s.feds.LinkedEntry(ctx, prof.Name); err != nil {
			return err
		} else if ok {
			d.Federation = &fe
		}
	}
	if s.social != nil {
		if d.Social, err = s.social(ctx, s.kit.Identity(r).Account.ID, prof.Name); err != nil {
			return err
		}
	}
	p.Data = d
	return s.kit.Render(w, http.StatusOK, "profile", p)
}

type leaderboardData struct {
	Category   string
	Categories []string
	Rows       []LeaderRow
	Histogram  template.HTML
	Players    int // in the histogram
}

func (s *Site) pageLeaderboard(w http.ResponseWriter, r *http.Request) error {
	c, err := category(r)
	if err != nil {
		return err
	}
	rows, err := s.store.Leaderboard(r.Context(), c, leaderboardRows)
	if err != nil {
		return err
	}
	lo, counts, err := s.store.RatingCounts(r.Context(), c, histogramBand)
	if err != nil {
		return err
	}
	var cats []string
	for _, c := range rating.Categories {
		cats = append(cats, c.String())
	}
	p := s.kit.Page(r, "leaderboard.title", nil)
	cat := s.kit.Catalog()
	hist, players := ratingHistogram(lo, counts, func(key string, args ...any) string { return cat.T(p.Lang, key, args...) },
		func(key string, n int, args ...any) string { return cat.N(p.Lang, key, n, args...) }, cat.T(p.Lang, "category."+c.String()))
	p.Data = leaderboardData{c.String(), cats, rows, hist, players}
	return s.kit.Render(w, http.StatusOK, "leaderboard", p)
}

// ---- API ----

func (s *Site) apiUser(w http.ResponseWriter, r *http.Request) error {
	if closed, err := s.closed(r); err != nil || closed {
		if err != nil {
			return err
		}
		return site.WriteJSON(w, http.StatusOK, map[string]any{"name": r.PathValue("name"), "closed": true})
	}
	p, err := s.store.Profile(r.Context(), r.PathValue("name"))
	if err != nil {
		return playerError(err, r.PathValue("name"))
	}
	return site.WriteJSON(w, http.StatusOK, p)
}

// closed reports whether the player {name} of r is a closed account: his
// profile says only that, and his games are not listed under his name.
func (s *Site) closed(r *http.Request) (bool, error) {
	if s.rel == nil {
		return false, nil
	}
	return s.rel.Closed(r.Context(), r.PathValue("name"))
}

func (s *Site) apiUserGames(w http.ResponseWriter, r *http.Request) error {
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	if limit <= 0 || limit > maxUserGames {
		limit = defaultUserGames
	}
	if closed, err := s.closed(r); err != nil || closed {
		if err != nil {
			return err
		}
		return site.WriteJSON(w, http.StatusOK, map[string]any{"games": []site.GameSummary{}})
	}
	games, err := s.store.UserGames(r.Context(), r.PathValue("name"), limit)
	if err != nil {
		return playerError(err, r.PathValue("name"))
	}
	if games == nil {
		games = []site.GameSummary{}
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"games": games})
}

func (s *Site) apiLeaderboard(w http.ResponseWriter, r *http.Request) error {
	c, err := category(r)
	if err != nil {
		return err
	}
	rows, err := s.store.Leaderboard(r.Context(), c, leaderboardRows)
	if err != nil {
		return err
	}
	if rows == nil {
		rows = []LeaderRow{}
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"category": c.String(), "players": rows})
}
