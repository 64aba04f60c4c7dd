package site

import (
	"bytes"
	"context"
	"errors"
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

// WriteWS writes the message b to c, within a bounded time: for a
// handler's occasional answer; a socket's writer goroutine uses a Writer.
func WriteWS(ctx context.Context, c *websocket.Conn, b []byte) error {
	ctx, cancel := context.WithTimeout(ctx, wsWriteTimeout)
	defer cancel()
	return c.Write(ctx, websocket.MessageText, b)
}

// A Writer is WriteWS for a connection's writer goroutine, which writes
// every message of a busy game, lobby or room: one timer, reset for each
// write, closes the connection when a write outlasts the bound, where
// WriteWS makes a context and a timer per message (and the library
// registers a callback on the context), garbage the collector of a big
// server then marks around. Not for concurrent use; other goroutines may
// still WriteWS.
type Writer struct {
	c       *websocket.Conn
	t       *time.Timer
	timeout time.Duration
}

// ErrWriteTimeout is a Writer's write that outlasted its bound; the
// connection is closed.
var ErrWriteTimeout = errors.New("websocket write timed out")

// NewWriter returns c's Writer; Stop it when done.
func NewWriter(c *websocket.Conn) *Writer {
	t := time.AfterFunc(time.Hour, func() { c.CloseNow() })
	t.Stop()
	return &Writer{c: c, t: t, timeout: wsWriteTimeout}
}

// Write writes the message b within wsWriteTimeout.
func (w *Writer) Write(b []byte) error {
	w.t.Reset(w.timeout)
	err := w.c.Write(context.Background(), websocket.MessageText, b)
	if !w.t.Stop() {
		return errors.Join(ErrWriteTimeout, err)
	}
	return err
}

// Stop stops the Writer's timer.
func (w *Writer) Stop() { w.t.Stop() }

// ReadWS reads c's next message into buf (reset first, its storage used
// again from message to message, at most the read limit): c.Read's result
// without a new slice and a callback on a context per message. It waits
// until a message comes or c is closed: the caller ends it by closing c
// (context.AfterFunc(ctx, c.CloseNow), once per connection).
func ReadWS(c *websocket.Conn, buf *bytes.Buffer) (websocket.MessageType, []byte, error) {
	typ, r, err := c.Reader(context.Background())
	if err != nil {
		return 0, nil, err
	}
	buf.Reset()
	if _, err := buf.ReadFrom(r); err != nil {
		return 0, nil, err
	}
	return typ, buf.Bytes(), nil
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
