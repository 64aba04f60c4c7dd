package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"github.com/toguz/toguz/internal/site"
)

// client speaks the server's HTTP API (docs/api.md) as one player.
type client struct {
	base  string // http://host:port
	src   *source
	retry retryPolicy
	token string
	name  string
}

// source is one address the clients connect from: its HTTP client, whose
// dialer is bound to the address, and the pace of its state-changing
// requests, kept within the server's limit per address.
type source struct {
	http *http.Client
	lim  *rate.Limiter // nil: not paced
}

// retryPolicy is how a client retries a request refused for a bound (429,
// 503) or lost to a connection error (a restarting server).
type retryPolicy struct {
	max     int           // retries of one request
	retried *atomic.Int64 // counts them all
}

// apiError is an error answer of the API.
type apiError struct {
	Status     int
	Code       string
	Message    string
	RetryAfter time.Duration // the Retry-After header; negative when none
}

func (e *apiError) Error() string {
	return fmt.Sprintf("HTTP %d %s: %s", e.Status, e.Code, e.Message)
}

// transportError is a request that got no answer: the connection was
// refused or lost.
type transportError struct{ err error }

func (e *transportError) Error() string { return e.err.Error() }
func (e *transportError) Unwrap() error { return e.err }

// call sends a JSON request and decodes the answer into out (if not nil).
// A state-changing request first waits for its source's pace. A request
// refused with 429 or 503 is retried after the Retry-After the server sent
// (1 s when none), one that got no answer after a back-off from 100 ms to
// 2 s, both with some jitter so that refused clients do not come back
// together, at most c.retry.max times; the last error says how many.
func (c *client) call(ctx context.Context, method, path string, in, out any) error {
	start := time.Now()
	for attempt := 0; ; attempt++ {
		err := c.callOnce(ctx, method, path, in, out)
		wait, ok := retryWait(err, attempt)
		switch {
		case !ok || ctx.Err() != nil:
			return err
		case attempt >= c.retry.max:
			return fmt.Errorf("%w (gave up after %d retries in %v)", err, attempt, time.Since(start).Round(time.Millisecond))
		}
		if c.retry.retried != nil {
			c.retry.retried.Add(1)
		}
		if err := sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// retryWait says whether err is worth a retry, and after how long.
func retryWait(err error, attempt int) (time.Duration, bool) {
	var ae *apiError
	var te *transportError
	var wait time.Duration
	switch {
	case err == nil:
		return 0, false
	case errors.As(err, &ae) && (ae.Status == http.StatusTooManyRequests || ae.Status == http.StatusServiceUnavailable):
		if wait = ae.RetryAfter; wait < 0 {
			wait = time.Second
		}
	case errors.As(err, &te):
		wait = min(100*time.Millisecond<<min(attempt, 5), 2*time.Second)
	default:
		return 0, false
	}
	return wait + rand.N(wait/2+1), true
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *client) callOnce(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	if method != http.MethodGet && c.src.lim != nil {
		if err := c.src.lim.Wait(ctx); err != nil {
			return err
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.src.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, &transportError{err})
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, &transportError{err})
	}
	if resp.StatusCode >= 300 {
		var e struct {
			Error struct{ Code, Message string }
		}
		json.Unmarshal(data, &e)
		ae := &apiError{Status: resp.StatusCode, Code: e.Error.Code, Message: e.Error.Message, RetryAfter: -1}
		if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && secs >= 0 {
			ae.RetryAfter = time.Duration(secs) * time.Second
		}
		return fmt.Errorf("%s %s: %w", method, path, ae)
	}
	if out != nil && resp.StatusCode != http.StatusNoContent {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("%s %s: decoding the answer: %w", method, path, err)
		}
	}
	return nil
}

// guest makes c a new guest.
func (c *client) guest(ctx context.Context) error {
	var who struct{ Name, Token string }
	if err := c.call(ctx, http.MethodPost, "/api/guest", nil, &who); err != nil {
		return err
	}
	if who.Token == "" {
		return errors.New("POST /api/guest: no token in the answer")
	}
	c.name, c.token = who.Name, who.Token
	return nil
}

// seek opens a casual seek in which c plays White and returns its id.
func (c *client) seek(ctx context.Context, tc string) (string, error) {
	var s struct{ ID string }
	in := map[string]any{"tc": tc, "rated": false, "color": "white", "ruleset": "standard", "private": true}
	if err := c.call(ctx, http.MethodPost, "/api/seeks", in, &s); err != nil {
		return "", err
	}
	return s.ID, nil
}

// accept accepts seek id and returns the game's id.
func (c *client) accept(ctx context.Context, id string) (string, error) {
	var g struct {
		GameID string `json:"game_id"`
	}
	if err := c.call(ctx, http.MethodPost, "/api/seeks/"+id+"/accept", nil, &g); err != nil {
		return "", err
	}
	return g.GameID, nil
}

// dial opens the websocket of game id.
func (c *client) dial(ctx context.Context, id string) (*websocket.Conn, error) {
	u := "ws" + strings.TrimPrefix(c.base, "http") + "/api/games/" + id + "/ws"
	conn, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{
		HTTPClient: c.src.http,
		HTTPHeader: http.Header{"Authorization": {"Bearer " + c.token}},
	})
	if err != nil {
		return nil, fmt.Errorf("websocket of game %s: %w", id, err)
	}
	return conn, nil
}

// dialRetry is dial retried, after a back-off from 100 ms to 1 s, until it
// succeeds or the deadline passes: a restarting server refuses
// connections for a while.
func (c *client) dialRetry(ctx context.Context, id string, deadline time.Time) (*websocket.Conn, error) {
	for attempt := 0; ; attempt++ {
		conn, err := c.dial(ctx, id)
		if err == nil || ctx.Err() != nil {
			return conn, err
		}
		wait := min(100*time.Millisecond<<min(attempt, 4), time.Second)
		if time.Now().Add(wait).After(deadline) {
			return nil, fmt.Errorf("%w (gave up after %d tries)", err, attempt+1)
		}
		if err := sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// message is any server message; only the fields the load test reads.
type message struct {
	Type        string `json:"type"`
	Ply         int    `json:"ply"`
	Hole        int    `json:"hole"`
	By          string `json:"by"`
	FEN         string `json:"fen"`
	Status      string `json:"status"`
	Result      string `json:"result"`
	Termination string `json:"termination"`
	You         string `json:"you"`
	Code        string `json:"code"`
	Message     string `json:"message"`
	Clock       struct {
		WhiteMS int64 `json:"white_ms"`
		BlackMS int64 `json:"black_ms"`
	} `json:"clock"`
}

// send writes v as one text message.
func send(ctx context.Context, conn *websocket.Conn, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return conn.Write(ctx, websocket.MessageText, b)
}

// receive reads the next message.
func receive(ctx context.Context, conn *websocket.Conn) (message, error) {
	var m message
	_, b, err := conn.Read(ctx)
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("bad message %.80q: %w", b, err)
	}
	return m, nil
}

// errNoReply is a reply that did not come in time: a server that hangs,
// not one that restarts.
var errNoReply = errors.New("no reply")

// serverError is an error message of the server on a websocket.
type serverError struct{ Code, Message string }

func (e *serverError) Error() string { return "server error " + e.Code + ": " + e.Message }

// lostConnection says whether err is the websocket's connection lost (the
// server stopped or restarted), after which a client reconnects, rather
// than a reply that did not come, an error of the server, a close for
// breaking its rules, or the caller giving up.
func lostConnection(err error) bool {
	var se *serverError
	switch {
	case err == nil, errors.Is(err, errNoReply), errors.As(err, &se),
		errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return false
	}
	switch websocket.CloseStatus(err) {
	case websocket.StatusPolicyViolation, websocket.StatusNormalClosure:
		return false
	}
	return true
}

// await reads messages until one of type typ arrives (and, for move
// messages, the one of ply). A server error message is returned as an
// error; presence, control and pong messages are skipped.
func await(ctx context.Context, conn *websocket.Conn, typ string, ply int, timeout time.Duration) (message, error) {
	wait, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		m, err := receive(wait, conn)
		if err != nil {
			switch {
			case ctx.Err() != nil:
				return m, ctx.Err() // the caller gave up, not the server
			case errors.Is(err, context.DeadlineExceeded):
				return m, fmt.Errorf("no %s message within %v: %w", typ, timeout, errNoReply)
			}
			return m, err
		}
		if done, err := awaited(m, typ, ply); done {
			return m, err
		}
	}
}

// awaited says whether m ends a wait for a message of type typ (and, for
// a move, of ply): a server error ends it with the error.
func awaited(m message, typ string, ply int) (bool, error) {
	switch {
	case m.Type == "error":
		return true, &serverError{Code: m.Code, Message: m.Message}
	case m.Type == typ && (typ != "move" || m.Ply == ply):
		return true, nil
	}
	return false, nil
}

// gameConn is a player's websocket in a game of the load. It reads every
// message into one buffer of its own and bounds each wait for a reply
// with one timer of its own, which closes the connection when it fires:
// in one process the clients share the server's heap and collector, and a
// context, a timer and a slice per message made them half of the run's
// allocations.
type gameConn struct {
	c       *websocket.Conn
	in      bytes.Buffer
	out     []byte
	timer   *time.Timer
	expired atomic.Bool // the timer fired: the reply did not come in time
}

func newGameConn(c *websocket.Conn) *gameConn {
	g := &gameConn{c: c}
	g.timer = time.AfterFunc(time.Hour, func() {
		g.expired.Store(true)
		c.CloseNow()
	})
	g.timer.Stop()
	return g
}

// close closes the connection at once.
func (g *gameConn) close() {
	g.timer.Stop()
	g.c.CloseNow()
}

// send writes v as one text message.
func (g *gameConn) send(v any) error { return send(context.Background(), g.c, v) }

// sendMove sends the move of hole at ply.
func (g *gameConn) sendMove(ply, hole int) error {
	b := append(g.out[:0], `{"type":"move","ply":`...)
	b = strconv.AppendInt(b, int64(ply), 10)
	b = append(b, `,"hole":`...)
	b = strconv.AppendInt(b, int64(hole), 10)
	g.out = append(b, '}')
	return g.c.Write(context.Background(), websocket.MessageText, g.out)
}

// await is await on g, which the timer closes when no message of type
// typ has come within timeout: the game then fails, as it would have.
func (g *gameConn) await(typ string, ply int, timeout time.Duration) (message, error) {
	g.timer.Reset(timeout)
	defer g.timer.Stop()
	for {
		m, err := g.receive()
		if err != nil {
			if g.expired.Load() {
				return m, fmt.Errorf("no %s message within %v: %w", typ, timeout, errNoReply)
			}
			return m, err
		}
		if done, err := awaited(m, typ, ply); done {
			return m, err
		}
	}
}

// receive reads the next message into g's buffer and decodes it.
func (g *gameConn) receive() (message, error) {
	var m message
	_, b, err := site.ReadWS(g.c, &g.in)
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("bad message %.80q: %w", b, err)
	}
	return m, nil
}
