package live_test

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/toguz/toguz/internal/posjson"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/store"
)

type msg struct {
	Type        string         `json:"type"`
	Code        string         `json:"code"`
	Ply         *int           `json:"ply"`
	Result      string         `json:"result"`
	Termination string         `json:"termination"`
	Clock       live.ClockJSON `json:"clock"`
}

// next returns the next message of c of one of the types, skipping others;
// ok is false when none is queued (in a synctest bubble, after Wait).
func next(t *testing.T, c *live.Conn, types ...string) (msg, bool) {
	t.Helper()
	for {
		select {
		case b, open := <-c.Out():
			if !open {
				return msg{}, false
			}
			var m msg
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			for _, ty := range types {
				if m.Type == ty {
					return m, true
				}
			}
		default:
			return msg{}, false
		}
	}
}

// withHub runs f in a synctest bubble with a hub on a real SQLite store.
func withHub(t *testing.T, f func(h *live.Hub)) {
	withHubConfig(t, live.Config{FirstMoveTimeout: -1}, f)
}

func withHubConfig(t *testing.T, cfg live.Config, f func(h *live.Hub)) {
	dir := t.TempDir()
	synctest.Test(t, func(t *testing.T) {
		st := openStore(t, filepath.Join(dir, "t.db"))
		ctx, cancel := context.WithCancel(context.Background())
		cfg.Store = store.LiveStore{S: st}
		h := live.NewHub(ctx, cfg)
		f(h)
		cancel()
		h.Wait()
		st.Close()
	})
}

func seats() (game.Seat, game.Seat) {
	return game.Seat{ID: "g:Guest-a", Name: "Guest-a", Guest: true}, game.Seat{ID: "g:Guest-b", Name: "Guest-b", Guest: true}
}

func move(c *live.Conn, ply, hole int) { c.Send(live.ClientMsg{Type: "move", Ply: &ply, Hole: hole}) }

// TestClocks: with a fake clock, a player flags exactly when his time is
// used up, increments are added after each timed move, and a
// correspondence player flags at his deadline.
func TestClocks(t *testing.T) {
	for _, tc := range []struct {
		name, tc string
		think    time.Duration // White's thinking time at ply 2
		flagAt   time.Duration // after White's clock starts
		whiteMS  int64         // White's time after ply 3
	}{
		{"sudden death", "1+0", 10 * time.Second, 50 * time.Second, 50_000},
		{"increment", "1+2", 10 * time.Second, 52 * time.Second, 52_000},
		{"correspondence", "1d", 10 * time.Hour, 24 * time.Hour, 24 * 3600_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			withHub(t, func(h *live.Hub) {
				tcv, err := clock.ParseTimeControl(tc.tc)
				if err != nil {
					t.Fatal(err)
				}
				w, b := seats()
				id, err := h.Create(context.Background(), game.Spec{Rules: toguz.Standard(), TC: tcv, White: w, Black: b})
				if err != nil {
					t.Fatal(err)
				}
				cw, _ := h.Join(context.Background(), id, w.ID)
				cb, _ := h.Join(context.Background(), id, b.ID)
				move(cw, 0, 1)
				move(cb, 1, 1)
				synctest.Wait()
				if m, _ := next(t, cw, "move"); m.Clock.Running != "" {
					t.Fatalf("a clock runs before both first moves: %+v", m.Clock)
				}
				if m, _ := next(t, cw, "move"); m.Clock.Running != "white" || m.Clock.WhiteMS != 60_000 && tc.tc != "1d" {
					t.Fatalf("after both first moves: %+v", m.Clock)
				}
				time.Sleep(tc.think)
				move(cw, 2, 2)
				synctest.Wait()
				m, _ := next(t, cw, "move")
				if m.Clock.WhiteMS != tc.whiteMS || m.Clock.Running != "black" {
					t.Fatalf("after White's timed move: %+v, want white_ms %d", m.Clock, tc.whiteMS)
				}
				move(cb, 3, 2)
				synctest.Wait()
				next(t, cw, "move")
				time.Sleep(time.Duration(tc.whiteMS)*time.Millisecond - time.Millisecond)
				synctest.Wait()
				if m, ok := next(t, cw, "end"); ok {
					t.Fatalf("ended a millisecond early: %+v", m)
				}
				time.Sleep(time.Millisecond)
				synctest.Wait()
				e, ok := next(t, cw, "end")
				if !ok || e.Result != "0-1" || e.Termination != "time" {
					t.Fatalf("flag: %+v %v", e, ok)
				}
				cw.Leave()
				cb.Leave()
			})
		})
	}
}

// TestMoveAfterFlag: the server's timer ends the game at the flag without
// any message from the players, and a move sent after it is refused.
func TestMoveAfterFlag(t *testing.T) {
	withHub(t, func(h *live.Hub) {
		tcv, _ := clock.ParseTimeControl("1+0")
		w, b := seats()
		id, _ := h.Create(context.Background(), game.Spec{Rules: toguz.Standard(), TC: tcv, White: w, Black: b})
		cw, _ := h.Join(context.Background(), id, w.ID)
		cb, _ := h.Join(context.Background(), id, b.ID)
		move(cw, 0, 1)
		move(cb, 1, 1)
		synctest.Wait()
		st, err := h.State(context.Background(), id)
		if err != nil || st.Clock.Running != "white" {
			t.Fatalf("%+v %v", st.Clock, err)
		}
		time.Sleep(time.Minute)
		synctest.Wait()
		e, ok := next(t, cb, "end")
		if !ok || e.Termination != "time" {
			t.Fatalf("no flag: %+v", e)
		}
		move(cw, 2, 2)
		synctest.Wait()
		if m, _ := next(t, cw, "error"); m.Code != "game_over" {
			t.Fatalf("move after the flag: %+v", m)
		}
		cw.Leave()
		cb.Leave()
	})
}

// TestFirstMoveTimeout: a real-time game between people whose first move
// does not come in time is aborted, without a result.
func TestFirstMoveTimeout(t *testing.T) {
	withHubConfig(t, live.Config{FirstMoveTimeout: 30 * time.Second}, func(h *live.Hub) {
		tcv, _ := clock.ParseTimeControl("3+2")
		w, b := seats()
		id, _ := h.Create(context.Background(), game.Spec{Rules: toguz.Standard(), TC: tcv, White: w, Black: b})
		cw, _ := h.Join(context.Background(), id, w.ID)
		move(cw, 0, 7)
		time.Sleep(29 * time.Second)
		synctest.Wait()
		if e, ok := next(t, cw, "end"); ok {
			t.Fatalf("aborted early: %+v", e)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		e, ok := next(t, cw, "end")
		if !ok || e.Result != "*" {
			t.Fatalf("not aborted: %+v", e)
		}
		st, _ := h.State(context.Background(), id)
		if st.Status != "aborted" {
			t.Fatalf("status %q", st.Status)
		}
		cw.Leave()
	})
}

// storeUnendedGame stores game id as a hub would have up to a crash after
// its last move and before its ending: docs/rules.md §5 example 3, White to
// move; 9, 1, 9, 1 leave White without a move (atsyrau) and Black collects
// his 8 stones: 76–86.
func storeUnendedGame(t *testing.T, gs store.LiveStore, id string) game.Spec {
	t.Helper()
	ctx := context.Background()
	p, err := toguz.Setup{Rules: toguz.Standard(), Board: [2][]int{{0, 0, 0, 0, 0, 0, 0, 0, 4}, {0, 0, 0, 0, 1, 0, 1, 1, 1}},
		Kazan: [2]int{76, 78}, Tuzdik: [2]int{6, 7}}.Position()
	if err != nil {
		t.Fatal(err)
	}
	w, b := seats()
	spec := game.Spec{ID: id, Rules: toguz.Standard(), From: game.Start{Position: p, Move: 1}, White: w, Black: b, Created: time.Now()}
	if err := gs.CreateGame(ctx, spec); err != nil {
		t.Fatal(err)
	}
	for i, hole := range []toguz.Move{9, 1, 9, 1} {
		if err := gs.AddMove(ctx, spec.ID, i+1, game.PlayedMove{By: toguz.Player(i % 2), Hole: hole, At: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	return spec
}

// TestResumeEndsFinishedGame: a game whose last stored move ended it by the
// rules, but whose ending was not stored (the server died in between), is
// ended as the rules say when a hub resumes it.
func TestResumeEndsFinishedGame(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, filepath.Join(t.TempDir(), "t.db"))
	defer st.Close()
	gs := store.LiveStore{S: st}
	spec := storeUnendedGame(t, gs, "resumeend1")
	hubCtx, cancel := context.WithCancel(ctx)
	h := live.NewHub(hubCtx, live.Config{Store: gs})
	if n, err := h.Resume(ctx); err != nil || n != 1 {
		t.Fatalf("resume: %d %v", n, err)
	}
	s, err := h.State(ctx, spec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s.Status != "ended" || s.Termination != "atsyrau" || s.Result != "0-1" || s.Score != [2]int{76, 86} {
		t.Fatalf("resumed game: %s %s %s %v", s.Status, s.Termination, s.Result, s.Score)
	}
	cancel()
	h.Wait()
	saved, err := gs.Game(ctx, spec.ID)
	if err != nil || saved.End == nil || saved.End.Termination != toguz.ByAtsyrau {
		t.Fatalf("stored: %+v %v", saved.End, err)
	}
}

// TestStateMoveNumber: the position strings of a game carry its full-move
// number (docs/rules.md §6: one more after each of Black's plies), from the
// rules' start and from a start position with its own number.
func TestStateMoveNumber(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, filepath.Join(t.TempDir(), "t.db"))
	defer st.Close()
	gs := store.LiveStore{S: st}
	w, b := seats()
	tests := []struct {
		id, startFEN string
		plies        int
		wantStart    string // suffix of StartFEN
		want         string // suffix of FEN
	}{
		{"movenumber1", "", 44, " S 1", " S 23"},
		{"movenumber2", "9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 N 30", 3, " N 30", " S 32"},
	}
	replayed := map[string][]toguz.Position{} // every game's positions, the start first
	for _, tc := range tests {
		spec := game.Spec{ID: tc.id, Rules: toguz.Standard(), From: startOf(t, tc.startFEN), White: w, Black: b, Created: time.Now()}
		if err := gs.CreateGame(ctx, spec); err != nil {
			t.Fatal(err)
		}
		p, _, err := spec.Start()
		if err != nil {
			t.Fatal(err)
		}
		replayed[tc.id] = append(replayed[tc.id], p)
		for i := range tc.plies {
			m := p.LegalMoves().Slice()[0]
			if err := gs.AddMove(ctx, spec.ID, i+1, game.PlayedMove{By: p.Turn(), Hole: m, At: time.Now()}); err != nil {
				t.Fatal(err)
			}
			p = p.After(m)
			replayed[tc.id] = append(replayed[tc.id], p)
		}
	}
	hubCtx, cancel := context.WithCancel(ctx)
	h := live.NewHub(hubCtx, live.Config{Store: gs, FirstMoveTimeout: -1})
	if n, err := h.Resume(ctx); err != nil || n != len(tests) {
		t.Fatalf("resume: %d %v", n, err)
	}
	for _, tc := range tests {
		s, err := h.State(ctx, tc.id)
		if err != nil {
			t.Fatal(err)
		}
		last := s.Positions[len(s.Positions)-1]
		if !strings.HasSuffix(s.StartFEN, tc.wantStart) || !strings.HasSuffix(s.FEN, tc.want) ||
			s.Positions[0] != s.StartFEN || last != s.FEN {
			t.Errorf("%s: start %q, position %q (positions %q … %q), want … %q and … %q",
				tc.id, s.StartFEN, s.FEN, s.Positions[0], last, tc.wantStart, tc.want)
		}
		// Every ply's position and board, made when the state is asked for.
		if len(s.Positions) != tc.plies+1 || len(s.Boards) != tc.plies+1 {
			t.Fatalf("%s: %d positions and %d boards, want %d", tc.id, len(s.Positions), len(s.Boards), tc.plies+1)
		}
		for i, want := range replayed[tc.id][:tc.plies+1] {
			got, full, err := toguz.ParseFEN(s.Positions[i], toguz.Standard())
			if err != nil || got != want {
				t.Errorf("%s: position %d %q (%v), want %q", tc.id, i, s.Positions[i], err, toguz.FormatFEN(want, full))
			}
			if b := posjson.Of(want, full); !reflect.DeepEqual(s.Boards[i], b) {
				t.Errorf("%s: board %d %+v, want %+v", tc.id, i, s.Boards[i], b)
			}
		}
	}
	cancel()
	h.Wait()
}

// TestStateOfFinishedGame: a finished game nobody watches gets an actor for
// its questions and exits once it has answered them; every answer reaches
// its caller. (The exit once won races with an answer already sent, and an
// actor exited with others' questions still queued; three such rounds in a
// row made a game page fail with "game keeps stopping" under CI's load.)
func TestStateOfFinishedGame(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, filepath.Join(t.TempDir(), "t.db"))
	defer st.Close()
	gs := store.LiveStore{S: st}
	// Resume ends it and stores the ending; then it is only watched.
	spec := storeUnendedGame(t, gs, "finishedstate1")
	hubCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	h := live.NewHub(hubCtx, live.Config{Store: gs})
	if _, err := h.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	const workers, calls = 8, 300
	errs := make(chan error, workers*calls)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range calls {
				s, err := h.State(ctx, spec.ID)
				if err == nil && s.Status != "ended" {
					err = fmt.Errorf("status %q", s.Status)
				}
				if err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	n := 0
	for err := range errs {
		if n == 0 {
			t.Error(err)
		}
		n++
	}
	if n > 0 {
		t.Errorf("%d of %d questions failed", n, workers*calls)
	}
	cancel()
	h.Wait()
}

// startOf returns the start of a position string ("": the rules' start).
func startOf(t *testing.T, fen string) game.Start {
	t.Helper()
	if fen == "" {
		return game.Start{}
	}
	p, move, err := toguz.ParseFEN(fen, toguz.Standard())
	if err != nil {
		t.Fatal(err)
	}
	return game.Start{Position: p, Move: move}
}
