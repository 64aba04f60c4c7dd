package server

import (
	"context"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/store"
)

// playOut plays random legal moves for both sides until the game ends and
// returns the end message as seen by White. Each move is made only after
// both clients have seen the previous one.
func playOut(t *testing.T, rng *rand.Rand, w, b *wsClient, fen string, ply int) wsMsg {
	t.Helper()
	p, _, err := toguz.ParseFEN(fen, toguz.Standard())
	if err != nil {
		t.Fatal(err)
	}
	for {
		mover := w
		if p.Turn() == toguz.Black {
			mover = b
		}
		hole := randomMove(t, rng, fen)
		mover.move(ply, hole)
		mw, mb := w.until("move", "error"), b.until("move", "error")
		if mw.Type == "error" || mb.Type == "error" {
			t.Fatalf("move %d at ply %d refused: %s / %s", hole, ply, mw.Raw, mb.Raw)
		}
		if *mw.Ply != ply+1 || mw.Hole != hole || mw.FEN != mb.FEN {
			t.Fatalf("move echo %s, want ply %d hole %d", mw.Raw, ply+1, hole)
		}
		ply++
		fen = mw.FEN
		if p, _, err = toguz.ParseFEN(fen, toguz.Standard()); err != nil {
			t.Fatal(err)
		}
		if p.IsOver() {
			e := w.until("end")
			if eb := b.until("end"); eb.Result != e.Result {
				t.Fatalf("the players see different results: %s / %s", e.Raw, eb.Raw)
			}
			o := p.Outcome()
			if e.Result != o.Result.String() || e.Termination != o.Termination.String() || e.Score != o.Score {
				t.Fatalf("end %s, want %v %v %v", e.Raw, o.Result, o.Termination, o.Score)
			}
			return e
		}
	}
}

// TestFullGame plays a whole game between two players over websockets to
// its end by the rules, then checks that the game, every move and the
// result are stored, and that the archive replays and exports it.
func TestFullGame(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	white, black, id := s.game(s.guest(), s.guest(), "5+3", false)
	w, b := s.dial(id, white), s.dial(id, black)
	sw, sb := w.until("state"), b.until("state")
	if sw.You != "white" || sb.You != "black" || !sw.Control || sw.Status != "playing" {
		t.Fatalf("states: %s / %s", sw.Raw, sb.Raw)
	}
	spectator := s.dial(id, s.guest())
	if st := spectator.until("state"); st.You != "" {
		t.Fatalf("spectator state: %s", st.Raw)
	}
	end := playOut(t, rand.New(rand.NewPCG(1, 2)), w, b, sw.FEN, 0)
	if se := spectator.until("end"); se.Result != end.Result {
		t.Fatalf("spectator saw %s, players %s", se.Raw, end.Raw)
	}

	saved, err := store.LiveStore{S: s.st}.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if saved.End == nil || saved.End.Result.String() != end.Result || saved.End.Termination.String() != end.Termination {
		t.Fatalf("stored ending %+v, want %s", saved.End, end.Raw)
	}
	// The stored moves replay to the final position the players saw.
	p, _, _ := saved.Start()
	for i, m := range saved.Moves {
		if p, err = p.Play(m.Hole); err != nil {
			t.Fatalf("stored ply %d: %v", i+1, err)
		}
	}
	if o := p.Outcome(); o.Result.String() != end.Result || o.Score != end.Score {
		t.Fatalf("stored moves end in %+v, the players saw %s", o, end.Raw)
	}
	for _, f := range []string{"toguz", "tgk", "playstrategy"} {
		code, _ := s.do("GET", "/api/games/"+id+"/export?format="+f, "", nil)
		if code != 200 {
			t.Errorf("export %s: %d", f, code)
		}
	}
	// A move after the end is refused.
	w.move(len(saved.Moves), 1)
	if m := w.until("error"); m.Code != "game_over" {
		t.Fatalf("move after the end: %s", m.Raw)
	}
}

// TestEngineGame plays a guest against the engine (level 1, no clock) to
// the end: the engine answers every move by itself.
func TestEngineGame(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	tok := s.guest()
	code, m := s.do("POST", "/api/engine-games", tok, map[string]any{"level": 1, "color": "black"})
	if code != 201 {
		t.Fatalf("engine game: %d %v", code, m)
	}
	id := m["game_id"].(string)
	c := s.dial(id, tok)
	st := c.until("state")
	if st.You != "black" {
		t.Fatalf("state %s", st.Raw)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	fen, ply := st.FEN, *st.Ply
	p, _, _ := toguz.ParseFEN(fen, toguz.Standard())
	deadline := time.Now().Add(40 * time.Second)
	for !p.IsOver() {
		if time.Now().After(deadline) {
			t.Fatal("the engine game did not end in time")
		}
		if p.Turn() == toguz.Black {
			c.move(ply, randomMove(t, rng, fen))
		}
		mv := c.until("move", "error")
		if mv.Type == "error" {
			t.Fatalf("refused: %s", mv.Raw)
		}
		ply, fen = *mv.Ply, mv.FEN
		p, _, _ = toguz.ParseFEN(fen, toguz.Standard())
	}
	if e := c.until("end"); e.Status != "ended" || e.Result != p.Outcome().Result.String() {
		t.Fatalf("end %s", e.Raw)
	}
	if ply < 10 {
		t.Fatalf("only %d plies", ply)
	}
}

// TestEngineGameFromPosition starts a game against the engine from a
// position made in the editor, and refuses impossible positions.
func TestEngineGameFromPosition(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	tok := s.guest()
	// docs/rules.md §7 E1: both sides have a tuzdik.
	fen := "2S,1,3S,1,1S,t,4S,1,2S/1,3S,1,5S,1,t,1,1S,1 71 70 S 1"
	code, m := s.do("POST", "/api/engine-games", tok, map[string]any{"level": 2, "color": "white", "fen": fen})
	if code != 201 {
		t.Fatalf("engine game from FEN: %d %v", code, m)
	}
	c := s.dial(m["game_id"].(string), tok)
	if st := c.until("state"); st.FEN != fen {
		t.Fatalf("state FEN %q, want %q", st.FEN, fen)
	}
	for _, tc := range []struct {
		name string
		body map[string]any
	}{
		{"161 stones", map[string]any{"board": [][]int{{9, 9, 9, 9, 9, 9, 9, 9, 8}, {9, 9, 9, 9, 9, 9, 9, 9, 9}}}},
		{"tuzdik on hole 9", map[string]any{"board": [][]int{{9, 9, 9, 9, 9, 9, 9, 9, 9}, {9, 9, 9, 9, 9, 9, 9, 9, 0}}, "kazan": []int{9, 0}, "tuzdik": []int{9, 0}}},
		{"both tuzdiks on hole 3", map[string]any{"board": [][]int{{9, 9, 0, 9, 9, 9, 9, 9, 9}, {9, 9, 0, 9, 9, 9, 9, 9, 9}}, "kazan": []int{9, 9}, "tuzdik": []int{3, 3}}},
		{"bad FEN", map[string]any{"fen": "9S/9S 0 0 S 1"}},
	} {
		code, m := s.do("POST", "/api/positions/check", tok, tc.body)
		if e, _ := m["error"].(map[string]any); code != 400 || e["code"] != "bad_position" {
			t.Errorf("%s: %d %v, want 400 bad_position", tc.name, code, m)
		} else {
			t.Logf("%s: %s", tc.name, e["message"])
		}
	}
	code, m = s.do("POST", "/api/positions/check", tok, map[string]any{"board": [][]int{{9, 9, 9, 9, 9, 9, 9, 9, 9}, {9, 9, 9, 9, 9, 9, 9, 9, 9}}})
	if code != 200 || m["fen"] != toguz.StartPosition().FEN() {
		t.Errorf("start position: %d %v", code, m)
	}
	// A position string keeps its move number, checked or played from.
	fen = "9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 N 30"
	if code, m = s.do("POST", "/api/positions/check", tok, map[string]any{"fen": fen}); code != 200 || m["fen"] != fen {
		t.Errorf("check %s: %d %v", fen, code, m)
	}
	code, m = s.do("POST", "/api/engine-games", tok, map[string]any{"level": 2, "color": "black", "fen": fen})
	if code != 201 {
		t.Fatalf("engine game from FEN: %d %v", code, m)
	}
	if st := s.dial(m["game_id"].(string), tok).until("state"); st.FEN != fen {
		t.Errorf("state FEN %q, want %q", st.FEN, fen)
	}
}

// TestReconnect drops a player's connection mid-game and reconnects: the
// state is exactly the game's (same plies and moves) and play goes on.
func TestReconnect(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	white, black, id := s.game(s.guest(), s.guest(), "10+0", false)
	w, b := s.dial(id, white), s.dial(id, black)
	st := w.until("state")
	b.until("state")
	rng := rand.New(rand.NewPCG(5, 6))
	fen := st.FEN
	for ply := range 5 {
		mover := w
		if ply%2 == 1 {
			mover = b
		}
		mover.move(ply, randomMove(t, rng, fen))
		fen = w.until("move").FEN
		b.until("move")
	}
	w.c.Close(websocket.StatusNormalClosure, "bye")
	// Black moves while White is away.
	b.move(5, randomMove(t, rng, fen))
	fen = b.until("move").FEN
	w2 := s.dial(id, white)
	st2 := w2.until("state")
	if *st2.Ply != 6 || st2.FEN != fen || len(st2.Moves) != 6 || st2.You != "white" || !st2.Control {
		t.Fatalf("state after reconnect: %s", st2.Raw)
	}
	if st2.Clock.Running != "white" {
		t.Fatalf("clock after reconnect: %+v", st2.Clock)
	}
	w2.move(6, randomMove(t, rng, fen))
	if m := w2.until("move", "error"); m.Type != "move" || *m.Ply != 7 {
		t.Fatalf("move after reconnect: %s", m.Raw)
	}
}

// TestStaleAndDuplicateMoves: a move sent again, a move for an old ply and
// a move for a ply not reached are refused with their codes, and the game
// is unchanged.
func TestStaleAndDuplicateMoves(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	white, black, id := s.game(s.guest(), s.guest(), "", false)
	w, b := s.dial(id, white), s.dial(id, black)
	w.until("state")
	b.until("state")
	w.move(0, 7)
	w.until("move")
	b.until("move")
	for _, tc := range []struct {
		c         *wsClient
		ply, hole int
		code      string
	}{
		{w, 0, 7, "duplicate_move"},
		{w, 0, 3, "stale_move"},
		{b, 0, 7, "stale_move"},
		{b, 5, 1, "future_ply"},
		{b, -1, 1, "bad_message"},
	} {
		tc.c.move(tc.ply, tc.hole)
		m := tc.c.until("error")
		if m.Code != tc.code || m.Ply == nil || *m.Ply != 1 {
			t.Errorf("move %d at ply %d: %s, want %s at ply 1", tc.hole, tc.ply, m.Raw, tc.code)
		}
	}
	b.send(`{"type":"move","hole":3}`)
	if m := b.until("error"); m.Code != "bad_message" {
		t.Errorf("move without ply: %s", m.Raw)
	}
	st, err := s.hub.State(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if st.Ply != 1 || st.Moves[0].Hole != 7 {
		t.Fatalf("the game changed: %+v", st.Moves)
	}
	saved, _ := store.LiveStore{S: s.st}.Game(context.Background(), id)
	if len(saved.Moves) != 1 {
		t.Fatalf("%d moves stored, want 1", len(saved.Moves))
	}
}

// TestOtherPeoplesGamesAndTurns: a spectator cannot move, resign or abort;
// a player cannot move out of turn; only the tab in control plays, and a
// newer tab takes control.
func TestOtherPeoplesGamesAndTurns(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	white, black, id := s.game(s.guest(), s.guest(), "", false)
	w, b := s.dial(id, white), s.dial(id, black)
	w.until("state")
	b.until("state")
	x := s.dial(id, s.guest())
	x.until("state")
	anon := s.dial(id, "")
	anon.until("state")
	for _, c := range []*wsClient{x, anon} {
		for _, msg := range []any{map[string]any{"type": "move", "ply": 0, "hole": 1}, `{"type":"resign"}`, `{"type":"abort"}`, `{"type":"take_control"}`} {
			c.send(msg)
			if m := c.until("error"); m.Code != "not_a_player" {
				t.Errorf("spectator %v: %s", msg, m.Raw)
			}
		}
	}
	b.move(0, 1)
	if m := b.until("error"); m.Code != "not_your_turn" {
		t.Errorf("out of turn: %s", m.Raw)
	}
	w.move(0, 10)
	if m := w.until("error"); m.Code != "illegal_move" {
		t.Errorf("hole 10: %s", m.Raw)
	}
	// A second tab of White takes control; the first follows.
	w2 := s.dial(id, white)
	if st := w2.until("state"); !st.Control {
		t.Fatalf("new tab not in control: %s", st.Raw)
	}
	if m := w.until("control"); m.InControl {
		t.Fatalf("old tab: %s", m.Raw)
	}
	w.move(0, 1)
	if m := w.until("error"); m.Code != "not_in_control" {
		t.Errorf("old tab moved: %s", m.Raw)
	}
	w.send(`{"type":"take_control"}`)
	if m := w.until("control"); !m.InControl {
		t.Errorf("take_control: %s", m.Raw)
	}
	if m := w2.until("control"); m.InControl {
		t.Errorf("the other tab kept control: %s", m.Raw)
	}
	w.move(0, 1)
	if m := w.until("move", "error"); m.Type != "move" {
		t.Errorf("move after take_control: %s", m.Raw)
	}
	if m := w2.until("move"); *m.Ply != 1 {
		t.Errorf("the following tab did not follow: %s", m.Raw)
	}
}

// TestHostileMessages: malformed messages get an error and the connection
// stays; an oversized message closes that connection (1009) and nothing
// else; the server goes on.
func TestHostileMessages(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	white, _, id := s.game(s.guest(), s.guest(), "", false)
	w := s.dial(id, white)
	w.until("state")
	for _, bad := range []string{`not json`, `{"type":`, `[1,2,3]`, `{"type":"fly"}`, `{"type":"move","ply":"zero","hole":1}`, `{"type":"move","ply":0,"hole":300}`, `null`, `{}`} {
		w.send(bad)
		m := w.until("error")
		if m.Code != "bad_message" && m.Code != "illegal_move" {
			t.Errorf("%q: %s", bad, m.Raw)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := w.c.Write(ctx, websocket.MessageBinary, []byte{0, 1, 2}); err != nil {
		t.Fatal(err)
	}
	if m := w.until("error"); m.Code != "bad_message" {
		t.Errorf("binary: %s", m.Raw)
	}
	w.send(`{"type":"ping"}`)
	if m := w.until("pong"); m.Type != "pong" {
		t.Fatal("no pong")
	}
	// Oversized: the connection is closed with 1009.
	big := `{"type":"move","ply":0,"hole":1,"pad":"` + string(make([]byte, 5000)) + `"}`
	w.c.Write(ctx, websocket.MessageText, []byte(big))
	var err error
	for err == nil {
		_, err = w.tryRead(5 * time.Second)
	}
	if st := websocket.CloseStatus(err); st != websocket.StatusMessageTooBig {
		t.Errorf("oversized message: %v (status %d), want 1009", err, st)
	}
	// The game and the server go on.
	w2 := s.dial(id, white)
	w2.until("state")
	w2.move(0, 5)
	if m := w2.until("move", "error"); m.Type != "move" {
		t.Fatalf("after the oversized message: %s", m.Raw)
	}
	// Bad HTTP bodies get clear errors.
	for _, body := range []any{"just a string", map[string]any{"tc": 5}, map[string]any{"tc": "99999+0"}, map[string]any{"tc": "5+3", "unknown": 1}} {
		code, m := s.do("POST", "/api/seeks", white, body)
		if code != 400 || m["error"] == nil {
			t.Errorf("seek %v: %d %v", body, code, m)
		}
	}
	if code, _ := s.do("GET", "/api/games/nosuchgame", "", nil); code != 404 {
		t.Errorf("unknown game: %d", code)
	}
}

// TestFlooding: a connection sending far more than the allowed rate gets
// rate_limited errors, then is closed; HTTP writes beyond the per-address
// rate get 429.
func TestFlooding(t *testing.T) {
	s := newTestServer(t, serverOpts{msgRate: 5, msgBurst: 5, writes: 5})
	white, _, id := s.game(s.guest(), s.guest(), "", false)
	w := s.dial(id, white)
	w.until("state")
	limited := 0
	var err error
	for i := range 400 {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err = w.c.Write(ctx, websocket.MessageText, []byte(`{"type":"ping"}`))
		cancel()
		if err != nil {
			break
		}
		_ = i
	}
	for {
		m, rerr := w.tryRead(3 * time.Second)
		if rerr != nil {
			err = rerr
			break
		}
		if m.Code == "rate_limited" {
			limited++
		}
	}
	if limited == 0 {
		t.Errorf("no rate_limited error")
	}
	if st := websocket.CloseStatus(err); st != websocket.StatusPolicyViolation {
		t.Errorf("flooding connection: %v, want close 1008", err)
	}
	got429 := false
	for range 30 {
		code, _ := s.do("POST", "/api/guest", "", nil)
		if code == 429 {
			got429 = true
			break
		}
	}
	if !got429 {
		t.Error("30 quick POSTs were never limited")
	}
}

// TestEndings covers resign, draw offers, abort and the claim after the
// opponent left.
func TestEndings(t *testing.T) {
	s := newTestServer(t, serverOpts{grace: 300 * time.Millisecond})
	start := func() (w, b *wsClient, white, black, id string) {
		white, black, id = s.game(s.guest(), s.guest(), "5+0", false)
		w, b = s.dial(id, white), s.dial(id, black)
		w.until("state")
		b.until("state")
		return
	}
	t.Run("abort", func(t *testing.T) {
		w, b, _, _, _ := start()
		w.move(0, 7)
		w.until("move")
		b.until("move")
		w.send(`{"type":"abort"}`)
		if m := w.until("error"); m.Code != "cannot_abort" {
			t.Errorf("white aborts after his move: %s", m.Raw)
		}
		b.send(`{"type":"abort"}`)
		if m := w.until("end"); m.Status != "aborted" || m.Result != "*" {
			t.Errorf("abort: %s", m.Raw)
		}
	})
	t.Run("resign", func(t *testing.T) {
		w, _, _, _, id := start()
		w.send(`{"type":"resign"}`)
		if m := w.until("end"); m.Result != "0-1" || m.Termination != "resignation" {
			t.Errorf("resign: %s", m.Raw)
		}
		saved, _ := store.LiveStore{S: s.st}.Game(context.Background(), id)
		if saved.End == nil || saved.End.Result != toguz.BlackWins {
			t.Errorf("stored: %+v", saved.End)
		}
	})
	t.Run("draw", func(t *testing.T) {
		w, b, _, _, _ := start()
		w.send(`{"type":"draw_accept"}`)
		if m := w.until("error"); m.Code != "no_draw_offer" {
			t.Errorf("accept without offer: %s", m.Raw)
		}
		w.send(`{"type":"draw_offer"}`)
		if m := b.until("draw_offer"); m.By != "white" {
			t.Errorf("offer: %s", m.Raw)
		}
		b.send(`{"type":"draw_decline"}`)
		w.until("draw_declined")
		w.send(`{"type":"draw_offer"}`)
		b.until("draw_offer")
		b.send(`{"type":"draw_accept"}`)
		if m := w.until("end"); m.Result != "1/2-1/2" || m.Termination != "agreement" {
			t.Errorf("draw: %s", m.Raw)
		}
	})
	t.Run("claim", func(t *testing.T) {
		w, b, _, _, _ := start()
		w.send(`{"type":"claim_win"}`)
		if m := w.until("error"); m.Code != "cannot_claim" {
			t.Errorf("claim while connected: %s", m.Raw)
		}
		b.c.Close(websocket.StatusNormalClosure, "")
		if m := w.until("presence"); m.Type != "presence" {
			t.Fatal(m.Raw)
		}
		w.send(`{"type":"claim_win"}`)
		if m := w.until("error"); m.Code != "cannot_claim" {
			t.Errorf("claim before the grace time: %s", m.Raw)
		}
		time.Sleep(400 * time.Millisecond)
		w.send(`{"type":"claim_win"}`)
		if m := w.until("end"); m.Result != "1-0" || m.Termination != "adjudication" {
			t.Errorf("claim: %s", m.Raw)
		}
	})
}

// TestFlag: a player whose time runs out loses on time, detected by the
// server's timer without any message.
func TestFlag(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	// 3 s each: shorter than the API accepts (15 s), so made through the hub.
	white, black := s.guest(), s.guest()
	seat := func(token string) game.Seat {
		_, m := s.do("GET", "/api/me", token, nil)
		return game.GuestSeat(m["name"].(string))
	}
	id, err := s.hub.Create(context.Background(), game.Spec{Rules: toguz.Standard(), White: seat(white), Black: seat(black),
		TC: clock.TimeControl{Base: 3 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	w, b := s.dial(id, white), s.dial(id, black)
	w.until("state")
	b.until("state")
	w.move(0, 1)
	w.until("move")
	b.move(1, 1)
	if m := w.until("move"); m.Clock.Running != "white" {
		t.Fatalf("clock after both first moves: %s", m.Raw)
	}
	start := time.Now()
	e := w.until("end")
	if e.Result != "0-1" || e.Termination != "time" {
		t.Fatalf("flag: %s", e.Raw)
	}
	if d := time.Since(start); d < 2500*time.Millisecond || d > 4*time.Second {
		t.Errorf("flagged after %v, want about 3 s", d)
	}
	saved, _ := store.LiveStore{S: s.st}.Game(context.Background(), id)
	if saved.End == nil || saved.End.Termination != toguz.ByTime || saved.End.Clock[0] != 0 {
		t.Errorf("stored: %+v", saved.End)
	}
	_ = game.Ended
}

// TestLobbySocket: a lobby watcher sees the seek list change, and the
// creator of a seek learns of its game.
func TestLobbySocket(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	a, b := s.guest(), s.guest()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+s.URL[4:]+"/api/lobby/ws", &websocket.DialOptions{HTTPHeader: map[string][]string{"Authorization": {"Bearer " + a}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	w := &wsClient{t: t, c: c}
	if m := w.read(); m.Type != "seeks" {
		t.Fatalf("first lobby message: %s", m.Raw)
	}
	code, m := s.do("POST", "/api/seeks", a, map[string]any{"tc": "10+5"})
	if code != 201 {
		t.Fatalf("seek: %d %v", code, m)
	}
	seek := m["id"].(string)
	if m := w.until("seek_added"); !strings.Contains(m.Raw, seek) {
		t.Fatalf("the new seek is not listed: %s", m.Raw)
	}
	if code, _ := s.do("POST", "/api/seeks/"+seek+"/accept", a, nil); code != 409 {
		t.Errorf("own seek accepted: %d", code)
	}
	code, m = s.do("POST", "/api/seeks/"+seek+"/accept", b, nil)
	if code != 201 {
		t.Fatalf("accept: %d %v", code, m)
	}
	if g := w.until("game_started"); !strings.Contains(g.Raw, m["game_id"].(string)) {
		t.Fatalf("game_started: %s", g.Raw)
	}
	if code, _ := s.do("POST", "/api/seeks/"+seek+"/accept", s.guest(), nil); code != 410 {
		t.Errorf("a taken seek accepted again: %d", code)
	}
	w.send(`{"type":"ping"}`)
	w.until("pong")
}

// TestEngineSeatNamed: the replay of a game against the engine names the
// engine's seat in the page's language, not by its stored English name.
func TestEngineSeatNamed(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	tok := s.guest()
	code, m := s.do("POST", "/api/engine-games", tok, map[string]any{"level": 2, "color": "white"})
	if code != 201 {
		t.Fatalf("engine game: %d %v", code, m)
	}
	id := m["game_id"].(string)
	c := s.dial(id, tok)
	c.until("state")
	c.send(`{"type":"resign"}`)
	c.until("end")
	for lang, want := range map[string]string{"kk": `data-black="Компьютер, 2-деңгей"`, "en": `data-black="Engine level 2"`} {
		_, body := requestIn(t, http.DefaultClient, "GET", s.URL+"/game/"+id, lang, "", nil)
		if !strings.Contains(body, want) {
			t.Errorf("%s: the replay lacks %s", lang, want)
		}
	}
}

// TestEngineSeatNamedInLists: the profile's games name the engine in the
// page's language too.
func TestEngineSeatNamedInLists(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	c := s.browser()
	if code, _, _ := postForm(t, c, s.URL+"/signup", url.Values{"name": {"dana"}, "password": {"dana password"}}); code != 303 {
		t.Fatalf("signup: %d", code)
	}
	if code, _, _ := postForm(t, c, s.URL+"/lobby/engine", url.Values{"level": {"4"}, "color": {"white"}}); code != 303 {
		t.Fatalf("engine game: %d", code)
	}
	for lang, want := range map[string]string{"kk": "<td>Компьютер, 4-деңгей</td>", "ru": "<td>Компьютер, уровень 4</td>"} {
		_, body := requestIn(t, c, "GET", s.URL+"/@/dana", lang, "", nil)
		if !strings.Contains(body, want) {
			t.Errorf("%s: the profile lacks %s", lang, want)
		}
	}
}
