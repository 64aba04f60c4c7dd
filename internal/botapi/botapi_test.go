package botapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
)

// The paths whose errors are lichess's and the streams kept from gzip:
// the server dispatches on these, so a path moved out of either changes
// what a lichess client reads.
func TestPaths(t *testing.T) {
	for _, tc := range []struct {
		path        string
		api, stream bool
	}{
		{"/api/account", true, false},
		{"/api/token/3", true, false},
		{"/api/challenge/bob/accept", true, false},
		{"/api/bot/account/upgrade", true, false},
		{"/api/bot/game/stream/abc", true, true},
		{"/api/board/game/stream/abc", true, true},
		{"/api/board/game/abc/move/76", true, false},
		{"/api/stream/event", true, true},
		{"/api/bots", false, false},
		{"/api/games/abc", false, false},
		{"/api/seeks", false, false},
		{"/bots", false, false},
	} {
		if got := IsAPIPath(tc.path); got != tc.api {
			t.Errorf("IsAPIPath(%q) = %v, want %v", tc.path, got, tc.api)
		}
		if got := IsStreamPath(tc.path); got != tc.stream {
			t.Errorf("IsStreamPath(%q) = %v, want %v", tc.path, got, tc.stream)
		}
	}
}

// WriteError writes lichess's {"error"} with our code and detail, and a
// minute's Retry-After on a 429 that has none.
func TestWriteError(t *testing.T) {
	w := httptest.NewRecorder()
	e := apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.bot.rate", 3).WithDetail(errors.New("slow down"))
	WriteError(w, e, "Too many requests.")
	var body map[string]string
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if w.Code != 429 || w.Header().Get("Retry-After") != "60" || body["error"] != "Too many requests." ||
		body["code"] != "rate_limited" || body["detail"] != "slow down" {
		t.Errorf("429: %d, Retry-After %q, %v", w.Code, w.Header().Get("Retry-After"), body)
	}
	w = httptest.NewRecorder()
	w.Header().Set("Retry-After", "5")
	WriteError(w, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.bot.rate", 3), "x")
	if w.Header().Get("Retry-After") != "5" {
		t.Errorf("a Retry-After set before = %q, want it kept", w.Header().Get("Retry-After"))
	}
	w = httptest.NewRecorder()
	WriteError(w, apierr.New(http.StatusForbidden, apierr.CodeMissingScope, "apierr.bot.scope", "bot:play"), "x")
	if w.Code != 403 || w.Header().Get("Retry-After") != "" || w.Header().Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("403: %d, Retry-After %q, %q", w.Code, w.Header().Get("Retry-After"), w.Header().Get("Content-Type"))
	}
}

// The open challenges: bounded per challenger, expiring (both sides then
// told), taken only as check allows, listed oldest first.
func TestChallenges(t *testing.T) {
	now := time.Unix(1000, 0)
	cs := newChallenges(2, time.Minute, func() time.Time { return now })
	mk := func(by, to int64) *challenge {
		return &challenge{By: challengeUser{ID: by}, To: challengeUser{ID: to}}
	}
	c1 := mk(1, 2)
	if ok, _ := cs.add(c1); !ok {
		t.Fatal("the first challenge refused")
	}
	now = now.Add(time.Second)
	c2 := mk(1, 3)
	if ok, _ := cs.add(c2); !ok {
		t.Fatal("the second challenge refused")
	}
	if ok, _ := cs.add(mk(1, 4)); ok {
		t.Error("a third open challenge of one user accepted (max 2)")
	}
	now = now.Add(time.Second)
	if ok, _ := cs.add(mk(5, 1)); !ok {
		t.Error("another user's challenge refused")
	}
	if of := cs.of(1); len(of) != 3 || of[0].ID != c1.ID || of[1].ID != c2.ID {
		t.Errorf("of(1) = %d challenges, want 3, oldest first", len(of))
	}
	refuse := errors.New("not yours")
	if _, err := cs.takeLocal(c1.ID, func(*challenge) error { return refuse }); err != refuse {
		t.Errorf("take refused by check: %v", err)
	}
	if got, err := cs.takeLocal(c1.ID, func(*challenge) error { return nil }); err != nil || got.ID != c1.ID {
		t.Errorf("take = %v, %v", got, err)
	}
	var ae *apierr.Error
	if _, err := cs.takeLocal(c1.ID, func(*challenge) error { return nil }); !errors.As(err, &ae) || ae.Status != 404 {
		t.Errorf("take of a taken challenge: %v, want 404", err)
	}
	// c2 expires a minute after it was made, the newer one not yet; the
	// next add returns c2.
	now = c2.Created.Add(time.Minute)
	ok, gone := cs.add(mk(1, 6))
	if !ok || len(gone) != 1 || gone[0].ID != c2.ID {
		t.Errorf("add after the expiry: %v, gone %d, want c2 gone", ok, len(gone))
	}
}

// A stream that does not keep up is ended, never blocking the sender;
// another user's stream hears nothing.
func TestEventsSlowStream(t *testing.T) {
	e := NewEvents()
	sub := e.subscribe(7)
	other := e.subscribe(8)
	if !e.Online(7) || e.Online(9) {
		t.Fatal("Online")
	}
	for i := range botSubBuffer + 1 {
		e.send(7, map[string]int{"n": i})
	}
	select {
	case <-sub.gone:
	default:
		t.Fatal("a stream past its queue is not ended")
	}
	if len(sub.ch) != botSubBuffer || len(other.ch) != 0 {
		t.Errorf("queued %d and %d, want %d and 0", len(sub.ch), len(other.ch), botSubBuffer)
	}
	e.send(7, "again") // no second close
	e.unsubscribe(7, sub)
	if e.Online(7) {
		t.Error("online after the last stream left")
	}
}

// A game's end is told on the players' streams, with its status and
// winner, and the bots' perf when a bot plays.
func TestGameEnded(t *testing.T) {
	e := NewEvents()
	e.isBot = func(uid int64) bool { return uid == 2 }
	sub := e.subscribe(1)
	spec := game.Spec{ID: "g1", Rules: toguz.Standard(), TC: clock.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second},
		Rated: true, White: game.UserSeat(1, "alice"), Black: game.UserSeat(2, "bender")}
	e.GameEnded(game.Saved{Spec: spec, End: &game.Ending{Status: game.Ended, Result: toguz.BlackWins, Termination: toguz.ByResignation}})
	var ev gameEvent
	select {
	case b := <-sub.ch:
		if err := json.Unmarshal(b, &ev); err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no gameFinish")
	}
	g := ev.Game
	if ev.Type != "gameFinish" || g.ID != "g1" || g.Color != "white" || g.Opponent.Username != "bender" ||
		g.Status.Name != "resignation" || g.Winner != "black" || g.Speed != "blitz" || g.Perf != "bot_blitz" {
		t.Errorf("gameFinish = %+v", ev)
	}
}

// The game stream's lines follow the hub's messages: the state, a move, a
// draw offered and declined, a chat line, the end.
func TestGameTracker(t *testing.T) {
	var tr gameTracker
	msgs := []string{
		`{"type":"state","id":"g","fen":"f0","status":"playing","tc":"5+3","moves":[{"notation":"76"}],"clock":{"white_ms":300000,"black_ms":299000}}`,
		`{"type":"move","notation":"3","fen":"f2","clock":{"white_ms":298000,"black_ms":297000}}`,
		`{"type":"draw_offer","by":"black"}`,
		`{"type":"draw_declined"}`,
		`{"type":"chat","by":"bob","text":"gg"}`,
		`{"type":"ping"}`,
		`{"type":"end","status":"ended","result":"1-0","termination":"kazan","clock":{"white_ms":1,"black_ms":2}}`,
	}
	var lines []any
	for _, s := range msgs {
		var m streamMsg
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		if line, ok := tr.next(&m); ok {
			lines = append(lines, line)
		}
	}
	if len(lines) != 6 {
		t.Fatalf("%d lines, want 6 (the ping is not one)", len(lines))
	}
	st := lines[0].(gameStateJSON)
	if st.Type != "gameState" || st.Moves != "76" || st.Status != "started" || st.WInc != 3000 || st.WTime != 300000 {
		t.Errorf("state: %+v", st)
	}
	if st := lines[1].(gameStateJSON); st.Moves != "76 3" || st.FEN != "f2" || st.BTime != 297000 {
		t.Errorf("move: %+v", st)
	}
	if st := lines[2].(gameStateJSON); !st.BDraw || st.WDraw {
		t.Errorf("draw offer: %+v", st)
	}
	if st := lines[3].(gameStateJSON); st.BDraw {
		t.Errorf("draw declined: %+v", st)
	}
	if c := lines[4].(chatLineJSON); c.Type != "chatLine" || c.Username != "bob" || c.Text != "gg" || c.Room != "player" {
		t.Errorf("chat: %+v", c)
	}
	if st := lines[5].(gameStateJSON); st.Status != "kazan" || st.Winner != "white" || !tr.over {
		t.Errorf("end: %+v, over %v", st, tr.over)
	}
}

// A challenge's clock: ours (tc), lichess's (clock.limit and increment in
// seconds, or days), none; bounds and a rated game without a clock refused.
func TestChallengeForm(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  string // the time control, or the error's code
	}{
		{"tc=5%2B3", "5+3"},
		{"clock.limit=180&clock.increment=2", "3+2"},
		{"days=3", "3d"},
		{"", "-"}, // unlimited
		{"clock.limit=99999", "bad_tc"},
		{"clock.limit=x", "bad_tc"},
		{"tc=nonsense", "bad_tc"},
		{"rated=true", "bad_tc"},
		{"color=green", "bad_request"},
		{"variant=nonsense", "bad_request"},
	} {
		r := httptest.NewRequest("POST", "/api/challenge/bob?"+tc.query, nil)
		clk, _, _, _, err := challengeForm(r)
		got := clk.String()
		var ae *apierr.Error
		if errors.As(err, &ae) {
			got = string(ae.Code)
		} else if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%q: %q, want %q", tc.query, got, tc.want)
		}
	}
}
