package server

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/live"
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
			c.Close(websocket.StatusPolicyViolation, "ping timeout")
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

func wsError(code live.Code, format string, args ...any) []byte {
	e := &live.Error{Code: code}
	e.Message = format
	if len(args) > 0 {
		e.Message = fmt.Sprintf(format, args...)
	}
	return live.EncodeError(e, nil)
}

var pong = []byte(`{"type":"pong"}`)

// gameWS is GET /api/games/{id}/ws: the game's messages out, the client's
// moves and requests in.
func (s *Server) gameWS(w http.ResponseWriter, r *http.Request) {
	if err := s.forgedGuest(r); err != nil {
		writeJSONError(w, s.asAPIError(r, err))
		return
	}
	id := s.identity(r)
	viewer := ""
	if id.Known() {
		viewer = id.Seat().ID
	}
	c, err := accept(w, r)
	if err != nil {
		return // Accept has written the error
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	defer cancel()
	conn, err := s.cfg.Hub.JoinFrom(ctx, r.PathValue("id"), viewer, auth.AddrKey(auth.ClientIP(r)))
	if err != nil {
		e := s.asAPIError(r, err)
		writeMsg(ctx, c, wsError(e.Code, "%s", e.Message))
		status := websocket.StatusNormalClosure
		if e.Code == live.CodeTooManySpectators {
			status = websocket.StatusTryAgainLater
		}
		c.Close(status, string(e.Code))
		return
	}
	defer conn.Leave()

	// Writer: the game's messages, in order. When the game drops the
	// connection (too slow, or the game stopped) the client reconnects.
	go func() {
		defer cancel()
		for b := range conn.Out() {
			if err := writeMsg(ctx, c, b); err != nil {
				return
			}
		}
		c.Close(websocket.StatusGoingAway, cmp.Or(conn.Reason(), "reconnect and sync"))
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
				c.Close(websocket.StatusPolicyViolation, "too many messages")
				return
			}
			writeMsg(ctx, c, wsError(live.CodeRateLimited, "too many messages: at most %g per second", s.cfg.MessageRate))
			continue
		}
		if typ != websocket.MessageText {
			writeMsg(ctx, c, wsError(live.CodeBadMessage, "messages are JSON text, not binary"))
			continue
		}
		var m live.ClientMsg
		if err := json.Unmarshal(data, &m); err != nil {
			writeMsg(ctx, c, wsError(live.CodeBadMessage, "not a JSON message object: %v", err))
			continue
		}
		if m.Type == "ping" {
			writeMsg(ctx, c, pong)
			continue
		}
		if !conn.Send(m) {
			c.Close(websocket.StatusGoingAway, "reconnect and sync")
			return
		}
	}
}

// lobbyWS is GET /api/lobby/ws: the newest seeks, then seek_added and
// seek_removed, and game_started messages.
func (s *Server) lobbyWS(w http.ResponseWriter, r *http.Request) {
	if err := s.forgedGuest(r); err != nil {
		writeJSONError(w, s.asAPIError(r, err))
		return
	}
	id := s.identity(r)
	viewer := ""
	if id.Known() {
		viewer = id.Seat().ID
	}
	c, err := accept(w, r)
	if err != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	defer cancel()
	sub := s.cfg.Lobby.Subscribe(viewer)
	defer s.cfg.Lobby.Unsubscribe(sub)
	go func() {
		defer cancel()
		for b := range sub.Out() {
			if err := writeMsg(ctx, c, b); err != nil {
				return
			}
		}
		if s.cfg.Lobby.Dropped(sub) {
			// The watcher missed changes: it reconnects for a new list.
			c.Close(websocket.StatusTryAgainLater, "too slow: reconnect for the list")
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
			c.Close(websocket.StatusPolicyViolation, "too many messages")
			return
		}
		var m live.ClientMsg
		switch err := json.Unmarshal(data, &m); {
		case err != nil:
			writeMsg(ctx, c, wsError(live.CodeBadMessage, "not a JSON message object: %v", err))
		case m.Type == "ping":
			writeMsg(ctx, c, pong)
		default:
			writeMsg(ctx, c, wsError(live.CodeBadMessage, "the lobby socket only answers ping"))
		}
	}
}
