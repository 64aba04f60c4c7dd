// Package tv is watching the games being played: their list, GET /games
// and GET /api/games/live (the highest rated first, at most maxListed,
// and how many in all), and the TV, GET /tv and GET /api/tv, which shows
// the game the hub picks (live.Hub.TV) and follows the next one when it
// ends (social.js).
//
// It keeps no state: every answer reads the hub's games of the moment.
// Its port is Games (the live hub); the TV's page is the game's page,
// which the server gives it (Config.GamePage).
package tv

import (
	"net/http"
	"strconv"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/site"
)

// Games is what the list and the TV read of the games being played:
// *live.Hub.
type Games interface {
	// Games returns the games being played, the highest rated first.
	Games() []live.LiveGame
	// TV returns the game the TV shows, false when none is played.
	TV() (live.LiveGame, bool)
}

// Config is what the list and the TV are built from.
type Config struct {
	Games Games
	// GamePage answers GET /game/{id}: GET /tv is the page of the TV's
	// game, its id set as the request's path value "id".
	GamePage site.Handler
}

// ErrorKeys are the messages of the TV's errors, for the catalog's
// completeness test.
func ErrorKeys() []string { return []string{"apierr.no_tv_game"} }

// Site is the list of the games being played and the TV, pages and API.
type Site struct {
	kit site.Kit
	cfg Config
}

// NewSite returns the list and the TV over cfg.
func NewSite(kit site.Kit, cfg Config) *Site {
	return &Site{kit: kit, cfg: cfg}
}

// Routes registers the list's and the TV's routes on r.
func (s *Site) Routes(r site.Router) {
	r.API("GET /api/games/live", s.apiLiveGames)
	r.API("GET /api/tv", s.apiTV)
	r.Page("GET /games", s.pageGames)
	r.Page("GET /tv", s.pageTV)
}

// liveGamesJSON is GET /api/games/live.
type liveGamesJSON struct {
	Games []live.LiveGame `json:"games"`
	Total int             `json:"total"`
}

// maxListed is the most games the list shows.
const maxListed = 100

func (s *Site) liveGames(r *http.Request) liveGamesJSON {
	gs := s.cfg.Games.Games()
	limit := maxListed
	if n, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && n > 0 && n < limit {
		limit = n
	}
	out := liveGamesJSON{Games: gs, Total: len(gs)}
	if len(gs) > limit {
		out.Games = gs[:limit]
	}
	return out
}

// apiLiveGames is GET /api/games/live: the games being played, the
// highest rated first, at most maxListed (?limit=), and how many in all.
func (s *Site) apiLiveGames(w http.ResponseWriter, r *http.Request) error {
	return site.WriteJSON(w, http.StatusOK, s.liveGames(r))
}

// apiTV is GET /api/tv: the game the TV shows (404 when none is played).
func (s *Site) apiTV(w http.ResponseWriter, r *http.Request) error {
	tv, ok := s.cfg.Games.TV()
	if !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_tv_game")
	}
	return site.WriteJSON(w, http.StatusOK, tv)
}

// pageGames is GET /games.
func (s *Site) pageGames(w http.ResponseWriter, r *http.Request) error {
	return s.kit.Render(w, http.StatusOK, "games", s.kit.Page(r, "games.title", s.liveGames(r)))
}

// pageTV is GET /tv: the game page of the TV's game (social.js follows
// the next one when it ends), or a page that waits for one.
func (s *Site) pageTV(w http.ResponseWriter, r *http.Request) error {
	tv, ok := s.cfg.Games.TV()
	if !ok {
		return s.kit.Render(w, http.StatusOK, "tv", s.kit.Page(r, "tv.title", nil))
	}
	r.SetPathValue("id", tv.ID)
	return s.cfg.GamePage(w, r)
}
