package live_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
)

// TestOnYourMove: after each move of a correspondence game the hook hears
// who is to move and who moved, unless the player to move has the game
// open; a timed game never calls it.
func TestOnYourMove(t *testing.T) {
	type call struct{ id, toMove, mover string }
	var calls []call
	cfg := live.Config{FirstMoveTimeout: -1, OnYourMove: func(id string, toMove, mover game.Seat) {
		calls = append(calls, call{id, toMove.ID, mover.ID})
	}}
	withHubConfig(t, cfg, func(h *live.Hub) {
		w, b := seats()
		ctx := context.Background()
		timed, _, _ := newGame(t, h, "5+3", false)
		if err := h.Act(ctx, timed, live.Chatter{ID: w.ID}, live.ClientMsg{Type: "move", Hole: 7}); err != nil {
			t.Fatal(err)
		}
		corr, cw, cb := newGame(t, h, "1d", false)
		for _, m := range []struct {
			who   string
			hole  int
			leave *live.Conn // before the move
		}{{w.ID, 7, nil}, {b.ID, 3, cb}, {w.ID, 1, cw}, {b.ID, 2, nil}} {
			if m.leave != nil {
				m.leave.Leave()
				synctest.Wait()
			}
			if err := h.Act(ctx, corr, live.Chatter{ID: m.who}, live.ClientMsg{Type: "move", Hole: m.hole}); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait()
		want := []call{{corr, b.ID, w.ID}, {corr, w.ID, b.ID}}
		if len(calls) != len(want) || calls[0] != want[0] || calls[1] != want[1] {
			t.Errorf("calls %+v, want %+v", calls, want)
		}
	})
}
