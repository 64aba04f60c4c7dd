package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/botapi"
	"github.com/toguz/toguz/internal/botclient"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/rating"
)

// token makes a personal access token for the account of session with
// scopes.
func (s *testServer) token(session string, scopes ...string) string {
	s.t.Helper()
	code, m := s.do("POST", "/api/token", session, map[string]any{"description": "test", "scopes": scopes})
	if code != http.StatusCreated {
		s.t.Fatalf("token: %d %v", code, m)
	}
	return m["token"].(string)
}

// botAccount signs up name, makes it a bot and returns a bot:play token.
func (s *testServer) botAccount(name string) string {
	s.t.Helper()
	tok := s.token(s.signup(name), "bot:play", "challenge:read", "challenge:write")
	if code, m := s.do("POST", "/api/bot/account/upgrade", tok, nil); code != 200 {
		s.t.Fatalf("upgrade %s: %d %v", name, code, m)
	}
	return tok
}

// botForm sends a form with token and decodes the JSON answer.
func (s *testServer) botForm(method, path, token string, form url.Values) (int, map[string]any) {
	s.t.Helper()
	req, _ := http.NewRequest(method, s.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	b, _ := io.ReadAll(resp.Body)
	json.Unmarshal(b, &out)
	return resp.StatusCode, out
}

// TestBotsPlayRatedGame drives two bots (the `toguz bot` loop, the
// built-in engine at level 1) through a rated game over the streams: one
// challenges the other, which accepts by its policy; both play every move
// from their game streams; the game ends, is stored with both players'
// ratings changed in the bots' blitz category (never the people's), and
// each bot's event stream told gameStart and gameFinish.
func TestBotsPlayRatedGame(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole game between two engines")
	}
	s := newTestServer(t, serverOpts{writes: 1000})
	ta, tb := s.botAccount("alphabot"), s.botAccount("betabot")
	newEngine, err := botclient.Builtin(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	over := make(chan string, 2)
	var wg sync.WaitGroup
	bots := map[string]*botclient.Bot{}
	for name, tok := range map[string]string{"alphabot": ta, "betabot": tb} {
		b, err := botclient.New(ctx, botclient.Config{URL: s.URL, Token: tok, NewEngine: newEngine, Policy: botclient.DefaultPolicy(),
			MinBackoff: 50 * time.Millisecond, OnGameOver: func(id, status string) { over <- id + " " + status }})
		if err != nil {
			t.Fatal(err)
		}
		if b.Name() != name {
			t.Fatalf("Name = %q, want %q", b.Name(), name)
		}
		bots[name] = b
		wg.Add(1)
		go func() { defer wg.Done(); b.Run(ctx) }()
	}
	// A third stream, as a client written for lichess reads it.
	evCtx, evCancel := context.WithCancel(context.Background())
	defer evCancel()
	events := s.stream(evCtx, "/api/stream/event", tb)
	// Both event streams must be open before the challenge.
	waitFor(t, func() bool {
		return s.botEvents().Online(userID(t, s, "alphabot")) && s.botEvents().Online(userID(t, s, "betabot"))
	})
	if _, err := bots["alphabot"].Challenge(ctx, "betabot", url.Values{"tc": {"3+2"}, "rated": {"true"}, "color": {"random"}}); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for range 2 {
		select {
		case r := <-over:
			ids = append(ids, r)
		case <-ctx.Done():
			t.Fatal("the game did not end")
		}
	}
	cancel()
	wg.Wait()
	id, status, _ := strings.Cut(ids[0], " ")
	if ids[0] != ids[1] || status == "started" || status == "aborted" || status == "" {
		t.Fatalf("games over: %v", ids)
	}
	g, err := s.st.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Rated || g.Status != game.Ended || g.Plies < 10 || g.RatingBefore != [2]int{1500, 1500} || g.RatingDiff == [2]int{} && g.Result.String() != "1/2-1/2" {
		t.Errorf("stored game: rated %v, status %s, plies %d, ratings %v %+v, result %v", g.Rated, g.Status, g.Plies, g.RatingBefore, g.RatingDiff, g.Result)
	}
	for _, name := range []string{"alphabot", "betabot"} {
		uid := userID(t, s, name)
		if p, _ := s.st.Perf(context.Background(), uid, rating.BotBlitz); p.Games != 1 {
			t.Errorf("%s: bot_blitz games = %d, want 1", name, p.Games)
		}
		if p, _ := s.st.Perf(context.Background(), uid, rating.Blitz); p.Games != 0 {
			t.Errorf("%s: blitz games = %d, want 0", name, p.Games)
		}
	}
	if _, page := s.get("/@/alphabot", ""); !strings.Contains(page, "Bot blitz") {
		t.Error("the bot's profile does not show its bot_blitz rating")
	}
	seen := eventTypes(events, "gameFinish", 10*time.Second)
	if !strings.Contains(strings.Join(seen, " "), "challenge gameStart gameFinish") {
		t.Errorf("betabot's event stream: %v, want challenge, gameStart, gameFinish", seen)
	}
}

// eventTypes returns the types of the events read from an event stream
// until the event last, the stream's end, or timeout.
func eventTypes(events <-chan string, last string, timeout time.Duration) []string {
	var seen []string
	deadline := time.After(timeout)
	for {
		select {
		case line, ok := <-events:
			if !ok {
				return seen
			}
			var ev struct{ Type string }
			json.Unmarshal([]byte(line), &ev)
			if seen = append(seen, ev.Type); ev.Type == last {
				return seen
			}
		case <-deadline:
			return seen
		}
	}
}

func (s *testServer) botEvents() *botapi.Events {
	// The test server's hub was given these events (helpers_test.go).
	return s.server.bots.Events()
}

func userID(t *testing.T, s *testServer, name string) int64 {
	t.Helper()
	u, err := s.st.UserByName(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !ok(); {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// stream reads the NDJSON stream at path with token until ctx ends; its
// lines (keep-alives left out) come on the channel, closed at the end.
func (s *testServer) stream(ctx context.Context, path, token string) <-chan string {
	s.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		s.t.Fatalf("stream %s: %d", path, resp.StatusCode)
	}
	ch := make(chan string, 1000)
	go func() {
		defer close(ch)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if sc.Text() != "" {
				ch <- sc.Text()
			}
		}
	}()
	return ch
}

// TestBotAPIRefusals: bad tokens, wrong scopes, the wrong API for the
// account and moves in other people's games are refused with lichess's
// status codes and {"error": "…"} bodies; a good move is played, and the
// token's requests a minute and streams are bounded (429).
func TestBotAPIRefusals(t *testing.T) {
	s := newTestServer(t, serverOpts{writes: 1000, botLimits: botapi.Limits{RequestsPerMinute: 1000, StreamsPerToken: 1}})
	botTok := s.botAccount("gammabot")
	person := s.signup("person")
	readOnly := s.token(person, "challenge:read")
	board := s.token(person, "board:play", "challenge:write")
	other := s.signup("other")
	otherBoard := s.token(other, "board:play", "challenge:write")
	strangerTok := s.token(s.signup("stranger"), "board:play")
	// person challenges other, who accepts: a game between people, played
	// over the board API.
	code, ch := s.botForm("POST", "/api/challenge/other", board, url.Values{"tc": {"5+3"}, "color": {"white"}})
	if code != 200 {
		t.Fatalf("challenge: %d %v", code, ch)
	}
	code, acc := s.botForm("POST", "/api/challenge/"+ch["id"].(string)+"/accept", otherBoard, nil)
	if code != 200 {
		t.Fatalf("accept: %d %v", code, acc)
	}
	game := acc["gameId"].(string)
	for _, tc := range []struct {
		name, method, path, token string
		want                      int
		code                      string
	}{
		{"no token", "GET", "/api/account", "", 401, "bad_token"},
		{"unknown token", "GET", "/api/stream/event", "tgz_NOSUCHTOKEN", 401, "bad_token"},
		{"a session is not a token", "GET", "/api/account", person, 401, "bad_token"},
		{"missing scope: move", "POST", "/api/board/game/" + game + "/move/7", readOnly, 403, "missing_scope"},
		{"missing scope: upgrade", "POST", "/api/bot/account/upgrade", board, 403, "missing_scope"},
		{"missing scope: challenge", "POST", "/api/challenge/other", readOnly, 403, "missing_scope"},
		{"board API for a bot", "GET", "/api/board/game/stream/" + game, botTok, 403, "missing_scope"},
		{"bot API for a person", "POST", "/api/bot/game/" + game + "/move/7", board, 403, "missing_scope"},
		{"another's game: move", "POST", "/api/board/game/" + game + "/move/7", strangerTok, 403, "not_your_game"},
		{"another's game: stream", "GET", "/api/board/game/stream/" + game, strangerTok, 403, "not_your_game"},
		{"another's game: resign", "POST", "/api/board/game/" + game + "/resign", strangerTok, 403, "not_your_game"},
		{"no such game", "POST", "/api/board/game/nosuchgame/move/7", board, 404, "not_found"},
		{"not a move", "POST", "/api/board/game/" + game + "/move/7z", board, 400, "illegal_move"},
		{"not your turn", "POST", "/api/board/game/" + game + "/move/7", otherBoard, 400, "not_your_turn"},
		{"a wrong landing", "POST", "/api/board/game/" + game + "/move/71", board, 400, "illegal_move"},
		{"no such challenge", "POST", "/api/challenge/nochallenge/accept", board, 404, "not_found"},
		{"challenging nobody", "POST", "/api/challenge/nobody", board, 404, "not_found"},
		{"a move", "POST", "/api/board/game/" + game + "/move/76", board, 200, ""},
		{"the same move again", "POST", "/api/board/game/" + game + "/move/76", board, 400, "not_your_turn"},
		{"a move by its hole alone", "POST", "/api/board/game/" + game + "/move/3", otherBoard, 200, ""},
	} {
		req, _ := http.NewRequest(tc.method, s.URL+tc.path, nil)
		if tc.token != "" {
			req.Header.Set("Authorization", "Bearer "+tc.token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body map[string]any
		json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		msg, _ := body["error"].(string)
		switch {
		case resp.StatusCode != tc.want:
			t.Errorf("%s: %s %s = %d %v, want %d", tc.name, tc.method, tc.path, resp.StatusCode, body, tc.want)
		case tc.want != 200 && (msg == "" || body["code"] != tc.code):
			t.Errorf("%s: body %v, want {\"error\": \"…\", \"code\": %q}", tc.name, body, tc.code)
		}
	}
	// The bot API for a person is refused for the account, not the scope,
	// when the token has bot:play.
	both := s.token(person, "bot:play")
	if code, m := s.botForm("POST", "/api/bot/game/"+game+"/resign", both, nil); code != 403 || m["code"] != "not_bot" {
		t.Errorf("bot API for a person with bot:play: %d %v, want 403 not_bot", code, m)
	}
	// Upgrading an account that has played is refused.
	if code, m := s.botForm("POST", "/api/bot/account/upgrade", both, nil); code != 400 || m["code"] != "has_games" {
		t.Errorf("upgrade after a game: %d %v, want 400 has_games", code, m)
	}
	// One stream per token here: a second is 429.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lines := s.stream(ctx, "/api/board/game/stream/"+game, board)
	var full struct {
		Type  string `json:"type"`
		White struct{ Name string }
		State struct {
			Moves  string `json:"moves"`
			Status string `json:"status"`
		} `json:"state"`
	}
	json.Unmarshal([]byte(<-lines), &full)
	if full.Type != "gameFull" || full.White.Name != "person" || full.State.Moves != "76 3" && !strings.HasPrefix(full.State.Moves, "76 3") || full.State.Status != "started" {
		t.Errorf("gameFull = %+v", full)
	}
	if code, m := s.do("GET", "/api/stream/event", board, nil); code != 429 || m["code"] != "rate_limited" {
		t.Errorf("a second stream: %d %v, want 429", code, m)
	}
	// A token revoked by its own DELETE is refused from then on.
	if code, _ := s.do("DELETE", "/api/token", readOnly, nil); code != 204 {
		t.Errorf("DELETE /api/token = %d", code)
	}
	if code, _ := s.do("GET", "/api/account", readOnly, nil); code != 401 {
		t.Errorf("a revoked token: %d, want 401", code)
	}
}

// TestBotRequestRate: past its requests a minute, a token is refused with
// 429 and lichess's {"error": "…"}, other tokens still served.
func TestBotRequestRate(t *testing.T) {
	s := newTestServer(t, serverOpts{botLimits: botapi.Limits{RequestsPerMinute: 3}})
	a := s.token(s.signup("rater"), "challenge:read")
	b := s.token(s.signup("other"), "challenge:read")
	for i := range 3 {
		if code, _ := s.do("GET", "/api/account", a, nil); code != 200 {
			t.Fatalf("request %d: %d", i+1, code)
		}
	}
	if code, m := s.do("GET", "/api/account", a, nil); code != 429 || m["error"] == nil {
		t.Errorf("the 4th request: %d %v, want 429 with an error", code, m)
	}
	if code, _ := s.do("GET", "/api/account", b, nil); code != 200 {
		t.Errorf("another token: %d", code)
	}
}

// TestLadder: the ladder pairs only the connected bots that opted in, at
// most MaxGames games at once and one game per bot, rated in the ladder's
// time control; each bot hears gameStart (source ladder); /bots lists the
// bots and the game.
func TestLadder(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	streams := map[string]<-chan string{}
	for _, name := range []string{"ladder1", "ladder2", "ladder3", "ladder4", "offladder", "offline"} {
		tok := s.botAccount(name)
		if name != "offladder" {
			if code, m := s.botForm("POST", "/api/bot/account/ladder?on=true", tok, nil); code != 200 {
				t.Fatalf("ladder %s: %d %v", name, code, m)
			}
		}
		if name != "offline" {
			streams[name] = s.stream(ctx, "/api/stream/event", tok)
			waitFor(t, func() bool { return s.botEvents().Online(userID(t, s, name)) })
		}
	}
	cfg := botapi.LadderConfig{MaxGames: 1}
	ids, err := s.server.bots.PairLadder(ctx, cfg)
	if err != nil || len(ids) != 1 {
		t.Fatalf("pairLadder = %v, %v; want one game (MaxGames 1)", ids, err)
	}
	cfg.MaxGames = 10
	ids2, err := s.server.bots.PairLadder(ctx, cfg)
	if err != nil || len(ids2) != 1 {
		t.Fatalf("pairLadder again = %v, %v; want the other two ladder bots' game", ids2, err)
	}
	if ids3, _ := s.server.bots.PairLadder(ctx, cfg); len(ids3) != 0 {
		t.Errorf("pairLadder with every ladder bot busy = %v", ids3)
	}
	players := map[string]bool{}
	for _, id := range append(ids, ids2...) {
		st, err := s.hub.State(ctx, id)
		if err != nil || !st.Rated || st.TC != "3+2" {
			t.Fatalf("ladder game %s: %+v, %v", id, st, err)
		}
		players[st.White.Name], players[st.Black.Name] = true, true
	}
	if len(players) != 4 || players["offladder"] || players["offline"] {
		t.Errorf("ladder players = %v, want ladder1..4", players)
	}
	for name, ch := range streams {
		if name == "offladder" {
			continue
		}
		var ev struct {
			Type string
			Game struct{ Source string }
		}
		select {
		case line := <-ch:
			json.Unmarshal([]byte(line), &ev)
		case <-time.After(5 * time.Second):
		}
		if ev.Type != "gameStart" || ev.Game.Source != "ladder" {
			t.Errorf("%s's first event = %+v, want gameStart from the ladder", name, ev)
		}
	}
	code, page := s.get("/bots", "")
	if code != 200 || !strings.Contains(page, "ladder1") || !strings.Contains(page, "offline") || !strings.Contains(page, "/game/"+ids[0]) {
		t.Errorf("/bots: %d, want the bots and the game %s", code, ids[0])
	}
}

// TestSettingsTokens: the settings page makes a token (shown once, stored
// only hashed), lists it and revokes it; the API's token works until then.
func TestSettingsTokens(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	session := s.signup("tokenuser")
	code, _, page := s.form("/settings/tokens", session, url.Values{"description": {"my engine"}, "scope": {"bot:play", "challenge:read"}})
	i := strings.Index(page, `id="token-new">`)
	if code != 200 || i < 0 {
		t.Fatalf("POST /settings/tokens: %d, no token shown", code)
	}
	tok, _, _ := strings.Cut(page[i+len(`id="token-new">`):], "<")
	if !strings.HasPrefix(tok, "tgz_") {
		t.Fatalf("token %q", tok)
	}
	if code, m := s.do("GET", "/api/account", tok, nil); code != 200 || m["username"] != "tokenuser" {
		t.Errorf("GET /api/account with the new token: %d %v", code, m)
	}
	if _, err := s.st.TokenByHash(context.Background(), tok); err == nil {
		t.Error("the token itself is stored")
	}
	_, page = s.get("/settings", session)
	if strings.Contains(page, tok) || !strings.Contains(page, "my engine") {
		t.Error("the settings page shows the token again, or not its description")
	}
	if code, _, page := s.form("/settings/tokens", session, url.Values{"description": {"no scope"}}); code != 200 || !strings.Contains(page, `id="token-error"`) {
		t.Errorf("a token without a scope: %d, no error shown", code)
	}
	ts, _ := s.st.Tokens(context.Background(), userID(t, s, "tokenuser"))
	if len(ts) != 1 {
		t.Fatalf("tokens = %+v", ts)
	}
	if code, loc, _ := s.form(fmt.Sprintf("/settings/tokens/%d/revoke", ts[0].ID), session, nil); code != 303 || loc != "/settings#tokens" {
		t.Errorf("revoke: %d %q", code, loc)
	}
	if code, _ := s.do("GET", "/api/account", tok, nil); code != 401 {
		t.Errorf("a revoked token: %d, want 401", code)
	}
}
