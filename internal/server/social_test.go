package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// chatMsg is a chat or chat_history message.
type chatMsg struct {
	Type, Room, By, Text, Code string
	Messages                   []struct{ By, Text string }
	GameID                     string `json:"game_id"`
}

func (w *wsClient) untilChat(types ...string) chatMsg {
	w.t.Helper()
	m := w.until(types...)
	var c chatMsg
	json.Unmarshal([]byte(m.Raw), &c)
	return c
}

// TestGameChatOverWebsocket: through the server, a player's message
// reaches both players under his name and no spectator; a spectator's
// reaches the spectators and no player; a player reconnecting gets the
// players' history; a spectator with no identity cannot write.
func TestGameChatOverWebsocket(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	w, b, id := s.game(s.guest(), s.guest(), "5+3", false)
	cw, cb := s.dial(id, w), s.dial(id, b)
	cw.until("state")
	cb.until("state")
	sp1, sp2, anon := s.dial(id, s.guest()), s.dial(id, s.guest()), s.dial(id, "")
	sp1.until("state")
	sp2.until("state")
	anon.until("state")

	cw.send(map[string]any{"type": "chat", "text": "Сәлем <i>!</i>"})
	got := cb.untilChat("chat")
	if got.Room != "players" || got.Text != "Сәлем <i>!</i>" || !strings.HasPrefix(got.By, "Guest-") {
		t.Fatalf("Black got %+v", got)
	}
	sp1.send(map[string]any{"type": "chat", "text": "spectating"})
	if got := sp2.untilChat("chat"); got.Room != "spectators" || got.Text != "spectating" {
		t.Fatalf("the other spectator got %+v", got)
	}
	// sp1 saw no players' message before its own spectators' one.
	if got := sp1.untilChat("chat"); got.Text != "spectating" {
		t.Fatalf("a spectator saw %+v", got)
	}
	if m, err := cb.tryRead(300 * time.Millisecond); err == nil && m.Type == "chat" {
		t.Fatalf("a player saw the spectators' room: %s", m.Raw)
	}
	anon.send(map[string]any{"type": "chat", "text": "hi"})
	if m := anon.until("error"); m.Code != "chat_anonymous" {
		t.Fatalf("an anonymous spectator: %+v", m)
	}
	cb2 := s.dial(id, b)
	if h := cb2.untilChat("chat_history"); len(h.Messages) != 1 || h.Messages[0].Text != "Сәлем <i>!</i>" {
		t.Fatalf("a reconnecting player's history: %+v", h)
	}
}

// TestRematchOverWebsocket: after a resignation both players are sent to
// the same new game, colours swapped.
func TestRematchOverWebsocket(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	w, b, id := s.game(s.guest(), s.guest(), "5+3", false)
	cw, cb := s.dial(id, w), s.dial(id, b)
	cw.until("state")
	cb.until("state")
	cw.send(map[string]any{"type": "resign"})
	cb.until("end")
	cb.send(map[string]any{"type": "rematch_offer"})
	cw.until("rematch_offer")
	cw.send(map[string]any{"type": "rematch_accept"})
	rw, rb := cw.untilChat("rematch"), cb.untilChat("rematch")
	if rw.GameID == "" || rw.GameID != rb.GameID {
		t.Fatalf("rematch %+v / %+v", rw, rb)
	}
	if st := s.dial(rw.GameID, b).until("state"); st.You != "white" {
		t.Fatalf("Black of the first game plays %q in the rematch", st.You)
	}
}

// TestReports: a report is stored with who, whom, the message, the game
// and the time, and listed newest first; a report without identity or
// with a bad field is refused.
func TestReports(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	g := s.guest()
	_, _, id := s.game(s.guest(), s.guest(), "5+3", false)
	for _, tc := range []struct {
		token string
		body  map[string]any
		code  int
	}{
		{"", map[string]any{"game": id, "room": "players", "user": "Guest-x", "text": "bad words"}, http.StatusUnauthorized},
		{g, map[string]any{"game": id, "room": "kitchen", "user": "Guest-x", "text": "bad words"}, http.StatusBadRequest},
		{g, map[string]any{"game": "", "room": "players", "user": "Guest-x", "text": "bad words"}, http.StatusBadRequest},
		{g, map[string]any{"game": id, "room": "players", "user": "Guest-x", "text": strings.Repeat("x", 141)}, http.StatusBadRequest},
		{g, map[string]any{"game": id, "room": "spectators", "user": "Guest-x", "text": "bad words"}, http.StatusCreated},
		{g, map[string]any{"game": "", "room": "lobby", "user": "Guest-y", "text": "spam"}, http.StatusCreated},
	} {
		if code, m := s.do("POST", "/api/reports", tc.token, tc.body); code != tc.code {
			t.Errorf("%v: %d %v, want %d", tc.body, code, m, tc.code)
		}
	}
	// A message really said in the players' room is reported as seen.
	w, b, id2 := s.game(s.guest(), s.guest(), "5+3", false)
	cw, cb := s.dial(id2, w), s.dial(id2, b)
	cw.until("state")
	cb.until("state")
	cw.send(map[string]any{"type": "chat", "text": "you will lose"})
	said := cb.untilChat("chat")
	if code, m := s.do("POST", "/api/reports", b, map[string]any{"game": id2, "room": "players", "user": said.By, "text": said.Text}); code != http.StatusCreated || m["verified"] != true {
		t.Fatalf("a report of a message said: %d %v", code, m)
	}
	rs, err := s.st.Reports(context.Background(), 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 3 || !rs[0].Verified || rs[0].Message != "you will lose" {
		t.Fatalf("the newest report %+v", rs)
	}
	rs = rs[1:]
	if len(rs) != 2 || rs[0].Verified || rs[1].Verified || rs[0].Reported != "Guest-y" || rs[0].Room != "lobby" || rs[1].GameID != id || rs[1].Message != "bad words" ||
		!strings.HasPrefix(rs[1].ReporterName, "Guest-") || rs[1].Reporter != "g:"+rs[1].ReporterName || rs[1].Created.IsZero() {
		t.Fatalf("reports %+v", rs)
	}
}

// TestLiveGamesAndTVPages: /api/games/live and /games list the games
// being played with their spectators; /api/tv and /tv show the highest
// rated (here the one with spectators, ratings equal), and /tv waits when
// none is played.
func TestLiveGamesAndTVPages(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	c := s.browser()
	if code, body := get(t, c, s.URL+"/tv"); code != 200 || !strings.Contains(body, `id="tv-none"`) {
		t.Fatalf("/tv with no game: %d", code)
	}
	if code, _ := s.do("GET", "/api/tv", "", nil); code != http.StatusNotFound {
		t.Fatalf("/api/tv with no game: %d", code)
	}
	_, _, a := s.game(s.guest(), s.guest(), "5+3", false)
	_, _, b := s.game(s.guest(), s.guest(), "10+0", false)
	s.dial(b, s.guest()).until("state")
	s.dial(b, "").until("state")
	code, m := s.do("GET", "/api/games/live", "", nil)
	games, _ := m["games"].([]any)
	if code != 200 || len(games) != 2 || m["total"].(float64) != 2 {
		t.Fatalf("/api/games/live: %d %v", code, m)
	}
	first := games[0].(map[string]any)
	if first["id"] != b || first["spectators"].(float64) != 2 || first["tc"] != "10+0" || first["url"] != "/game/"+b {
		t.Fatalf("the first game listed: %v (want %s with 2 spectators)", first, b)
	}
	if code, m := s.do("GET", "/api/tv", "", nil); code != 200 || m["id"] != b {
		t.Fatalf("/api/tv: %d %v", code, m)
	}
	code, body := get(t, c, s.URL+"/games")
	if code != 200 || !strings.Contains(body, `href="/game/`+a+`"`) || !strings.Contains(body, `href="/game/`+b+`"`) {
		t.Fatalf("/games: %d, links to both games missing", code)
	}
	code, body = get(t, c, s.URL+"/tv")
	if code != 200 || !strings.Contains(body, `data-id="`+b+`"`) || !strings.Contains(body, `id="tv-spectators"`) {
		t.Fatalf("/tv: %d, not the game %s", code, b)
	}
}

// TestLobbyChatOverWebsocket: the lobby's room reaches every watcher and
// answers a message too long with its error.
func TestLobbyChatOverWebsocket(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	dial := func(token string) *wsClient {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		h := http.Header{}
		if token != "" {
			h.Set("Authorization", "Bearer "+token)
		}
		c, _, err := websocket.Dial(ctx, strings.Replace(s.URL, "http", "ws", 1)+"/api/lobby/chat", &websocket.DialOptions{HTTPHeader: h})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.CloseNow() })
		return &wsClient{t: t, c: c}
	}
	a, b := dial(s.guest()), dial("")
	time.Sleep(50 * time.Millisecond) // both subscribed
	a.send(map[string]any{"type": "chat", "text": "салем"})
	if m := b.untilChat("chat"); m.Room != "lobby" || m.Text != "салем" {
		t.Fatalf("the lobby: %+v", m)
	}
	a.send(map[string]any{"type": "chat", "text": strings.Repeat("ы", 141)})
	if m := a.until("error"); m.Code != "chat_too_long" {
		t.Fatalf("too long: %+v", m)
	}
	b.send(map[string]any{"type": "chat", "text": "hi"})
	if m := b.until("error"); m.Code != "chat_anonymous" {
		t.Fatalf("anonymous: %+v", m)
	}
	if h := dial("").untilChat("chat_history"); len(h.Messages) != 1 {
		t.Fatalf("history %+v", h)
	}
}
