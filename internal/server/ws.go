package server

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/metrics"
	"github.com/toguz/toguz/internal/site"
)

// wsMaxRefused is how many rate-limited messages close a game's
// connection (1008); the other bounds are site's (docs/api.md).
const wsMaxRefused = 200

// wsBad is a bad_message error with the message key.
func wsBad(key string) *apierr.Error {
	return apierr.New(http.StatusBadRequest, apierr.CodeBadMessage, key)
}

// closeKeys are the catalog keys of the close reasons' texts (site.Close*).
var closeKeys = map[string]string{
	site.ClosePingTimeout: "close.ping_timeout",
	site.CloseTooMany:     "close.too_many",
	site.CloseResync:      "close.resync",
	site.CloseSlowGame:    "close.slow_game",
	site.CloseSlowLobby:   "close.slow_lobby",
}

// gameWS is GET /api/games/{id}/ws: the game's messages out, the client's
// moves and requests in.
func (s *Server) gameWS(w http.ResponseWriter, r *http.Request) {
	if err := s.forgedGuest(r); err != nil {
		s.writeJSONError(w, r, s.AsError(r, err))
		return
	}
	who := s.chatter(r)
	lang := s.Lang(r)
	me := s.Identity(r)
	_, blocked := s.blockedWith(r.Context(), me)
	filter := chatFilter(s.kid(r.Context(), me), blocked) // kid mode, blocks
	c, err := site.AcceptWS(w, r)
	if err != nil {
		return // Accept has written the error
	}
	// The connection is served on a goroutine of its own, and the handler
	// returns: its goroutine's stack has grown through the middlewares, and
	// an idle connection kept it (11 KiB of the 41 KiB an idle spectator
	// cost; docs/architecture.md, "Memory per idle game"). The request's
	// log line and metrics are the upgrade's.
	go s.serveGameWS(detached(r), c, who, lang, me, filter)
}

// wsRequest is what a websocket's goroutine keeps of its upgrade request:
// the context's values without its cancellation, the path and the path's
// {id}. The request itself would keep its headers and URL as long as the
// socket: about 1.5 KB a connection that every collection marks.
type wsRequest struct {
	ctx      context.Context
	path, id string
}

func detached(r *http.Request) wsRequest {
	return wsRequest{context.WithoutCancel(r.Context()), r.URL.Path, r.PathValue("id")}
}

// serveGameWS serves the game's websocket c, upgraded from r, on its own
// goroutine until the connection ends.
func (s *Server) serveGameWS(r wsRequest, c *websocket.Conn, who live.Chatter, lang string, me site.Identity, filter func([]byte) []byte) {
	defer s.recoverWS(r.path, c)
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	conn, err := s.cfg.Hub.JoinWith(ctx, r.id, who)
	if err != nil {
		e := s.asErrorAt(r.path, site.NotFoundAs(err, "apierr.no_game", r.id))
		site.WriteWS(ctx, c, site.WSError(s.cat, lang, e))
		status := websocket.StatusNormalClosure
		if e.Code == apierr.CodeTooManySpectators {
			status = websocket.StatusTryAgainLater
		}
		c.Close(status, string(e.Code))
		return
	}
	defer conn.Leave()
	kind := metrics.Player
	if conn.Spectator() {
		kind = metrics.Spectator
	}
	defer s.cfg.Metrics.SocketOpened(kind)()
	// moveAt is when the player's last move was read and not yet answered
	// (Unix ns; 0: none): the writer times its acknowledgement.
	var moveAt atomic.Int64
	timed := s.cfg.Metrics != nil && kind == metrics.Player

	// The game's messages, in order, from a goroutine that runs only while
	// some wait. When the game drops the connection (too slow, or the game
	// stopped) the client reconnects.
	w := site.NewWriter(c)
	conn.WriteEach(func(b []byte) error {
		defer s.recoverWS(r.path, c)
		if filter != nil {
			if b = filter(b); b == nil {
				return nil
			}
		}
		if err := w.Write(b); err != nil {
			return err
		}
		if timed && isMoveAnswer(b) {
			if at := moveAt.Swap(0); at != 0 {
				s.cfg.Metrics.ObserveMoveAck(time.Since(time.Unix(0, at)))
			}
		}
		return nil
	}, func(err error) {
		if err == nil {
			c.Close(websocket.StatusGoingAway, cmp.Or(conn.Reason(), site.CloseResync))
		}
		cancel()
	})
	defer site.KeepAlive(ctx, c)()

	lim := rate.NewLimiter(rate.Limit(s.cfg.MessageRate), s.cfg.MessageBurst)
	refused := 0
	// The reads end when ctx does (the writer cancels it), as c.Read(ctx)'s
	// would, with one callback for the connection instead of one a message.
	defer context.AfterFunc(ctx, func() { c.CloseNow() })()
	var buf bytes.Buffer
	for {
		typ, data, err := site.ReadWS(c, &buf)
		if err != nil {
			if websocket.CloseStatus(err) == -1 && ctx.Err() == nil {
				s.log.Debug("websocket read", "err", err)
			}
			return
		}
		if !lim.Allow() {
			refused++
			if refused > wsMaxRefused {
				c.Close(websocket.StatusPolicyViolation, site.CloseTooMany)
				return
			}
			site.WriteWS(ctx, c, site.WSError(s.cat, lang, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.ws_rate", s.cfg.MessageRate)))
			continue
		}
		if typ != websocket.MessageText {
			site.WriteWS(ctx, c, site.WSError(s.cat, lang, wsBad("apierr.ws_binary")))
			continue
		}
		var m live.ClientMsg
		if err := json.Unmarshal(data, &m); err != nil {
			site.WriteWS(ctx, c, site.WSError(s.cat, lang, wsBad("apierr.ws_not_json").WithDetail(err)))
			continue
		}
		if m.Type == "ping" {
			site.WriteWS(ctx, c, []byte(site.Pong))
			continue
		}
		if m.Type == "chat" || ((m.Type == "rematch_offer" || m.Type == "rematch_accept") && !conn.Spectator()) {
			if err := s.gameGate(ctx, me, r.id, m.Type, conn.Spectator()); err != nil {
				site.WriteWS(ctx, c, site.WSError(s.cat, lang, s.asErrorAt(r.path, err)))
				continue
			}
		}
		if timed && m.Type == "move" {
			moveAt.CompareAndSwap(0, time.Now().UnixNano())
		}
		if !conn.Send(m) {
			c.Close(websocket.StatusGoingAway, site.CloseResync)
			return
		}
	}
}

// recoverWS, deferred first by a websocket's own goroutine, does for a
// panic in it what recoverPanics does for a handler: a log line with the
// stack, the connection closed (1011), and the server going on.
func (s *Server) recoverWS(path string, c *websocket.Conn) {
	if v := recover(); v != nil {
		s.log.Error("panic", "path", path, "panic", v, "stack", string(debug.Stack()))
		c.Close(websocket.StatusInternalError, "internal")
	}
}

// isMoveAnswer reports whether b, a message of the game to a player, can
// answer his move: a move (his own, acknowledged once stored) or an error
// (his move refused). The opponent cannot move in between: it is not his
// turn until the player's move is stored.
func isMoveAnswer(b []byte) bool {
	return bytes.HasPrefix(b, []byte(`{"type":"move"`)) || bytes.HasPrefix(b, []byte(`{"type":"error"`))
}

// lobbyWS is GET /api/lobby/ws: the newest seeks, then seek_added and
// seek_removed, and game_started messages.
func (s *Server) lobbyWS(w http.ResponseWriter, r *http.Request) {
	if err := s.forgedGuest(r); err != nil {
		s.writeJSONError(w, r, s.AsError(r, err))
		return
	}
	id := s.Identity(r)
	viewer := ""
	if id.Known() {
		viewer = id.Seat().ID
	}
	_, blocked := s.blockedWith(r.Context(), id)
	filter := seekFilter(blocked)
	lang := s.Lang(r)
	c, err := site.AcceptWS(w, r)
	if err != nil {
		return
	}
	go s.serveLobbyWS(detached(r), c, viewer, id, lang, filter) // as serveGameWS
}

// serveLobbyWS serves the lobby's websocket c, upgraded from r, on its own
// goroutine until the connection ends.
func (s *Server) serveLobbyWS(r wsRequest, c *websocket.Conn, viewer string, id site.Identity, lang string, filter func([]byte) []byte) {
	defer s.recoverWS(r.path, c)
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	sub := s.cfg.Lobby.SubscribeAs(viewer, s.cfg.Moderation.Marked(id.Account.ID))
	defer s.cfg.Lobby.Unsubscribe(sub)
	defer s.cfg.Metrics.SocketOpened(metrics.Lobby)()
	go func() {
		defer cancel()
		wr := site.NewWriter(c)
		defer wr.Stop()
		for b := range sub.Out() {
			if filter != nil {
				if b = filter(b); b == nil {
					continue
				}
			}
			if err := wr.Write(b); err != nil {
				return
			}
		}
		if s.cfg.Lobby.Dropped(sub) {
			// The watcher missed changes: it reconnects for a new list.
			c.Close(websocket.StatusTryAgainLater, site.CloseSlowLobby)
		}
	}()
	defer site.KeepAlive(ctx, c)()
	lim := rate.NewLimiter(rate.Limit(s.cfg.MessageRate), s.cfg.MessageBurst)
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		if !lim.Allow() {
			c.Close(websocket.StatusPolicyViolation, site.CloseTooMany)
			return
		}
		var m live.ClientMsg
		switch err := json.Unmarshal(data, &m); {
		case err != nil:
			site.WriteWS(ctx, c, site.WSError(s.cat, lang, wsBad("apierr.ws_not_json").WithDetail(err)))
		case m.Type == "ping":
			site.WriteWS(ctx, c, []byte(site.Pong))
		default:
			site.WriteWS(ctx, c, site.WSError(s.cat, lang, wsBad("apierr.ws_lobby_ping")))
		}
	}
}
