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

// lastOf returns the last queued message of type ty on c, draining c.
func lastOf(t *testing.T, c *live.Conn, ty string) (msg, bool) {
	t.Helper()
	var last msg
	found := false
	for range len(c.Out()) {
		var m msg
		if err := json.Unmarshal(<-c.Out(), &m); err != nil {
			t.Fatal(err)
		}
		if m.Type == ty {
			last, found = m, true
		}
	}
	return last, found
}

// TestSpectatorClocks: whoever joins or syncs, first or late, on a game
// others watch already, gets the clocks as they are when the state is
// sent, not as they were at the last move; and the move message of Black's
// first move says that White's clock runs, to players and spectators.
func TestSpectatorClocks(t *testing.T) {
	withHub(t, func(h *live.Hub) {
		ctx := context.Background()
		tc, _ := clock.ParseTimeControl("1+0")
		w, b := seats()
		id, err := h.Create(ctx, game.Spec{Rules: toguz.Standard(), TC: tc, White: w, Black: b})
		if err != nil {
			t.Fatal(err)
		}
		white, _ := h.Join(ctx, id, w.ID)
		black, _ := h.Join(ctx, id, b.ID)
		first, err := h.Join(ctx, id, "")
		if err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		move(white, 0, 1)
		synctest.Wait()
		time.Sleep(2 * time.Second)
		move(black, 1, 1)
		synctest.Wait()
		time.Sleep(time.Second) // past the fan-out's round
		synctest.Wait()
		for name, c := range map[string]*live.Conn{"white": white, "black": black, "spectator": first} {
			m, ok := lastOf(t, c, "move")
			if !ok || m.Clock.Running != "white" || m.Clock.WhiteMS != 60_000 || m.Clock.BlackMS != 60_000 {
				t.Errorf("%s: Black's first move says the clock is %+v (%v), want White's running at 60 s", name, m.Clock, ok)
			}
		}

		// 11 s after the move a second spectator joins: the state is the
		// one the fan-out keeps from the move, and must say 11 s less.
		time.Sleep(10 * time.Second)
		late, err := h.Join(ctx, id, "")
		if err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		time.Sleep(time.Second)
		synctest.Wait()
		if s, ok := lastOf(t, late, "state"); !ok || s.Clock.WhiteMS != 60_000-11_000 || s.Clock.Running != "white" || s.Clock.BlackMS != 60_000 {
			t.Errorf("a late spectator's state: %+v (%v), want White at 49 s, running", s.Clock, ok)
		}
		// The first spectator's sync, 9 s later, likewise.
		time.Sleep(8 * time.Second)
		first.Send(live.ClientMsg{Type: "sync"})
		synctest.Wait()
		time.Sleep(time.Second)
		synctest.Wait()
		if s, ok := lastOf(t, first, "state"); !ok || s.Clock.WhiteMS != 60_000-20_000 || s.Clock.Running != "white" {
			t.Errorf("a spectator's sync: %+v (%v), want White at 40 s, running", s.Clock, ok)
		}
		// The players' own state agrees.
		st, err := h.State(ctx, id)
		if err != nil || st.Clock.WhiteMS != 60_000-21_000 {
			t.Errorf("the game's state: %+v, %v", st.Clock, err)
		}
		for _, c := range []*live.Conn{white, black, first, late} {
			c.Leave()
		}
	})
}

// TestSpectatorCountdown: the first-move countdown a late spectator is
// sent counts from the sending too.
func TestSpectatorCountdown(t *testing.T) {
	withHubConfig(t, live.Config{FirstMoveTimeout: 30 * time.Second}, func(h *live.Hub) {
		ctx := context.Background()
		tc, _ := clock.ParseTimeControl("1+0")
		w, b := seats()
		id, _ := h.Create(ctx, game.Spec{Rules: toguz.Standard(), TC: tc, White: w, Black: b})
		white, _ := h.Join(ctx, id, w.ID)
		black, _ := h.Join(ctx, id, b.ID)
		first, _ := h.Join(ctx, id, "")
		synctest.Wait()
		var ref struct {
			AbortInMS int64 `json:"abort_in_ms"`
		}
		st, _ := h.State(ctx, id)
		ref.AbortInMS = st.AbortInMS
		time.Sleep(5 * time.Second)
		late, _ := h.Join(ctx, id, "")
		synctest.Wait()
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		var got struct {
			Type      string `json:"type"`
			AbortInMS int64  `json:"abort_in_ms"`
		}
		for range len(late.Out()) {
			json.Unmarshal(<-late.Out(), &got)
			if got.Type == "state" {
				break
			}
		}
		if got.Type != "state" || ref.AbortInMS == 0 || got.AbortInMS != ref.AbortInMS-5_000 {
			t.Errorf("a late spectator's countdown: %d ms (%s), want %d", got.AbortInMS, got.Type, ref.AbortInMS-5_000)
		}
		for _, c := range []*live.Conn{white, black, first, late} {
			c.Leave()
		}
	})
}
