package server

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/metrics"
)

// Websocket limits (docs/api.md).
const (
	wsReadLimit    = 4 << 10          // larger messages close the connection (1009)
	wsPingEvery    = 20 * time.Second // the server pings this often
	wsPingTimeout  = 40 * time.Second // and closes a connection that does not answer
	wsWriteTimeout = 10 * time.Second
	wsMaxRefused   = 200 // rate-limited messages before the connection is closed (1008)
)

// accept upgrades r to a websocket. The library checks that the Origin is
// this host, which keeps other sites from playing with a visitor's cookie.
func accept(w http.ResponseWriter, r *http.Request) (*websocket.Conn, error) {
	clearDeadlines(w)
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return nil, err
	}
	c.SetReadLimit(wsReadLimit)
	return c, nil
}

// keepAlive pings c every wsPingEvery until ctx ends or stop is called,
// and closes c when a ping is not answered within wsPingTimeout. It runs
// from a timer, not a goroutine of its own: an idle connection costs no
// goroutine for it.
func keepAlive(ctx context.Context, c *websocket.Conn) (stop func()) {
	var mu sync.Mutex // orders the assignment of t before its callback reads it
	var t *time.Timer
	mu.Lock()
	defer mu.Unlock()
	t = time.AfterFunc(wsPingEvery, func() {
		pctx, cancel := context.WithTimeout(ctx, wsPingTimeout)
		err := c.Ping(pctx)
		cancel()
		switch {
		case ctx.Err() != nil:
		case err != nil:
			c.Close(websocket.StatusPolicyViolation, closePingTimeout)
		default:
			mu.Lock()
			t.Reset(wsPingEvery)
			mu.Unlock()
		}
	})
	return func() { t.Stop() }
}

func writeMsg(ctx context.Context, c *websocket.Conn, b []byte) error {
	ctx, cancel := context.WithTimeout(ctx, wsWriteTimeout)
	defer cancel()
	return c.Write(ctx, websocket.MessageText, b)
}

// wsError encodes e as a websocket error message, its text in lang.
func (s *Server) wsError(lang string, e *apierr.Error) []byte {
	return live.EncodeError(&live.Error{Code: e.Code, Message: apierr.Message(s.cat, lang, e)}, nil)
}

// wsBad is a bad_message error with the message key.
func wsBad(key string) *apierr.Error {
	return apierr.New(http.StatusBadRequest, apierr.CodeBadMessage, key)
}

var pong = []byte(`{"type":"pong"}`)

// The websockets' close reasons (docs/api.md) other than error codes:
// protocol words, in English; the board shows closeKeys' texts for them.
const (
	closePingTimeout = "ping timeout"
	closeTooMany     = "too many messages"
	closeResync      = "reconnect and sync"
	closeSlowGame    = "too slow: reconnect and sync" // live's, for a spectator that falls behind
	closeSlowLobby   = "too slow: reconnect for the list"
)

// closeKeys are the catalog keys of the close reasons' texts.
var closeKeys = map[string]string{
	closePingTimeout: "close.ping_timeout",
	closeTooMany:     "close.too_many",
	closeResync:      "close.resync",
	closeSlowGame:    "close.slow_game",
	closeSlowLobby:   "close.slow_lobby",
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
	c, err := accept(w, r)
	if err != nil {
		return // Accept has written the error
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	defer cancel()
	conn, err := s.cfg.Hub.JoinWith(ctx, r.PathValue("id"), who)
	if err != nil {
		e := s.AsError(r, notFound(err, "apierr.no_game", r.PathValue("id")))
		writeMsg(ctx, c, s.wsError(lang, e))
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

	// Writer: the game's messages, in order. When the game drops the
	// connection (too slow, or the game stopped) the client reconnects.
	go func() {
		defer cancel()
		for b := range conn.Out() {
			if err := writeMsg(ctx, c, b); err != nil {
				return
			}
			if timed && isMoveAnswer(b) {
				if at := moveAt.Swap(0); at != 0 {
					s.cfg.Metrics.ObserveMoveAck(time.Since(time.Unix(0, at)))
				}
			}
		}
		c.Close(websocket.StatusGoingAway, cmp.Or(conn.Reason(), closeResync))
	}()
	defer keepAlive(ctx, c)()

	lim := rate.NewLimiter(rate.Limit(s.cfg.MessageRate), s.cfg.MessageBurst)
	refused := 0
	for {
		typ, data, err := c.Read(ctx)
		if err != nil {
			if websocket.CloseStatus(err) == -1 && !errors.Is(err, context.Canceled) {
				s.log.Debug("websocket read", "err", err)
			}
			return
		}
		if !lim.Allow() {
			refused++
			if refused > wsMaxRefused {
				c.Close(websocket.StatusPolicyViolation, closeTooMany)
				return
			}
			writeMsg(ctx, c, s.wsError(lang, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.ws_rate", s.cfg.MessageRate)))
			continue
		}
		if typ != websocket.MessageText {
			writeMsg(ctx, c, s.wsError(lang, wsBad("apierr.ws_binary")))
			continue
		}
		var m live.ClientMsg
		if err := json.Unmarshal(data, &m); err != nil {
			writeMsg(ctx, c, s.wsError(lang, wsBad("apierr.ws_not_json").WithDetail(err)))
			continue
		}
		if m.Type == "ping" {
			writeMsg(ctx, c, pong)
			continue
		}
		if timed && m.Type == "move" {
			moveAt.CompareAndSwap(0, time.Now().UnixNano())
		}
		if !conn.Send(m) {
			c.Close(websocket.StatusGoingAway, closeResync)
			return
		}
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
	lang := s.Lang(r)
	c, err := accept(w, r)
	if err != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	defer cancel()
	sub := s.cfg.Lobby.Subscribe(viewer)
	defer s.cfg.Lobby.Unsubscribe(sub)
	defer s.cfg.Metrics.SocketOpened(metrics.Lobby)()
	go func() {
		defer cancel()
		for b := range sub.Out() {
			if err := writeMsg(ctx, c, b); err != nil {
				return
			}
		}
		if s.cfg.Lobby.Dropped(sub) {
			// The watcher missed changes: it reconnects for a new list.
			c.Close(websocket.StatusTryAgainLater, closeSlowLobby)
		}
	}()
	defer keepAlive(ctx, c)()
	lim := rate.NewLimiter(rate.Limit(s.cfg.MessageRate), s.cfg.MessageBurst)
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		if !lim.Allow() {
			c.Close(websocket.StatusPolicyViolation, closeTooMany)
			return
		}
		var m live.ClientMsg
		switch err := json.Unmarshal(data, &m); {
		case err != nil:
			writeMsg(ctx, c, s.wsError(lang, wsBad("apierr.ws_not_json").WithDetail(err)))
		case m.Type == "ping":
			writeMsg(ctx, c, pong)
		default:
			writeMsg(ctx, c, s.wsError(lang, wsBad("apierr.ws_lobby_ping")))
		}
	}
}
