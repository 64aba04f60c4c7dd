package site

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/live"
)

// The site's websockets (the games', the lobby's, a study's): JSON text
// messages with a type field, read by the handler and written by one
// writer goroutine per connection, in order; the helpers here are their
// common bounds (docs/api.md).
const (
	wsReadLimit    = 4 << 10          // larger messages close the connection (1009)
	wsPingEvery    = 20 * time.Second // the server pings this often
	wsPingTimeout  = 40 * time.Second // and closes a connection that does not answer
	wsWriteTimeout = 10 * time.Second
)

// AcceptWS upgrades r to a websocket with the site's read limit. The
// library checks that the Origin is this host, which keeps other sites
// from using a visitor's cookie. The http.Server's read and write
// deadlines are lifted: the connection lives as long as what it follows
// (its pings find dead peers), not ReadTimeout or WriteTimeout.
func AcceptWS(w http.ResponseWriter, r *http.Request) (*websocket.Conn, error) {
	ClearDeadlines(w)
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return nil, err
	}
	c.SetReadLimit(wsReadLimit)
	return c, nil
}

// KeepAlive pings c every 20 seconds until ctx ends or stop is called,
// and closes c when a ping is not answered within 40. It runs from a
// timer, not a goroutine of its own: an idle connection costs no
// goroutine for it.
func KeepAlive(ctx context.Context, c *websocket.Conn) (stop func()) {
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
			c.Close(websocket.StatusPolicyViolation, ClosePingTimeout)
		default:
			mu.Lock()
			t.Reset(wsPingEvery)
			mu.Unlock()
		}
	})
	return func() { t.Stop() }
}

// WriteWS writes the message b to c, within a bounded time.
func WriteWS(ctx context.Context, c *websocket.Conn, b []byte) error {
	ctx, cancel := context.WithTimeout(ctx, wsWriteTimeout)
	defer cancel()
	return c.Write(ctx, websocket.MessageText, b)
}

// WSError encodes e as a websocket error message, its text in lang.
func WSError(cat *i18n.Catalog, lang string, e *apierr.Error) []byte {
	return live.EncodeError(&live.Error{Code: e.Code, Message: apierr.Message(cat, lang, e)}, nil)
}

// Pong answers a client's ping.
const Pong = `{"type":"pong"}`

// The websockets' close reasons (docs/api.md) other than error codes:
// protocol words, in English; the board shows its catalog's texts for
// them (close.*).
const (
	ClosePingTimeout = "ping timeout"
	CloseTooMany     = "too many messages"
	CloseResync      = "reconnect and sync"
	CloseSlowGame    = "too slow: reconnect and sync" // live's, for a spectator that falls behind
	CloseSlowLobby   = "too slow: reconnect for the list"
)
