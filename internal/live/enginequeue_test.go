package live_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/enginepool"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/store"
)

// engineHub returns a hub on a real store (at path, created when new) with
// the real engine player eng; stop stops the hub and waits for its games.
func engineHub(t *testing.T, path string, eng live.Engine, cfg live.Config) (h *live.Hub, gs store.LiveStore, stop func()) {
	t.Helper()
	st := openStore(t, path)
	ctx, cancel := context.WithCancel(context.Background())
	gs = store.LiveStore{S: st}
	cfg.Store, cfg.Engine, cfg.FirstMoveTimeout = gs, eng, -1
	h = live.NewHub(ctx, cfg)
	return h, gs, func() {
		cancel()
		h.Wait()
		st.Close()
	}
}

// moveMsg is what these tests read of a move message.
type moveMsg struct {
	Type  string
	Ply   int
	Clock live.ClockJSON
}

// awaitPly returns the message on c that shows ply played: the state it
// starts with, when the game is there already, or the move.
func awaitPly(t *testing.T, c *live.Conn, ply int) moveMsg {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case b, open := <-c.Out():
			if !open {
				t.Fatalf("connection closed before ply %d", ply)
			}
			var m moveMsg
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			if (m.Type == "state" && m.Ply >= ply) || (m.Type == "move" && m.Ply == ply) {
				return m
			}
			if m.Type == "error" {
				t.Fatalf("waiting for ply %d: %s", ply, b)
			}
		case <-timeout:
			t.Fatalf("no ply %d", ply)
		}
	}
}

// awaitEnd waits for the end message on c.
func awaitEnd(t *testing.T, c *live.Conn) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case b, open := <-c.Out():
			var m moveMsg
			if !open || json.Unmarshal(b, &m) != nil {
				t.Fatalf("connection closed before the end, or a bad message %q", b)
			}
			if m.Type == "end" {
				return
			}
		case <-timeout:
			t.Fatal("the game did not end")
		}
	}
}

// TestEngineFairAcrossUsers reproduces the starving of the engine: one user
// opens n level-10 games in which the engine moves first, then another user
// opens a level-1 game. With one searcher and 110 ms a level-10 search (a 2 s
// clock: 1/20 of it, plus 10 ms), the second user used to wait for
// all n searches; the searches now take turns across users, so he waits for
// the one running at most, whatever n.
func TestEngineFairAcrossUsers(t *testing.T) {
	const search = 110 * time.Millisecond // a level-10 search under tc
	tc := clock.TimeControl{Base: 2 * time.Second}
	for _, n := range []int{4, 16, 32} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			eng, err := enginepool.NewLivePlayer(1, 1)
			if err != nil {
				t.Fatal(err)
			}
			h, _, stop := engineHub(t, filepath.Join(t.TempDir(), "t.db"), eng, live.Config{MaxEngineGames: -1, MaxEngineGamesPerAddr: -1})
			defer stop()
			ctx := context.Background()
			attacker := game.GuestSeat("Guest-attacker")
			for i := range n {
				if _, err := h.CreateFrom(ctx, game.Spec{Rules: toguz.Standard(), TC: tc,
					White: game.EngineSeat(10, "Engine 10"), Black: attacker}, "192.0.2.1"); err != nil {
					t.Fatalf("game %d: %v", i, err)
				}
			}
			// Every search but the running one waits for the searcher.
			for deadline := time.Now().Add(5 * time.Second); eng.Waiting() < n-1 && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
			other := game.GuestSeat("Guest-other")
			start := time.Now()
			id, err := h.CreateFrom(ctx, game.Spec{Rules: toguz.Standard(), TC: tc,
				White: game.EngineSeat(1, "Engine 1"), Black: other}, "198.51.100.7")
			if err != nil {
				t.Fatal(err)
			}
			c, err := h.Join(ctx, id, other.ID)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Leave()
			awaitPly(t, c, 1)
			wait := time.Since(start)
			t.Logf("%d level-10 games of one user: the other user's first engine move after %v", n, wait)
			// About one search (the one running), with room for a loaded
			// machine; n searches when the queue was first come, first served.
			if limit := 2*search + 200*time.Millisecond; wait > limit {
				t.Errorf("the other user waited %v for the engine's first move, want under %v (one search: %v)", wait, limit, search)
			}
		})
	}
}

// TestEngineClockFromSearchStart: the engine's clock is charged from its
// search's start, not from its opponent's move: while its search waits for
// the searcher (busy with another user's level-10 search, a second) the
// engine's clock is held, and its move charges it the search only. The
// stored clocks are those of the move message, so a restart shows them.
func TestEngineClockFromSearchStart(t *testing.T) {
	eng, err := enginepool.NewLivePlayer(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.db")
	h, gs, stop := engineHub(t, path, eng, live.Config{})
	ctx := context.Background()
	id, c := gameWithHeldEngine(t, h)
	s, err := h.State(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	p := toguz.StartPosition()
	for _, m := range s.Moves {
		p = p.After(toguz.Move(m.Hole))
	}
	sent := time.Now()
	move(c, 2, int(p.LegalMoves().First()))
	awaitPly(t, c, 3)
	time.Sleep(100 * time.Millisecond)
	if s, err := h.State(ctx, id); err != nil || s.Clock.Running != "" || s.Clock.BlackMS != 60_000 {
		t.Errorf("while the engine waits for a searcher its clock is %+v (%v), want held at 60000 ms", s.Clock, err)
	}
	m := awaitPly(t, c, 4)
	wall := time.Since(sent)
	charged := 60*time.Second - time.Duration(m.Clock.BlackMS)*time.Millisecond
	t.Logf("the engine's move came %v after its opponent's; its clock was charged %v", wall, charged)
	if wall < 500*time.Millisecond {
		t.Fatalf("the engine answered after %v: its search did not wait for the searcher, nothing is tested", wall)
	}
	if charged > 150*time.Millisecond {
		t.Errorf("the engine's clock was charged %v for a level-1 search that waited %v for the searcher, want the search's time only", charged, wall)
	}
	saved, err := gs.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got := saved.Moves[3].Clock[toguz.Black].Milliseconds(); got != m.Clock.BlackMS {
		t.Errorf("stored engine's clock %d ms, the move message's %d ms", got, m.Clock.BlackMS)
	}
	c.Leave()
	stop()

	h2, _, stop2 := engineHub(t, path, eng, live.Config{})
	defer stop2()
	if _, err := h2.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	if s, err := h2.State(ctx, id); err != nil || s.Clock.BlackMS != m.Clock.BlackMS {
		t.Errorf("after a restart the engine's clock is %+v (%v), want black_ms %d", s.Clock, err, m.Clock.BlackMS)
	}
}

// TestEngineGamesBound: engine games are refused beyond the bound per
// person and per address, with too_many_engine_games; a finished game
// frees its place, games between people do not count, and after a restart
// the games reloaded count again.
func TestEngineGamesBound(t *testing.T) {
	eng, err := enginepool.NewLivePlayer(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.db")
	cfg := live.Config{MaxEngineGames: 2, MaxEngineGamesPerAddr: 3}
	h, _, stop := engineHub(t, path, eng, cfg)
	ctx := context.Background()
	a, b, c := game.GuestSeat("Guest-a"), game.GuestSeat("Guest-b"), game.GuestSeat("Guest-c")
	// The engine plays Black: it never searches here.
	create := func(s game.Seat, addr string) (string, error) {
		return h.CreateFrom(ctx, game.Spec{Rules: toguz.Standard(), White: s, Black: game.EngineSeat(1, "Engine 1")}, addr)
	}
	refused := func(err error) bool {
		var le *live.Error
		return errors.As(err, &le) && le.Code == apierr.CodeTooManyEngineGames
	}
	first, err := create(a, "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		who     game.Seat
		addr    string
		refused bool
	}{
		{a, "192.0.2.1", false},
		{a, "192.0.2.9", true},  // a's bound
		{b, "192.0.2.1", false}, // the address's third
		{c, "192.0.2.1", true},  // the address's bound
		{c, "192.0.2.2", false},
	} {
		if _, err := create(step.who, step.addr); refused(err) != step.refused || (err != nil && !step.refused) {
			t.Fatalf("%s from %s: %v, want refused %v", step.who.ID, step.addr, err, step.refused)
		}
	}
	if _, err := h.Create(ctx, game.Spec{Rules: toguz.Standard(), White: a, Black: b}); err != nil {
		t.Fatalf("a game between people: %v", err)
	}
	// a resigns his first game: he may start another.
	conn, err := h.Join(ctx, first, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	conn.Send(live.ClientMsg{Type: "resign"})
	awaitEnd(t, conn)
	conn.Leave()
	if _, err := create(a, "192.0.2.9"); err != nil {
		t.Fatalf("after resigning one: %v", err)
	}
	if _, err := create(a, "192.0.2.9"); !refused(err) {
		t.Fatalf("a third game at once: %v, want too_many_engine_games", err)
	}
	stop()

	h2, _, stop2 := engineHub(t, path, eng, cfg)
	defer stop2()
	if _, err := h2.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := h2.Create(ctx, game.Spec{Rules: toguz.Standard(), White: a, Black: game.EngineSeat(1, "Engine 1")}); !refused(err) {
		t.Fatalf("after a restart, a third game at once: %v, want too_many_engine_games", err)
	}
}

// TestEngineClockHeldAcrossRestart: the engine's clock is held while its
// search waits for the searcher, so a server that stops meanwhile must not
// charge it, on restart, the time from its opponent's move to the stop (it
// used to: ResumeAt charged the side to move, held or not, and an engine
// kept waiting long enough lost on time after the restart).
func TestEngineClockHeldAcrossRestart(t *testing.T) {
	eng, err := enginepool.NewLivePlayer(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.db")
	h, _, stop := engineHub(t, path, eng, live.Config{})
	ctx := context.Background()
	if _, err := h.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	id, c := gameWithHeldEngine(t, h)
	s, err := h.State(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	p := toguz.StartPosition()
	for _, m := range s.Moves {
		p = p.After(toguz.Move(m.Hole))
	}
	move(c, 2, int(p.LegalMoves().First()))
	awaitPly(t, c, 3)
	const waited = 400 * time.Millisecond
	time.Sleep(waited)
	s, err = h.State(ctx, id)
	if err != nil || s.Ply != 3 || s.Clock.Running != "" || s.Clock.BlackMS != 60_000 {
		t.Fatalf("the engine was to wait for the searcher, held at 60000 ms: %+v (%v)", s, err)
	}
	c.Leave()
	if err := h.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	stop()

	h2, _, stop2 := engineHub(t, path, eng, live.Config{})
	defer stop2()
	if _, err := h2.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	s, err = h2.State(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	// Held again as the game's actor starts, a few ms after the restart.
	if s.Ply == 3 && (s.Clock.Running != "" || s.Clock.BlackMS < 59_950) {
		t.Errorf("after a restart the engine's clock is %+v, want held at 60000 ms less a few (it waited %v for the searcher before the stop)", s.Clock, waited)
	}
	if s.Ply > 3 {
		if charged := 60*time.Second - time.Duration(s.Clock.BlackMS)*time.Millisecond; charged > 150*time.Millisecond {
			t.Errorf("after a restart the engine was charged %v for a level-1 search (it waited %v for the searcher before the stop)", charged, waited)
		}
	}
}

// gameWithHeldEngine starts a one-minute game of a guest against the level-1
// engine on h, both sides' first moves made so that the clocks run, and then
// another user's untimed level-10 game, whose search takes the one searcher
// for a second while the first game's engine must wait for it.
func gameWithHeldEngine(t *testing.T, h *live.Hub) (string, *live.Conn) {
	t.Helper()
	ctx := context.Background()
	human := game.GuestSeat("Guest-human")
	id, err := h.Create(ctx, game.Spec{Rules: toguz.Standard(), TC: clock.TimeControl{Base: time.Minute},
		White: human, Black: game.EngineSeat(1, "Engine 1")})
	if err != nil {
		t.Fatal(err)
	}
	c, err := h.Join(ctx, id, human.ID)
	if err != nil {
		t.Fatal(err)
	}
	move(c, 0, int(toguz.StartPosition().LegalMoves().First()))
	awaitPly(t, c, 2)
	if _, err := h.Create(ctx, game.Spec{Rules: toguz.Standard(), White: game.EngineSeat(10, "Engine 10"),
		Black: game.GuestSeat("Guest-busy")}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	return id, c
}
