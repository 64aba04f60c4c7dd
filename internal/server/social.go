package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// What players expect from lichess around a game (docs/api.md): the
// lobby's chat socket and the report of a chat message (the games being
// played and the TV are internal/tv's). The game's rematch, takeback and
// chat are messages of the game websocket (internal/live, social.go).

// Reports stores and lists reported chat messages: *store.Store.
type Reports interface {
	AddReport(ctx context.Context, r store.Report) (int64, error)
	Reports(ctx context.Context, limit, offset int) ([]store.Report, error)
}

// Chat rate limits (per identity and per client address), for the hub's
// Config.
const (
	ChatPerSecond        = 1 // a person's steady rate
	ChatBurst            = 5
	ChatPerAddressSecond = 5 // one address's: a household, a classroom
	ChatAddressBurst     = 20
)

// ChatLimiters returns the chat limiters of live.Config: per identity and
// per address, bounded in memory (auth.Limiter).
func ChatLimiters() (perIdentity, perAddress live.ChatLimiter) {
	return auth.NewLimiter(ChatPerSecond, ChatBurst, time.Now), auth.NewLimiter(ChatPerAddressSecond, ChatAddressBurst, time.Now)
}

// SeatRating returns live.Config.SeatRating over the archive: a user's
// rating in a time control's category now (a guest or the engine: 0).
func SeatRating(a Archive) func(ctx context.Context, s game.Seat, tc clock.TimeControl) int {
	return func(ctx context.Context, s game.Seat, tc clock.TimeControl) int {
		cat, ok := live.Category(tc)
		if s.UserID == 0 || !ok {
			return s.Rating
		}
		ctx, cancel := context.WithTimeout(ctx, site.StoreTimeout)
		defer cancel()
		p, err := a.Profile(ctx, s.Name)
		if err != nil {
			return s.Rating
		}
		if ri, ok := p.Ratings[cat.String()]; ok {
			return int(ri.Rating + 0.5)
		}
		return int(rating.DefaultRating)
	}
}

// chatter returns who chats from r.
func (s *Server) chatter(r *http.Request) live.Chatter {
	id := s.Identity(r)
	c := live.Chatter{Addr: auth.AddrKey(auth.ClientIP(r))}
	if id.Known() {
		c.ID, c.Name = id.Seat().ID, id.Name()
	}
	return c
}

// lobbyChatWS is GET /api/lobby/chat: the lobby's recent chat messages,
// then each one posted; the client posts with {"type":"chat","text":…}.
func (s *Server) lobbyChatWS(w http.ResponseWriter, r *http.Request) {
	if err := s.forgedGuest(r); err != nil {
		s.writeJSONError(w, r, s.AsError(r, err))
		return
	}
	if s.cfg.LobbyChat == nil {
		s.writeJSONError(w, r, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_lobby_chat"))
		return
	}
	who, lang := s.chatter(r), s.Lang(r)
	me := s.Identity(r)
	if s.kid(r.Context(), me) {
		s.writeJSONError(w, r, errKidChat())
		return
	}
	_, blocked := s.blockedWith(r.Context(), me)
	filter := chatFilter(false, blocked)
	c, err := site.AcceptWS(w, r)
	if err != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	defer cancel()
	sub := s.cfg.LobbyChat.Subscribe()
	defer s.cfg.LobbyChat.Unsubscribe(sub)
	// One writer: the room's messages and this client's answers, in order.
	replies := make(chan []byte, 8)
	go func() {
		defer cancel()
		wr := site.NewWriter(c)
		defer wr.Stop()
		for {
			var b []byte
			select {
			case m, ok := <-sub.Out():
				if !ok {
					if s.cfg.LobbyChat.Dropped(sub) {
						c.Close(websocket.StatusTryAgainLater, "too slow: reconnect for the chat")
					}
					return
				}
				b = m
				if filter != nil {
					if b = filter(b); b == nil {
						continue
					}
				}
			case b = <-replies:
			case <-ctx.Done():
				return
			}
			if err := wr.Write(b); err != nil {
				return
			}
		}
	}()
	defer site.KeepAlive(ctx, c)()
	reply := func(b []byte) {
		select {
		case replies <- b:
		default: // a client that does not read its answers loses them
		}
	}
	lim := rate.NewLimiter(rate.Limit(s.cfg.MessageRate), s.cfg.MessageBurst)
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		if !lim.Allow() {
			c.Close(websocket.StatusPolicyViolation, "too many messages")
			return
		}
		var m live.ClientMsg
		switch err := json.Unmarshal(data, &m); {
		case err != nil:
			reply(site.WSError(s.cat, lang, wsBad("apierr.ws_not_json").WithDetail(err)))
		case m.Type == "ping":
			reply([]byte(site.Pong))
		case m.Type == "chat":
			if err := s.cfg.LobbyChat.Post(who, m.Text); err != nil {
				var le *live.Error
				if errors.As(err, &le) {
					reply(site.WSError(s.cat, lang, s.AsError(r, le)))
				}
			}
		default:
			reply(site.WSError(s.cat, lang, wsBad("apierr.ws_lobby_chat")))
		}
	}
}

// reportRequest is the body of POST /api/reports.
type reportRequest struct {
	Game string `json:"game"` // "" for the lobby
	Room string `json:"room"` // players, spectators or lobby
	User string `json:"user"` // the name shown with the message
	Text string `json:"text"`
}

// apiReport is POST /api/reports: the report button of a chat message.
func (s *Server) apiReport(w http.ResponseWriter, r *http.Request) error {
	id := s.Identity(r)
	if !id.Known() {
		return apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "apierr.report_identity")
	}
	var q reportRequest
	if err := site.ReadJSON(w, r, &q); err != nil {
		return err
	}
	switch {
	case q.Room != live.RoomPlayers && q.Room != live.RoomSpectators && q.Room != live.RoomLobby:
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.bad_room", site.Excerpt(q.Room))
	case (q.Room == live.RoomLobby) != (q.Game == ""):
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.report_room_game")
	case q.User == "" || len(q.User) > 64 || len(q.Game) > 32:
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.report_user")
	case q.Text == "" || utf8.RuneCountInString(q.Text) > live.MaxChatRunes:
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.report_text", live.MaxChatRunes)
	case s.cfg.Reports == nil:
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_reports")
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	verified := false
	if q.Room == live.RoomLobby {
		verified = s.cfg.LobbyChat != nil && s.cfg.LobbyChat.Said(q.User, q.Text)
	} else {
		verified = s.cfg.Hub.ChatSaid(ctx, q.Game, q.Room, q.User, q.Text)
	}
	rid, err := s.cfg.Reports.AddReport(ctx, store.Report{Reporter: id.Seat().ID, ReporterName: id.Name(),
		Reported: q.User, GameID: q.Game, Room: q.Room, Message: q.Text, Verified: verified})
	if err != nil {
		return err
	}
	s.log.Info("chat report", "id", rid, "by", id.Name(), "user", q.User, "game", q.Game, "verified", verified)
	return site.WriteJSON(w, http.StatusCreated, map[string]any{"id": rid, "verified": verified})
}
