package live_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
)

// raw returns the next message of c of type ty, decoded into v, skipping
// others; false when none is queued.
func raw(t *testing.T, c *live.Conn, ty string, v any) bool {
	t.Helper()
	for {
		select {
		case b, open := <-c.Out():
			if !open {
				return false
			}
			var m struct{ Type string }
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			if m.Type == "error" && ty != "error" {
				t.Logf("skipping %s", b)
			}
			if m.Type == ty {
				if err := json.Unmarshal(b, v); err != nil {
					t.Fatal(err)
				}
				return true
			}
		default:
			return false
		}
	}
}

func newTimedGame(t *testing.T, h *live.Hub, tc string, start string) (*live.Conn, *live.Conn) {
	t.Helper()
	tcv, err := clock.ParseTimeControl(tc)
	if err != nil {
		t.Fatal(err)
	}
	w, b := seats()
	id, err := h.Create(context.Background(), game.Spec{Rules: toguz.Standard(), TC: tcv, White: w, Black: b, From: startOf(t, start)})
	if err != nil {
		t.Fatal(err)
	}
	cw, err := h.Join(context.Background(), id, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := h.Join(context.Background(), id, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	return cw, cb
}

// TestEndCarriesFinalClocks: the end message carries the clocks as they
// stopped, not the last move's, so that the board freezes them at the
// server's values (a loss on time shows 0:00, a resignation the time used
// up to it).
func TestEndCarriesFinalClocks(t *testing.T) {
	for _, tc := range []struct {
		name        string
		think       time.Duration // White's thinking at ply 3, before the ending
		resign      bool
		termination string
		white       int64
	}{
		{"time", 2 * time.Minute, false, "time", 0},
		{"resignation", 10 * time.Second, true, "resignation", 50_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			withHub(t, func(h *live.Hub) {
				cw, cb := newTimedGame(t, h, "1+0", "")
				move(cw, 0, 1)
				move(cb, 1, 1)
				synctest.Wait()
				time.Sleep(tc.think)
				if tc.resign {
					cw.Send(live.ClientMsg{Type: "resign"})
				}
				synctest.Wait()
				for _, c := range []*live.Conn{cw, cb} {
					var e struct {
						Termination string
						Clock       live.ClockJSON
					}
					if !raw(t, c, "end", &e) {
						t.Fatal("no end message")
					}
					if e.Termination != tc.termination || e.Clock.WhiteMS != tc.white || e.Clock.BlackMS != 60_000 || e.Clock.Running != "" {
						t.Errorf("end: %s, clocks %+v; want %s, white %d ms, black 60000 ms, none running", e.Termination, e.Clock, tc.termination, tc.white)
					}
				}
				cw.Leave()
				cb.Leave()
			})
		})
	}
}

// TestAbortCountdown: a real-time game between people says how long the
// side to move has before the first-move timeout aborts it, in the state
// and in the first move's message, and no more once both have moved.
func TestAbortCountdown(t *testing.T) {
	withHubConfig(t, live.Config{FirstMoveTimeout: 30 * time.Second}, func(h *live.Hub) {
		cw, cb := newTimedGame(t, h, "5+0", "")
		synctest.Wait()
		var st live.State
		if !raw(t, cw, "state", &st) || st.AbortInMS != 30_000 {
			t.Fatalf("the state at the start: abort_in_ms %d, want 30000", st.AbortInMS)
		}
		time.Sleep(10 * time.Second)
		cw.Send(live.ClientMsg{Type: "sync"})
		synctest.Wait()
		if !raw(t, cw, "state", &st) || st.AbortInMS != 20_000 {
			t.Fatalf("10 s later: abort_in_ms %d, want 20000", st.AbortInMS)
		}
		type moveMsg struct {
			Ply       int
			AbortInMS int64 `json:"abort_in_ms"`
		}
		move(cw, 0, 1)
		synctest.Wait()
		var m moveMsg
		if !raw(t, cb, "move", &m) || m.AbortInMS != 30_000 {
			t.Fatalf("after White's first move: %+v, want Black's 30000 ms", m)
		}
		move(cb, 1, 1)
		synctest.Wait()
		var m1, m2 moveMsg
		if !raw(t, cw, "move", &m1) || !raw(t, cw, "move", &m2) || m2.Ply != 2 || m2.AbortInMS != 0 {
			t.Fatalf("after both first moves: %+v, want no countdown", m2)
		}
		cw.Leave()
		cb.Leave()
	})
}

// TestMoveTrail: each move message carries the holes its stones fell in,
// one by one, as the rules library gives them (the board animates the
// sowing along it), under the federation rules and pre1949 alike.
func TestMoveTrail(t *testing.T) {
	for _, r := range []toguz.Rules{toguz.Standard(), toguz.Pre1949()} {
		t.Run(r.String(), func(t *testing.T) {
			withHub(t, func(h *live.Hub) {
				w, b := seats()
				id, err := h.Create(context.Background(), game.Spec{Rules: r, White: w, Black: b})
				if err != nil {
					t.Fatal(err)
				}
				cw, _ := h.Join(context.Background(), id, w.ID)
				cb, _ := h.Join(context.Background(), id, b.ID)
				p, _ := toguz.NewPosition(r)
				conns := [2]*live.Conn{cw, cb}
				for ply := range 6 {
					hole := p.LegalMoves().First()
					for m := range p.LegalMoves().All() {
						if p.Stones(p.Turn(), int(m)) > p.Stones(p.Turn(), int(hole)) {
							hole = m
						}
					}
					move(conns[p.Turn()], ply, int(hole))
					synctest.Wait()
					var m struct{ Trail []int }
					if !raw(t, cb, "move", &m) {
						var e live.ErrorMsg
						raw(t, conns[p.Turn()], "error", &e)
						t.Fatalf("ply %d: no move message (%+v)", ply+1, e)
					}
					var want []int
					for side, h := range p.Trail(hole) {
						if side == toguz.Black {
							h = -h
						}
						want = append(want, h)
					}
					if fmt.Sprint(m.Trail) != fmt.Sprint(want) || len(want) == 0 {
						t.Errorf("ply %d (hole %d): trail %v, the library's %v", ply+1, hole, m.Trail, want)
					}
					p = p.After(hole)
				}
				cw.Leave()
				cb.Leave()
			})
		})
	}
}

// TestDrawOfferEvents: both players hear who offers a draw and who
// declines it (the board says it in a sentence on both sides).
func TestDrawOfferEvents(t *testing.T) {
	withHub(t, func(h *live.Hub) {
		cw, cb := newTimedGame(t, h, "5+0", "")
		cw.Send(live.ClientMsg{Type: "draw_offer"})
		synctest.Wait()
		for _, c := range []*live.Conn{cw, cb} {
			var m struct{ By string }
			if !raw(t, c, "draw_offer", &m) || m.By != "white" {
				t.Fatalf("draw offer: %+v", m)
			}
		}
		cb.Send(live.ClientMsg{Type: "sync"})
		synctest.Wait()
		var st live.State
		if !raw(t, cb, "state", &st) || st.DrawOffer != "white" {
			t.Fatalf("the state after the offer: draw_offer %q", st.DrawOffer)
		}
		cb.Send(live.ClientMsg{Type: "draw_decline"})
		synctest.Wait()
		for _, c := range []*live.Conn{cw, cb} {
			var m struct{ By string }
			if !raw(t, c, "draw_declined", &m) || m.By != "black" {
				t.Fatalf("draw declined: %+v", m)
			}
		}
		cw.Leave()
		cb.Leave()
	})
}

// TestAtsyrauCollected: a game over by atsyrau says what the player not to
// move collects, and gives the board with the stones in his kazan, so that
// board and score agree (docs/rules.md §5 example 3: 76–86).
func TestAtsyrauCollected(t *testing.T) {
	p, err := toguz.Setup{Rules: toguz.Standard(), Board: [2][]int{{0, 0, 0, 0, 0, 0, 0, 0, 4}, {0, 0, 0, 0, 1, 0, 1, 1, 1}},
		Kazan: [2]int{76, 78}, Tuzdik: [2]int{6, 7}}.Position()
	if err != nil {
		t.Fatal(err)
	}
	withHub(t, func(h *live.Hub) {
		cw, cb := newTimedGame(t, h, "5+0", p.FEN())
		conns := [2]*live.Conn{cw, cb}
		for ply, hole := range []int{9, 1, 9, 1} {
			move(conns[ply%2], ply, hole)
			synctest.Wait()
		}
		var e struct {
			Termination string
			Score       [2]int
			Collected   *live.CollectedJSON
			FinalFEN    string `json:"final_fen"`
		}
		if !raw(t, cw, "end", &e) || e.Termination != "atsyrau" || e.Score != [2]int{76, 86} {
			t.Fatalf("end: %+v", e)
		}
		if e.Collected == nil || *e.Collected != (live.CollectedJSON{Side: "black", Stones: 8}) {
			t.Errorf("collected: %+v, want black's 8 stones", e.Collected)
		}
		q, _, err := toguz.ParseFEN(e.FinalFEN, toguz.Standard())
		if err != nil {
			t.Fatalf("final FEN %q: %v", e.FinalFEN, err)
		}
		if q.Kazan(toguz.White) != 76 || q.Kazan(toguz.Black) != 86 || q.OnBoard(toguz.Black) != 0 {
			t.Errorf("final board %s: kazans %d–%d, %d stones on Black's side", e.FinalFEN, q.Kazan(toguz.White), q.Kazan(toguz.Black), q.OnBoard(toguz.Black))
		}
		cw.Send(live.ClientMsg{Type: "sync"})
		synctest.Wait()
		var st live.State
		if !raw(t, cw, "state", &st) || st.FinalFEN != e.FinalFEN || st.Collected == nil {
			t.Errorf("the state after the end: final_fen %q, collected %+v", st.FinalFEN, st.Collected)
		}
		cw.Leave()
		cb.Leave()
	})
}
