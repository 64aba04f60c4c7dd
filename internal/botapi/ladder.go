package botapi

import (
	"cmp"
	"context"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
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
// ctx ends (the server's App starts it with the hub's context).
func (a *API) RunLadder(ctx context.Context) {
	cfg := a.ladder
	cfg.defaults()
	if cfg.Every < 0 || a.st == nil {
		return
	}
	t := time.NewTicker(cfg.Every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := a.PairLadder(ctx, cfg); err != nil && ctx.Err() == nil {
				a.kit.Logger().Warn("ladder", "err", err)
			}
		}
	}
}

// ladderGames returns the ladder games being played: rated games of the
// ladder's time control between two bots.
func (a *API) ladderGames(bots map[string]bool, tc clock.TimeControl) []live.LiveGame {
	var out []live.LiveGame
	for _, g := range a.hub.Games() {
		if g.Rated && g.TC == tc.String() && bots[g.White.Name] && bots[g.Black.Name] {
			out = append(out, g)
		}
	}
	return out
}

// PairLadder pairs the idle connected ladder bots at random once, within
// cfg's bound of games at once (zero fields take the defaults), and
// returns the games it started: a round of RunLadder.
func (a *API) PairLadder(ctx context.Context, cfg LadderConfig) ([]string, error) {
	cfg.defaults()
	ctx, cancel := context.WithTimeout(ctx, site.StoreTimeout)
	defer cancel()
	bots, err := a.st.Bots(ctx, true, cfg.Bots)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, b := range bots {
		names[b.Name] = true
	}
	room := cfg.MaxGames - len(a.ladderGames(names, cfg.TC))
	var idle []store.Bot
	for _, b := range bots {
		if a.events.Online(b.ID) && len(a.hub.GamesOf(game.UserSeat(b.ID, b.Name).ID)) == 0 {
			idle = append(idle, b)
		}
	}
	rand.Shuffle(len(idle), func(i, j int) { idle[i], idle[j] = idle[j], idle[i] })
	cat, _ := live.Category(cfg.TC)
	var ids []string
	for i := 0; i+1 < len(idle) && room > 0; i += 2 {
		x, y := idle[i], idle[i+1]
		wx, wy := game.UserSeat(x.ID, x.Name), game.UserSeat(y.ID, y.Name)
		wx.Rating, wy.Rating = x.Perfs[cat.Bot()-rating.BotBullet].Int(), y.Perfs[cat.Bot()-rating.BotBullet].Int()
		id, err := a.startBotGame(ctx, game.Spec{Rules: toguz.Standard(), TC: cfg.TC, Rated: true, White: wx, Black: wy}, "ladder")
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
func (a *API) pageBots(w http.ResponseWriter, r *http.Request) error {
	var rows []botRow
	names := map[string]bool{}
	if a.st != nil {
		ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
		defer cancel()
		bots, err := a.st.Bots(ctx, false, 200)
		if err != nil {
			return err
		}
		viewer := a.kit.Identity(r).Account.ID
		for _, b := range bots {
			row := botRow{Name: b.Name, Ladder: b.Ladder, Online: a.events.Online(b.ID)}
			if row.Online && a.priv != nil {
				row.Online = a.priv.MaySeeOnline(ctx, viewer, b.ID)
			}
			for _, p := range b.Perfs {
				row.Ratings = append(row.Ratings, botRating{Rating: p.Int(), Games: p.Games, Provisional: p.RD > rating.ProvisionalRD})
			}
			rows = append(rows, row)
			names[b.Name] = true
		}
	}
	var games []live.LiveGame
	for _, g := range a.hub.Games() {
		if names[g.White.Name] && names[g.Black.Name] {
			games = append(games, g)
		}
	}
	cfg := a.ladder
	cfg.defaults()
	var cats []string
	for _, c := range rating.BotCategories {
		cats = append(cats, c.String())
	}
	return a.kit.Render(w, http.StatusOK, "bots", a.kit.Page(r, "bots.title", struct {
		Bots       []botRow
		Games      []live.LiveGame
		Categories []string
		TC         string
		MaxGames   int
	}{rows, games, cats, cfg.TC.String(), cfg.MaxGames}))
}
