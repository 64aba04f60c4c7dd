package team

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/site"
)

// The team's chat (GET /api/team/{id}/chat, a websocket): a room of its
// own for each team, for its members only, with the site's chat bounds
// and moderation (live.LobbyChat over the hub: CleanChat's size and
// characters, the per-identity rate, a moderator's mute); an account in
// kid mode has none (Config.Kid). Its recent
// messages live in memory, as the lobby's do. The room's address bucket
// is the account's: only accounts that are members chat here.

// chatRooms keeps one room a team, made when a member first opens it.
type chatRooms struct {
	hub *live.Hub

	mu    sync.Mutex
	rooms map[string]*live.LobbyChat
}

func (c *chatRooms) room(team string) *live.LobbyChat {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.rooms[team]
	if r == nil {
		r = live.NewLobbyChat(c.hub)
		c.rooms[team] = r
	}
	return r
}

// Messages a connection may send a second, and at once.
const (
	chatMessageRate  = 2
	chatMessageBurst = 5
)

// chatSocket is GET /api/team/{id}/chat: the team's recent messages, then
// each one posted; a member posts with {"type":"chat","text":…}.
func (s *Site) chatSocket(w http.ResponseWriter, r *http.Request) {
	fail := func(err error) { s.kit.WriteError(w, r, err) }
	if s.chat == nil {
		fail(apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.team_chat_off"))
		return
	}
	me := s.kit.Identity(r)
	if me.Account.ID == 0 {
		fail(apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "apierr.team_login"))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	id := r.PathValue("id")
	_, role, err := s.svc.Team(ctx, id, me.Account.ID)
	cancel()
	if err != nil {
		fail(err)
		return
	}
	if role == "" {
		fail(apierr.New(http.StatusForbidden, apierr.CodeForbidden, "apierr.team_chat_members"))
		return
	}
	if s.svc.kid != nil && s.svc.kid(r.Context(), me.Account.ID) {
		fail(apierr.New(http.StatusForbidden, apierr.CodeForbidden, "privacy.refused.chat_kid"))
		return
	}
	seat := me.Seat()
	who := live.Chatter{ID: seat.ID, Name: seat.Name, Addr: seat.ID}
	lang := s.kit.Lang(r)
	c, err := site.AcceptWS(w, r)
	if err != nil {
		return
	}
	room := s.chat.room(id)
	sub := room.Subscribe()
	defer room.Unsubscribe(sub)
	wctx, stop := context.WithCancel(context.WithoutCancel(r.Context()))
	defer stop()
	replies := make(chan []byte, 8)
	go func() {
		defer stop()
		wr := site.NewWriter(c)
		defer wr.Stop()
		for {
			var b []byte
			select {
			case m, ok := <-sub.Out():
				if !ok {
					if room.Dropped(sub) {
						c.Close(websocket.StatusTryAgainLater, "too slow: reconnect for the chat")
					}
					return
				}
				b = m
			case b = <-replies:
			case <-wctx.Done():
				return
			}
			if err := wr.Write(b); err != nil {
				return
			}
		}
	}()
	defer site.KeepAlive(wctx, c)()
	reply := func(b []byte) {
		select {
		case replies <- b:
		default: // a client that does not read its answers loses them
		}
	}
	lim := rate.NewLimiter(chatMessageRate, chatMessageBurst)
	for {
		_, data, err := c.Read(wctx)
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
			reply(site.WSError(s.kit.Catalog(), lang, apierr.BadRequest(apierr.CodeBadMessage, "apierr.ws_not_json").WithDetail(err)))
		case m.Type == "ping":
			reply([]byte(site.Pong))
		case m.Type == "chat":
			if err := room.Post(who, m.Text); err != nil {
				var le *live.Error
				if errors.As(err, &le) {
					reply(site.WSError(s.kit.Catalog(), lang, s.kit.AsError(r, le)))
				}
			}
		default:
			reply(site.WSError(s.kit.Catalog(), lang, apierr.BadRequest(apierr.CodeBadMessage, "apierr.ws_lobby_chat")))
		}
	}
}
