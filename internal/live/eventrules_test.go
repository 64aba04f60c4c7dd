package live_test

import (
	"context"
	"encoding/json"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
)

// cycleStart and cycleMoves are endgame E2 of docs/rules.md §7 played into a
// cycle of 18 plies: the position after ply 7 recurs after plies 25 and 43
// (the rules library's TestRepetition).
const cycleStart = "1S,3S,6,1S/8,2S 78 77 S 1"

var cycleMoves = func() []int {
	m := []int{9, 9, 1, 8, 2, 9, 9, 8, 3, 1, 4, 9, 5, 2, 6, 3, 7, 4, 1, 5, 8, 6, 9, 7, 2}
	return append(m, m[7:]...)
}()

type endMsg struct {
	Type        string `json:"type"`
	Result      string `json:"result"`
	Termination string `json:"termination"`
	Reason      string `json:"reason"`
}

// lastEnd returns the end message queued on c, if any.
func lastEnd(t *testing.T, c *live.Conn) (endMsg, bool) {
	t.Helper()
	for {
		select {
		case b, open := <-c.Out():
			if !open {
				return endMsg{}, false
			}
			var m endMsg
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			if m.Type == "end" {
				return m, true
			}
		default:
			return endMsg{}, false
		}
	}
}

// TestRepetitionRule: a game of an event with the repetition rule N ends
// as a draw by adjudication, reason "repetition", at the ply where its
// position occurs for the Nth time; without the rule it goes on, and the
// hub's OnEnd hears the ending.
func TestRepetitionRule(t *testing.T) {
	for _, tc := range []struct {
		n, endPly int // 0: no end within the cycle
	}{{0, 0}, {2, 25}, {3, 43}} {
		var ended []game.Saved
		withHubConfig(t, live.Config{FirstMoveTimeout: -1, OnEnd: func(s game.Saved) { ended = append(ended, s) }}, func(h *live.Hub) {
			w, b := seats()
			ctx := context.Background()
			id, err := h.Create(ctx, game.Spec{Rules: toguz.Standard(), From: startOf(t, cycleStart), White: w, Black: b, Repetition: tc.n})
			if err != nil {
				t.Fatal(err)
			}
			cw, _ := h.Join(ctx, id, w.ID)
			cb, _ := h.Join(ctx, id, b.ID)
			start, _, _ := toguz.ParseFEN(cycleStart, toguz.Standard())
			turn := start.Turn()
			for ply, hole := range cycleMoves {
				c := cw
				if turn == toguz.Black {
					c = cb
				}
				move(c, ply, hole)
				synctest.Wait()
				turn = turn.Other()
				m, over := lastEnd(t, cw)
				switch {
				case over && ply+1 != tc.endPly:
					t.Fatalf("N=%d: the game ended after ply %d (%+v), want %d", tc.n, ply+1, m, tc.endPly)
				case over:
					if m.Result != "1/2-1/2" || m.Termination != "adjudication" || m.Reason != game.ReasonRepetition {
						t.Errorf("N=%d: end %+v", tc.n, m)
					}
				case ply+1 == tc.endPly:
					t.Fatalf("N=%d: no end after ply %d", tc.n, tc.endPly)
				}
				if over {
					break
				}
			}
			st, _ := h.State(ctx, id)
			if (tc.endPly == 0) != (st.Status == "playing") {
				t.Errorf("N=%d: status %q", tc.n, st.Status)
			}
			if want := map[bool]string{true: game.ReasonRepetition}[tc.endPly > 0]; st.Reason != want {
				t.Errorf("N=%d: the state's reason is %q, want %q", tc.n, st.Reason, want)
			}
		})
		if tc.endPly > 0 && (len(ended) != 1 || ended[0].End.Termination != toguz.ByAdjudication) {
			t.Errorf("N=%d: OnEnd heard %d endings", tc.n, len(ended))
		}
	}
}

// TestArbiterActions: the arbiter's clock adjustment reaches the players'
// boards through the game's goroutine, and his result ends the game as an
// adjudication with reason "arbiter".
func TestArbiterActions(t *testing.T) {
	withHub(t, func(h *live.Hub) {
		ctx := context.Background()
		tcv, _ := clock.ParseTimeControl("1+0")
		w, b := seats()
		id, err := h.Create(ctx, game.Spec{Rules: toguz.Standard(), TC: tcv, White: w, Black: b})
		if err != nil {
			t.Fatal(err)
		}
		cw, _ := h.Join(ctx, id, w.ID)
		if err := h.AdjustClock(ctx, id, toguz.Black, 30*time.Second); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		st, _ := h.State(ctx, id)
		if st.Clock.BlackMS != 90_000 || st.Clock.WhiteMS != 60_000 {
			t.Errorf("clocks after +30 s for Black: %+v", st.Clock)
		}
		if err := h.AdjustClock(ctx, id, toguz.White, -2*time.Minute); err != nil {
			t.Fatal(err)
		}
		if st, _ := h.State(ctx, id); st.Clock.WhiteMS != 0 {
			t.Errorf("a clock adjusted under zero: %+v", st.Clock)
		}
		if err := h.Adjudicate(ctx, id, toguz.WinFor(toguz.Black)); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		m, over := lastEnd(t, cw)
		if !over || m.Result != "0-1" || m.Termination != "adjudication" || m.Reason != game.ReasonArbiter {
			t.Errorf("end %+v %v", m, over)
		}
		if err := h.AdjustClock(ctx, id, toguz.White, time.Second); err == nil {
			t.Error("a clock adjusted after the end")
		}
	})
}
