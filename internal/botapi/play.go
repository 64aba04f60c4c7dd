package botapi

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/site"
)

// botGameError makes the hub's refusals lichess's: another's game is 403.
func botGameError(err error, id string) error {
	var le *live.Error
	if errors.As(err, &le) && le.Code == apierr.CodeNotAPlayer {
		return apierr.New(http.StatusForbidden, apierr.CodeNotYourGame, "apierr.bot.not_your_game", site.Excerpt(id))
	}
	return site.NotFoundAs(err, "apierr.no_game", id)
}

func okJSON(w http.ResponseWriter) error {
	return site.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// apiBotMove is POST /api/{bot,board}/game/{id}/move/{move}: the move in
// score-sheet notation ("76", "48x"), or the hole alone ("7").
func (a *API) apiBotMove(api string) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := a.playAuth(r, api)
		if err != nil {
			return err
		}
		y, err := toguz.ParsePly(r.PathValue("move"))
		if err != nil {
			return apierr.BadRequest(apierr.CodeIllegalMove, "apierr.bot.bad_move", site.Excerpt(r.PathValue("move"))).WithDetail(err)
		}
		if err := a.hub.PlayPly(r.Context(), r.PathValue("id"), c.chatter(r), y); err != nil {
			return botGameError(err, r.PathValue("id"))
		}
		return okJSON(w)
	}
}

// apiBotAct is POST /api/{bot,board}/game/{id}/{resign,abort,claim-victory}.
func (a *API) apiBotAct(api, act string) func(http.ResponseWriter, *http.Request) error {
	typ := map[string]string{"resign": "resign", "abort": "abort", "claim-victory": "claim_win"}[act]
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := a.playAuth(r, api)
		if err != nil {
			return err
		}
		if err := a.hub.Act(r.Context(), r.PathValue("id"), c.chatter(r), live.ClientMsg{Type: typ}); err != nil {
			return botGameError(err, r.PathValue("id"))
		}
		return okJSON(w)
	}
}

// apiBotDraw is POST /api/{bot,board}/game/{id}/draw/{yes,no}: yes offers
// a draw or accepts the opponent's, no declines it.
func (a *API) apiBotDraw(api string) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := a.playAuth(r, api)
		if err != nil {
			return err
		}
		typ := ""
		switch r.PathValue("accept") {
		case "yes", "true":
			typ = "draw_offer" // the hub accepts a standing offer of the opponent's
		case "no", "false":
			typ = "draw_decline"
		default:
			return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_endpoint", site.Excerpt(r.URL.Path))
		}
		if err := a.hub.Act(r.Context(), r.PathValue("id"), c.chatter(r), live.ClientMsg{Type: typ}); err != nil {
			return botGameError(err, r.PathValue("id"))
		}
		return okJSON(w)
	}
}

// apiBotChat is POST /api/{bot,board}/game/{id}/chat: room=player and
// text=… (form fields, as lichess's). The spectators' room is the site's.
func (a *API) apiBotChat(api string) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := a.playAuth(r, api)
		if err != nil {
			return err
		}
		if room := cmp.Or(r.FormValue("room"), "player"); room != "player" {
			return apierr.BadRequest(apierr.CodeBadRequest, "apierr.bot.bad_room", site.Excerpt(room))
		}
		if a.priv != nil {
			if err := a.priv.MayChat(r.Context(), c.tok.UserID, r.PathValue("id")); err != nil {
				return err
			}
		}
		if err := a.hub.Act(r.Context(), r.PathValue("id"), c.chatter(r), live.ClientMsg{Type: "chat", Text: r.FormValue("text")}); err != nil {
			return botGameError(err, r.PathValue("id"))
		}
		return okJSON(w)
	}
}

// apiBotChatHistory is GET /api/{bot,board}/game/{id}/chat: the players'
// recent messages, [{"user", "text"}].
func (a *API) apiBotChatHistory(api string) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := a.playAuth(r, api)
		if err != nil {
			return err
		}
		id := r.PathValue("id")
		if err := a.ownGame(r.Context(), c, id); err != nil {
			return err
		}
		conn, err := a.hub.JoinWith(r.Context(), id, c.chatter(r))
		if err != nil {
			return site.NotFoundAs(err, "apierr.no_game", id)
		}
		defer conn.Leave()
		lines, ok := chatHistory(r.Context(), conn)
		if !ok {
			return nil
		}
		return site.WriteJSON(w, http.StatusOK, lines)
	}
}

// chatHistory asks conn's game for its players' messages and returns them,
// or what it has after a second; false when the client has gone.
func chatHistory(ctx context.Context, conn *live.Conn) ([]map[string]string, bool) {
	lines := []map[string]string{}
	timeout := time.After(time.Second)
	for {
		select {
		case b, ok := <-conn.Out():
			if !ok {
				return lines, true
			}
			var m struct {
				Type     string          `json:"type"`
				Messages []live.ChatJSON `json:"messages"`
			}
			if json.Unmarshal(b, &m) != nil || m.Type != "chat_history" {
				if m.Type == "state" {
					conn.Send(live.ClientMsg{Type: "chat_history"})
				}
				continue
			}
			for _, cm := range m.Messages {
				lines = append(lines, map[string]string{"user": cm.By, "text": cm.Text})
			}
			return lines, true
		case <-timeout:
			return lines, true
		case <-ctx.Done():
			return nil, false
		}
	}
}

// ---- seats ----

// botSeat returns the seat of user (id, name) in a game of tc, with his
// rating in the category the game would be rated in: the bots' when bot.
func (a *API) botSeat(ctx context.Context, uid int64, name string, tc clock.TimeControl, bot bool) game.Seat {
	seat := game.UserSeat(uid, name)
	cat, ok := live.Category(tc)
	if !ok {
		return seat
	}
	if bot {
		cat = cat.Bot()
	}
	ctx, cancel := context.WithTimeout(ctx, site.StoreTimeout)
	defer cancel()
	if p, err := a.st.Perf(ctx, uid, cat); err == nil {
		seat.Rating = p.Int()
	} else {
		seat.Rating = int(rating.DefaultRating)
	}
	return seat
}

// startBotGame creates the game between a and b (a White) and tells both
// of it on their event streams.
func (a *API) startBotGame(ctx context.Context, spec game.Spec, source string) (string, error) {
	id, err := a.hub.Create(ctx, spec)
	if err != nil {
		return "", err
	}
	spec.ID = id
	for _, seat := range []game.Seat{spec.White, spec.Black} {
		ev := a.gameEvent(ctx, "gameStart", spec, seat.UserID, nil)
		ev.Game.Source = source
		a.events.send(seat.UserID, ev)
	}
	return id, nil
}

// errNoUser is the refusal of a challenge to a name nobody has.
func errNoUser(name string) error {
	return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.bot.no_user", site.Excerpt(name))
}
