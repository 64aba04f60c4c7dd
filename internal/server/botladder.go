package server

import (
	"cmp"
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// The computer ladder (/bots): the bots that opted in (POST
// /api/bot/account/ladder) and are connected (an event stream open) are
// paired, whenever they are idle (no game being played), against each
// other in rated games of the ladder's time control, rated in the bots'
// categories. Bounded: at most MaxGames ladder games at once, one per bot.

// LadderConfig is the computer ladder's. Zero fields take the defaults.
type LadderConfig struct {
	// Every is how often idle bots are paired (default 5 s; negative:
	// never, the ladder is off).
	Every time.Duration
	// MaxGames is the most ladder games being played at once (default 20).
	MaxGames int
	// TC is the ladder games' time control (default 3+2, blitz).
	TC clock.TimeControl
	// Bots is the most bots the ladder reads each round (default 500).
	Bots int
}

func (c *LadderConfig) defaults() {
	c.Every = cmp.Or(c.Every, 5*time.Second)
	c.MaxGames = cmp.Or(c.MaxGames, 20)
	if c.TC.Kind() == clock.Unlimited {
		c.TC = clock.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}
	}
	c.Bots = cmp.Or(c.Bots, 500)
}

// RunLadder pairs the ladder's idle bots every LadderConfig.Every until
// ctx ends (App.Open starts it with the hub's context).
func (s *Server) RunLadder(ctx context.Context) {
	cfg := s.cfg.Ladder
	cfg.defaults()
	if cfg.Every < 0 || s.cfg.Bots == nil {
		return
	}
	t := time.NewTicker(cfg.Every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := s.pairLadder(ctx, cfg); err != nil && ctx.Err() == nil {
				s.log.Warn("ladder", "err", err)
			}
		}
	}
}

// ladderGames returns the ladder games being played: rated games of the
// ladder's time control between two bots.
func (s *Server) ladderGames(bots map[string]bool, tc clock.TimeControl) []live.LiveGame {
	var out []live.LiveGame
	for _, g := range s.cfg.Hub.Games() {
		if g.Rated && g.TC == tc.String() && bots[g.White.Name] && bots[g.Black.Name] {
			out = append(out, g)
		}
	}
	return out
}

// pairLadder pairs the idle connected ladder bots at random, within the
// bound of games at once, and returns the games it started.
func (s *Server) pairLadder(ctx context.Context, cfg LadderConfig) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, site.StoreTimeout)
	defer cancel()
	bots, err := s.cfg.Bots.Bots(ctx, true, cfg.Bots)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, b := range bots {
		names[b.Name] = true
	}
	room := cfg.MaxGames - len(s.ladderGames(names, cfg.TC))
	var idle []store.Bot
	for _, b := range bots {
		if s.bot.events.online(b.ID) && len(s.cfg.Hub.GamesOf(live.UserSeat(b.ID, b.Name).ID)) == 0 {
			idle = append(idle, b)
		}
	}
	rand.Shuffle(len(idle), func(i, j int) { idle[i], idle[j] = idle[j], idle[i] })
	cat, _ := live.Category(cfg.TC)
	var ids []string
	for i := 0; i+1 < len(idle) && room > 0; i += 2 {
		a, b := idle[i], idle[i+1]
		wa, wb := live.UserSeat(a.ID, a.Name), live.UserSeat(b.ID, b.Name)
		wa.Rating, wb.Rating = a.Perfs[cat.Bot()-rating.BotBullet].Int(), b.Perfs[cat.Bot()-rating.BotBullet].Int()
		id, err := s.startBotGame(ctx, live.Spec{Rules: toguz.Standard(), TC: cfg.TC, Rated: true, White: wa, Black: wb}, "ladder")
		if err != nil {
			return ids, err
		}
		ids = append(ids, id)
		room--
	}
	return ids, nil
}

// botRow is one bot of the /bots page.
type botRow struct {
	Name    string
	Ladder  bool
	Online  bool
	Ratings []botRating
}

type botRating struct {
	Rating      int
	Games       int
	Provisional bool
}

// pageBots is GET /bots: the bots with their ratings in the bots'
// categories, and the ladder's games being played.
func (s *Server) pageBots(w http.ResponseWriter, r *http.Request) error {
	var rows []botRow
	names := map[string]bool{}
	if s.cfg.Bots != nil {
		ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
		defer cancel()
		bots, err := s.cfg.Bots.Bots(ctx, false, 200)
		if err != nil {
			return err
		}
		for _, b := range bots {
			row := botRow{Name: b.Name, Ladder: b.Ladder, Online: s.bot.events.online(b.ID)}
			for _, p := range b.Perfs {
				row.Ratings = append(row.Ratings, botRating{Rating: p.Int(), Games: p.Games, Provisional: p.RD > rating.ProvisionalRD})
			}
			rows = append(rows, row)
			names[b.Name] = true
		}
	}
	var games []live.LiveGame
	for _, g := range s.cfg.Hub.Games() {
		if names[g.White.Name] && names[g.Black.Name] {
			games = append(games, g)
		}
	}
	cfg := s.cfg.Ladder
	cfg.defaults()
	var cats []string
	for _, c := range rating.BotCategories {
		cats = append(cats, c.String())
	}
	return s.Render(w, http.StatusOK, "bots", s.Page(r, "bots.title", struct {
		Bots       []botRow
		Games      []live.LiveGame
		Categories []string
		TC         string
		MaxGames   int
	}{rows, games, cats, cfg.TC.String(), cfg.MaxGames}))
}

// ---- the tokens on the settings page ----

// settingsTokens is the settings page's tokens section.
type settingsTokens struct {
	On     bool // the server has the bot API
	Tokens []tokenJSON
	Scopes []string
	New    string // the token just made, shown this once
	Error  string
}

func (s *Server) tokensSection(ctx context.Context, uid int64) settingsTokens {
	st := settingsTokens{On: s.cfg.Bots != nil, Scopes: Scopes}
	if st.On {
		st.Tokens, _ = s.listTokens(ctx, uid)
	}
	return st
}

// pageCreateToken is POST /settings/tokens: the settings page again, with
// the new token shown once.
func (s *Server) pageCreateToken(w http.ResponseWriter, r *http.Request) error {
	a, err := s.sessionAccount(r)
	if err != nil {
		return redirect(w, r, "/login")
	}
	if err := r.ParseForm(); err != nil {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.form_unreadable")
	}
	t, _, err := s.createToken(r.Context(), a, r.PostFormValue("description"), r.PostForm["scope"])
	sec := settingsTokens{}
	if err != nil {
		ae := s.AsError(r, err)
		sec.Error = s.Message(r, ae)
	}
	sec.New = t
	return s.renderSettings(w, r, a, sec)
}

// pageRevokeToken is POST /settings/tokens/{id}/revoke.
func (s *Server) pageRevokeToken(w http.ResponseWriter, r *http.Request) error {
	a, err := s.sessionAccount(r)
	if err != nil {
		return redirect(w, r, "/login")
	}
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err := s.cfg.Bots.RevokeToken(r.Context(), a.ID, id); err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return redirect(w, r, "/settings#tokens")
}
