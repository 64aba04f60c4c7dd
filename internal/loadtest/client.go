package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// client speaks the server's HTTP API (docs/api.md) as one player.
type client struct {
	base  string // http://host:port
	http  *http.Client
	token string
	name  string
}

// apiError is an error answer of the API.
type apiError struct {
	Status  int
	Code    string
	Message string
}

func (e *apiError) Error() string {
	return fmt.Sprintf("HTTP %d %s: %s", e.Status, e.Code, e.Message)
}

// call sends a JSON request and decodes the answer into out (if not nil).
func (c *client) call(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
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
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if resp.StatusCode >= 300 {
		var e struct {
			Error struct{ Code, Message string }
		}
		json.Unmarshal(data, &e)
		return fmt.Errorf("%s %s: %w", method, path, &apiError{resp.StatusCode, e.Error.Code, e.Error.Message})
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
		HTTPClient: c.http,
		HTTPHeader: http.Header{"Authorization": {"Bearer " + c.token}},
	})
	if err != nil {
		return nil, fmt.Errorf("websocket of game %s: %w", id, err)
	}
	return conn, nil
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
				return m, fmt.Errorf("no %s message within %v", typ, timeout)
			}
			return m, err
		}
		switch {
		case m.Type == "error":
			return m, fmt.Errorf("server error %s: %s", m.Code, m.Message)
		case m.Type == typ && (typ != "move" || m.Ply == ply):
			return m, nil
		}
	}
}
