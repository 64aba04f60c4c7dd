package live_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/live"
)

// TestAct: the API's actions reach the game as the player's socket would
// send them, without a connection: a move without a ply is played at the
// game's ply, a stranger is refused with not_a_player, the other side's
// move with not_your_turn; the players' sockets see the move; GamesOf
// lists the game until it is over.
func TestAct(t *testing.T) {
	withHub(t, func(h *live.Hub) {
		id, cw, _ := newGame(t, h, "5+3", true)
		w, b := seats()
		ctx := context.Background()
		if gs := h.GamesOf(w.ID); len(gs) != 1 || gs[0].ID != id {
			t.Fatalf("GamesOf(white) = %+v", gs)
		}
		if gs := h.GamesOf("u:99"); len(gs) != 0 {
			t.Fatalf("GamesOf(stranger) = %+v", gs)
		}
		code := func(err error) apierr.Code {
			var le *live.Error
			if errors.As(err, &le) {
				return le.Code
			}
			if err != nil {
				t.Fatalf("not a live error: %v", err)
			}
			return ""
		}
		for _, tc := range []struct {
			who  string
			m    live.ClientMsg
			want apierr.Code
		}{
			{"u:99", live.ClientMsg{Type: "move", Hole: 1}, apierr.CodeNotAPlayer},
			{b.ID, live.ClientMsg{Type: "move", Hole: 1}, apierr.CodeNotYourTurn},
			{w.ID, live.ClientMsg{Type: "move", Hole: 12}, apierr.CodeIllegalMove},
			{w.ID, live.ClientMsg{Type: "move", Hole: 7}, ""},
			{b.ID, live.ClientMsg{Type: "move", Hole: 3}, ""},
			{w.ID, live.ClientMsg{Type: "draw_accept"}, apierr.CodeNoDrawOffer},
			{b.ID, live.ClientMsg{Type: "resign"}, ""},
			{w.ID, live.ClientMsg{Type: "move", Hole: 1}, apierr.CodeGameOver},
		} {
			if got := code(h.Act(ctx, id, live.Chatter{ID: tc.who}, tc.m)); got != tc.want {
				t.Errorf("Act(%s, %+v) = %q, want %q", tc.who, tc.m, got, tc.want)
			}
		}
		synctest.Wait()
		ms := drain(t, cw)
		moves := 0
		for _, m := range ms {
			if m.Type == "move" {
				moves++
			}
		}
		if _, ended := find(ms, "end"); moves != 2 || !ended {
			t.Errorf("white's socket saw %d moves, ended %v: %+v", moves, ended, ms)
		}
		if gs := h.GamesOf(w.ID); len(gs) != 0 {
			t.Errorf("GamesOf after the end = %+v", gs)
		}
	})
}
