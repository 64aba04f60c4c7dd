package loadtest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestGameConn holds a game's client connection to await's promises: the
// message waited for comes back, others are skipped, an error message is
// the server's error, a reply that does not come is errNoReply (not a lost
// connection), a server that goes away is a lost connection; and a move
// it sends is the JSON the server reads.
func TestGameConn(t *testing.T) {
	got := make(chan map[string]any, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		write := func(s string) { c.Write(ctx, websocket.MessageText, []byte(s)) }
		switch r.URL.Path {
		case "/echo": // the move's answer after a presence message and another ply's move
			_, b, err := c.Read(ctx)
			if err != nil {
				return
			}
			var m map[string]any
			json.Unmarshal(b, &m)
			got <- m
			write(`{"type":"presence"}`)
			write(`{"type":"move","ply":3}`)
			write(`{"type":"move","ply":4,"fen":"x"}`)
		case "/error":
			write(`{"type":"error","code":"not_your_turn","message":"no"}`)
		case "/silent":
		case "/gone":
			return
		}
		c.Read(ctx) // until the client closes
	}))
	defer srv.Close()
	dial := func(path string) *gameConn {
		t.Helper()
		c, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(srv.URL, "http")+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		g := newGameConn(c)
		t.Cleanup(g.close)
		return g
	}

	g := dial("/echo")
	if err := g.sendMove(3, 7); err != nil {
		t.Fatal(err)
	}
	if m := <-got; m["type"] != "move" || m["ply"] != 3.0 || m["hole"] != 7.0 {
		t.Errorf("the server read %v, want the move of hole 7 at ply 3", m)
	}
	if m, err := g.await("move", 4, time.Second); err != nil || m.FEN != "x" {
		t.Errorf("await(move, 4) = %+v, %v; want the move of ply 4", m, err)
	}

	var se *serverError
	if _, err := dial("/error").await("move", 1, time.Second); !errors.As(err, &se) || se.Code != "not_your_turn" || lostConnection(err) {
		t.Errorf("an error message: %v, want the server's error not_your_turn", err)
	}
	start := time.Now()
	if _, err := dial("/silent").await("move", 1, 50*time.Millisecond); !errors.Is(err, errNoReply) || lostConnection(err) {
		t.Errorf("no reply: %v, want errNoReply", err)
	} else if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("no reply after %v, before the timeout", d)
	}
	if _, err := dial("/gone").await("move", 1, 10*time.Second); err == nil || !lostConnection(err) {
		t.Errorf("a closed connection: %v, want a lost connection", err)
	}
}

// TestReconnectRefused: when the server answers a reconnected player with
// an error instead of the game's state, reconnect says so (it once lost
// that error and returned an empty state).
func TestReconnectRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		msg := `{"type":"state","you":"white","status":"playing","ply":4}`
		if r.Header.Get("Authorization") == "Bearer black" {
			msg = `{"type":"error","code":"not_found","message":"no such game"}`
		}
		c.Write(r.Context(), websocket.MessageText, []byte(msg))
		c.Read(r.Context()) // until the client closes
	}))
	defer srv.Close()
	src := &source{http: srv.Client()}
	g := &pair{cfg: Config{Timeout: 5 * time.Second, Reconnect: 5 * time.Second}, col: &collector{},
		white: &client{base: srv.URL, src: src, token: "white"}, black: &client{base: srv.URL, src: src, token: "black"}}
	var conns [2]*gameConn
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.close()
			}
		}
	}()
	st, err := g.reconnect(context.Background(), "g1", &conns)
	var se *serverError
	if !errors.As(err, &se) || se.Code != "not_found" {
		t.Errorf("reconnect = %+v, %v; want black's error not_found", st, err)
	}
}
