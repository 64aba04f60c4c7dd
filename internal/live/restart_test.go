package live_test

import (
	"context"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/enginepool"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/store"
)

// server is one run of a hub on a store file, in a synctest bubble; crash
// ends it as SIGKILL would (nothing recorded), stop as a clean shutdown.
type server struct {
	t      *testing.T
	st     *store.Store
	h      *live.Hub
	cancel context.CancelFunc
}

func startServer(t *testing.T, path string, cfg live.Config) *server {
	t.Helper()
	st := openStore(t, path)
	ctx, cancel := context.WithCancel(context.Background())
	cfg.Store = store.LiveStore{S: st}
	h := live.NewHub(ctx, cfg)
	if _, err := h.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	return &server{t: t, st: st, h: h, cancel: cancel}
}

func (s *server) crash() {
	s.cancel()
	s.h.Wait()
	s.st.Close()
}

func (s *server) stop() {
	if err := s.h.Stop(context.Background()); err != nil {
		s.t.Fatal(err)
	}
	s.cancel()
	s.st.Close()
}

func (s *server) clock(id string) live.ClockJSON {
	s.t.Helper()
	st, err := s.h.State(context.Background(), id)
	if err != nil {
		s.t.Fatal(err)
	}
	return st.Clock
}

// play plays n first legal moves in game id, advancing the fake time by
// think before each.
func (s *server) play(id string, from, n int, think time.Duration) {
	s.t.Helper()
	w, b := seats()
	cw, _ := s.h.Join(context.Background(), id, w.ID)
	cb, _ := s.h.Join(context.Background(), id, b.ID)
	st, _ := s.h.State(context.Background(), id)
	p, _, err := toguz.ParseFEN(st.FEN, toguz.Standard())
	if err != nil {
		s.t.Fatal(err)
	}
	for ply := from; ply < from+n; ply++ {
		time.Sleep(think)
		c := cw
		if p.Turn() == toguz.Black {
			c = cb
		}
		m := p.LegalMoves().First()
		move(c, ply, int(m))
		synctest.Wait()
		if st, _ := s.h.State(context.Background(), id); st.Ply != ply+1 {
			s.t.Fatalf("ply %d not played: %+v", ply+1, st)
		}
		p = p.After(m)
	}
	cw.Leave()
	cb.Leave()
	synctest.Wait()
}

// TestRestartClock is the example: a 1+0 game whose player to move
// had 57.8 s at his opponent's last move and 35.0 s when the server
// stopped. After a crash he has 35 s, give or take the heartbeat (never
// the 57.8 s of the last move), after a clean stop exactly 35 s; a second
// crash does not forgive the first downtime again; and a correspondence
// deadline moves later by the downtime only.
func TestRestartClock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	cfg := live.Config{FirstMoveTimeout: -1}
	synctest.Test(t, func(t *testing.T) {
		s := startServer(t, path, cfg)
		w, b := seats()
		tc, _ := clock.ParseTimeControl("1+0")
		id, err := s.h.Create(context.Background(), game.Spec{Rules: toguz.Standard(), TC: tc, White: w, Black: b})
		if err != nil {
			t.Fatal(err)
		}
		cc, _ := clock.ParseTimeControl("1d")
		cid, err := s.h.Create(context.Background(), game.Spec{Rules: toguz.Standard(), TC: cc, White: w, Black: b})
		if err != nil {
			t.Fatal(err)
		}
		s.play(id, 0, 2, 0)                     // the clocks start: White's runs
		s.play(id, 2, 1, 2200*time.Millisecond) // White 57.8 s
		s.play(id, 3, 1, time.Second)           // Black 59 s; White to move with 57.8 s
		s.play(cid, 0, 3, 0)                    // Black to move, 1 day
		if c := s.clock(id); c.WhiteMS != 57_800 || c.Running != "white" {
			t.Fatalf("before the crash: %+v", c)
		}
		deadline := s.clock(cid).DeadlineMS
		time.Sleep(22800 * time.Millisecond)
		if c := s.clock(id); c.WhiteMS != 35_000 {
			t.Fatalf("at the crash: %+v", c)
		}
		s.crash()
		time.Sleep(10 * time.Minute) // the downtime

		s = startServer(t, path, cfg)
		c := s.clock(id)
		if c.WhiteMS < 35_000 || c.WhiteMS > 35_000+live.DefaultHeartbeat.Milliseconds() || c.BlackMS != 59_000 || c.Running != "white" {
			t.Errorf("after a crash: %+v, want White 35 s (to within a heartbeat), Black 59 s", c)
		}
		moved := s.clock(cid).DeadlineMS - deadline
		if down := (10 * time.Minute).Milliseconds(); moved < down || moved > down+live.DefaultHeartbeat.Milliseconds() {
			t.Errorf("after a crash the correspondence deadline moved %d ms, want the downtime %d ms", moved, down)
		}
		before := c.WhiteMS
		time.Sleep(5 * time.Second)
		s.crash() // a second crash, 5 s into the second run
		time.Sleep(time.Hour)

		s = startServer(t, path, cfg)
		c = s.clock(id)
		if want := before - 5000; c.WhiteMS < want || c.WhiteMS > want+live.DefaultHeartbeat.Milliseconds() {
			t.Errorf("after a second crash: %+v, want White %d ms (to within a heartbeat)", c, want)
		}
		time.Sleep(1500 * time.Millisecond)
		exact := s.clock(id)
		s.stop() // a clean stop
		time.Sleep(24 * time.Hour)

		s = startServer(t, path, cfg)
		if c := s.clock(id); c != exact {
			t.Errorf("after a clean stop: %+v, want exactly %+v", c, exact)
		}
		time.Sleep(2 * time.Second)
		if c := s.clock(id); c.WhiteMS != exact.WhiteMS-2000 {
			t.Errorf("2 s after the restart: %+v, want White %d ms", c, exact.WhiteMS-2000)
		}
		s.stop()
	})
}

// TestAbandonment: every kind of game that nobody plays ends: aborted,
// without a result, at its limit and not a millisecond before.
func TestAbandonment(t *testing.T) {
	eng, err := enginepool.NewLivePlayer(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	w, b := seats()
	e := game.EngineSeat(1, "Engine 1")
	for _, tt := range []struct {
		name         string
		tc           string
		black        game.Seat
		plies        int
		think, limit time.Duration // between the moves; after the last
	}{
		{"untimed, no move", "-", b, 0, 0, live.DefaultAbandonUntimed},
		{"untimed, moves made", "-", b, 5, time.Hour, live.DefaultAbandonUntimed},
		{"correspondence, no move", "2d", b, 0, 0, 48 * time.Hour},
		{"correspondence, Black never moves", "2d", b, 1, time.Hour, 48 * time.Hour},
		{"engine, never played", "5+3", e, 0, 0, live.DefaultAbandonEngine},
		{"engine untimed, never played", "-", e, 0, 0, live.DefaultAbandonEngine},
		{"real time, no first move", "3+2", b, 1, time.Second, 60 * time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.db")
			synctest.Test(t, func(t *testing.T) {
				s := startServer(t, path, live.Config{Engine: eng, Heartbeat: -1})
				tc, err := clock.ParseTimeControl(tt.tc)
				if err != nil {
					t.Fatal(err)
				}
				id, err := s.h.Create(context.Background(), game.Spec{Rules: toguz.Standard(), TC: tc, White: w, Black: tt.black})
				if err != nil {
					t.Fatal(err)
				}
				if tt.plies > 0 {
					s.play(id, 0, tt.plies, tt.think)
				}
				time.Sleep(tt.limit - time.Millisecond)
				synctest.Wait()
				if st, _ := s.h.State(context.Background(), id); st.Status != "playing" {
					t.Fatalf("ended a millisecond early: %s", st.Status)
				}
				time.Sleep(time.Millisecond)
				synctest.Wait()
				st, _ := s.h.State(context.Background(), id)
				if st.Status != "aborted" || st.Result != "*" {
					t.Fatalf("after %v: %s %s, want aborted", tt.limit, st.Status, st.Result)
				}
				saved, err := store.LiveStore{S: s.st}.Game(context.Background(), id)
				if err != nil || saved.End == nil || saved.End.Status != game.Aborted {
					t.Fatalf("stored: %+v %v", saved.End, err)
				}
				s.stop()
			})
		})
	}
}

// TestResumeAbortsAbandoned: at start-up the games abandoned while the
// server ran are aborted in the store without being loaded; the others are
// loaded, their limits not counting the downtime.
func TestResumeAbortsAbandoned(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	// The hub that made the games had no limits (as before this rule).
	old := live.Config{FirstMoveTimeout: -1, AbandonUntimed: -1, AbandonEngine: -1, Heartbeat: -1}
	synctest.Test(t, func(t *testing.T) {
		s := startServer(t, path, old)
		w, b := seats()
		var dead, alive []string
		for range 3 {
			id, _ := s.h.Create(context.Background(), game.Spec{Rules: toguz.Standard(), White: w, Black: b})
			dead = append(dead, id)
		}
		time.Sleep(2 * time.Hour)
		id, _ := s.h.Create(context.Background(), game.Spec{Rules: toguz.Standard(), White: w, Black: b})
		alive = append(alive, id)
		time.Sleep(live.DefaultAbandonUntimed - time.Hour)
		s.stop()
		time.Sleep(30 * 24 * time.Hour) // down for a month: not counted

		s = startServer(t, path, live.Config{FirstMoveTimeout: -1, Heartbeat: -1})
		if n := s.h.Live(); n != len(alive) {
			t.Errorf("%d games loaded, want the %d alive", n, len(alive))
		}
		for _, id := range dead {
			g, err := s.st.Game(context.Background(), id)
			if err != nil || g.Status != game.Aborted {
				t.Errorf("abandoned game %s: %s %v, want aborted", id, g.Status, err)
			}
		}
		// The one alive had 1 h of its 7 days left when the server stopped.
		time.Sleep(time.Hour - time.Millisecond)
		synctest.Wait()
		if st, _ := s.h.State(context.Background(), alive[0]); st.Status != "playing" {
			t.Errorf("the live game ended early: %s", st.Status)
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if st, _ := s.h.State(context.Background(), alive[0]); st.Status != "aborted" {
			t.Errorf("the live game: %s, want aborted at its limit", st.Status)
		}
		s.stop()
	})
}

// TestStopAfterFailedResume: a hub whose Resume failed (here its start was
// cancelled, as by a Ctrl-C during start-up) has not rebuilt any clock, so
// its Stop must not record that the server ran until then: it used to,
// and the next start charged the side to move the whole downtime since
// the crash before.
func TestStopAfterFailedResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	cfg := live.Config{FirstMoveTimeout: -1}
	synctest.Test(t, func(t *testing.T) {
		s := startServer(t, path, cfg)
		w, b := seats()
		tc, _ := clock.ParseTimeControl("10+0")
		id, err := s.h.Create(context.Background(), game.Spec{Rules: toguz.Standard(), TC: tc, White: w, Black: b})
		if err != nil {
			t.Fatal(err)
		}
		s.play(id, 0, 2, 0) // the clocks start: White's runs
		time.Sleep(30 * time.Second)
		s.crash() // White has 9:30
		time.Sleep(time.Hour)

		st := openStore(t, path)
		ctx, cancel := context.WithCancel(context.Background())
		h := live.NewHub(ctx, live.Config{Store: store.LiveStore{S: st}, FirstMoveTimeout: -1})
		start, abort := context.WithCancel(context.Background())
		abort()
		if _, err := h.Resume(start); err == nil {
			t.Fatal("Resume with a cancelled context succeeded")
		}
		if err := h.Stop(context.Background()); err != nil {
			t.Fatal(err)
		}
		cancel()
		st.Close()
		time.Sleep(time.Hour)

		s = startServer(t, path, cfg)
		defer s.stop()
		if c := s.clock(id); c.WhiteMS < 570_000 || c.WhiteMS > 570_000+live.DefaultHeartbeat.Milliseconds() || c.Running != "white" {
			t.Errorf("after a crash and a failed start: %+v, want White 9:30 (to within a heartbeat)", c)
		}
	})
}

// TestAbandonedEngineGameAfterMoves: an untimed game against the engine
// that its player leaves after some moves leaves the list of games being
// played (/games, the TV) once nobody has moved for live.ListIdle, and is
// aborted when the engine's limit has passed since his last move, not a
// millisecond before.
func TestAbandonedEngineGameAfterMoves(t *testing.T) {
	eng, err := enginepool.NewLivePlayer(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := seats()
	path := filepath.Join(t.TempDir(), "t.db")
	synctest.Test(t, func(t *testing.T) {
		s := startServer(t, path, live.Config{Engine: eng, Heartbeat: -1})
		id, err := s.h.Create(context.Background(), game.Spec{Rules: toguz.Standard(), White: w, Black: game.EngineSeat(1, "Engine 1")})
		if err != nil {
			t.Fatal(err)
		}
		c, err := s.h.Join(context.Background(), id, w.ID)
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 6; ply += 2 {
			time.Sleep(time.Minute)
			st, _ := s.h.State(context.Background(), id)
			p, _, err := toguz.ParseFEN(st.FEN, toguz.Standard())
			if err != nil {
				t.Fatal(err)
			}
			move(c, ply, int(p.LegalMoves().First()))
			synctest.Wait()
			if st, _ := s.h.State(context.Background(), id); st.Ply != ply+2 {
				t.Fatalf("after White's ply %d: ply %d, want the engine's reply", ply+1, st.Ply)
			}
		}
		c.Leave()
		listed := func() bool {
			for _, g := range s.h.Games() {
				if g.ID == id {
					return true
				}
			}
			return false
		}
		// The engine's last reply came after White's move: the idle time
		// runs from it, a little later than White's move.
		time.Sleep(live.ListIdle - time.Second)
		synctest.Wait()
		if !listed() {
			t.Error("not listed before live.ListIdle without a move")
		}
		time.Sleep(time.Second + time.Millisecond)
		if listed() {
			t.Error("still listed after live.ListIdle without a move")
		}
		time.Sleep(live.DefaultAbandonEngine - live.ListIdle - 2*time.Millisecond)
		synctest.Wait()
		if st, _ := s.h.State(context.Background(), id); st.Status != "playing" {
			t.Fatalf("a millisecond before the limit: %s", st.Status)
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if st, _ := s.h.State(context.Background(), id); st.Status != "aborted" || st.Result != "*" {
			t.Fatalf("after the limit: %s %s, want aborted", st.Status, st.Result)
		}
		s.stop()
	})
}
