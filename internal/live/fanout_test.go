package live_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
)

// play makes the players of a fresh game play n plies (the first legal
// hole each time), pause apart, and returns the plies played.
func play(t *testing.T, players [2]*live.Conn, n int, pause time.Duration) int {
	t.Helper()
	legal := []int{1}
	for ply := range n {
		move(players[ply%2], ply, legal[0])
		time.Sleep(pause)
		synctest.Wait()
		var m struct {
			Type  string `json:"type"`
			Legal []int  `json:"legal"`
		}
		for range len(players[ply%2].Out()) {
			json.Unmarshal(<-players[ply%2].Out(), &m)
		}
		for range len(players[1-ply%2].Out()) {
			<-players[1-ply%2].Out()
		}
		if m.Type != "move" || len(m.Legal) == 0 {
			return ply + 1
		}
		legal = m.Legal
	}
	return n
}

// TestSlowSpectator: a spectator who reads nothing never holds the game up;
// his backlog is replaced by the latest state, and when he keeps falling
// behind he is dropped with a reason, while a spectator who reads gets
// every move.
func TestSlowSpectator(t *testing.T) {
	withHubConfig(t, live.Config{FirstMoveTimeout: -1, OutBuffer: 8}, func(h *live.Hub) {
		ctx := context.Background()
		w, b := seats()
		id, err := h.Create(ctx, game.Spec{Rules: toguz.Standard(), White: w, Black: b})
		if err != nil {
			t.Fatal(err)
		}
		white, _ := h.Join(ctx, id, w.ID)
		black, _ := h.Join(ctx, id, b.ID)
		slow, err := h.Join(ctx, id, "")
		if err != nil {
			t.Fatal(err)
		}
		reader, _ := h.JoinFrom(ctx, id, "g:Guest-c", "192.0.2.1")
		moves := 0
		done := make(chan struct{})
		go func() {
			defer close(done)
			for b := range reader.Out() {
				var m msg
				json.Unmarshal(b, &m)
				if m.Type == "move" {
					moves++
				}
			}
		}()
		synctest.Wait()
		plies := play(t, [2]*live.Conn{white, black}, 60, 100*time.Millisecond) // a round of the fan-out each
		if plies < 40 {
			t.Fatalf("the game ended after %d plies; the test wants 40", plies)
		}
		var kinds []string
		for b := range slow.Out() {
			var m msg
			json.Unmarshal(b, &m)
			kinds = append(kinds, m.Type)
		}
		if slow.Reason() != "too slow: reconnect and sync" {
			t.Errorf("the slow spectator was closed with %q", slow.Reason())
		}
		if len(kinds) == 0 || kinds[0] != "state" {
			t.Errorf("the slow spectator's last backlog was %q, want the state first", kinds)
		}
		reader.Leave()
		<-done
		if moves != plies {
			t.Errorf("the reading spectator saw %d moves of %d", moves, plies)
		}
	})
}

// TestSpectatorBounds: the spectators of one game and those from one
// address are bounded; a spectator's messages are answered without the
// game.
func TestSpectatorBounds(t *testing.T) {
	withHubConfig(t, live.Config{FirstMoveTimeout: -1, SpectatorsPerGame: 3, SpectatorsPerAddress: 2}, func(h *live.Hub) {
		ctx := context.Background()
		w, b := seats()
		id, _ := h.Create(ctx, game.Spec{Rules: toguz.Standard(), White: w, Black: b})
		var le *live.Error
		c1, err1 := h.JoinFrom(ctx, id, "", "192.0.2.1")
		_, err2 := h.JoinFrom(ctx, id, "", "192.0.2.1")
		_, err3 := h.JoinFrom(ctx, id, "", "192.0.2.1")
		if err1 != nil || err2 != nil || !errors.As(err3, &le) || le.Code != apierr.CodeTooManySpectators {
			t.Fatalf("three spectators from one address: %v, %v, %v", err1, err2, err3)
		}
		if _, err := h.JoinFrom(ctx, id, "", "192.0.2.2"); err != nil {
			t.Fatal(err)
		}
		if _, err := h.JoinFrom(ctx, id, "", "192.0.2.3"); !errors.As(err, &le) || le.Code != apierr.CodeTooManySpectators {
			t.Fatalf("a fourth spectator of the game: %v", err)
		}
		// A player is no spectator: the bounds do not keep him out.
		if _, err := h.JoinFrom(ctx, id, w.ID, "192.0.2.1"); err != nil {
			t.Fatalf("the player: %v", err)
		}
		c1.Leave()
		synctest.Wait()
		if _, err := h.JoinFrom(ctx, id, "", "192.0.2.1"); err != nil {
			t.Fatalf("after one left: %v", err)
		}
	})
	withHub(t, func(h *live.Hub) {
		ctx := context.Background()
		w, b := seats()
		id, _ := h.Create(ctx, game.Spec{Rules: toguz.Standard(), White: w, Black: b})
		c, _ := h.Join(ctx, id, "")
		synctest.Wait()
		if m, _ := next(t, c, "state"); m.Type != "state" {
			t.Fatal("no state for the spectator")
		}
		for _, tc := range []struct{ typ, code string }{{"move", "not_a_player"}, {"resign", "not_a_player"},
			{"take_control", "not_a_player"}, {"bogus", "bad_message"}, {"sync", ""}} {
			c.Send(live.ClientMsg{Type: tc.typ})
			time.Sleep(6 * time.Second) // a sync is answered within 5 s
			synctest.Wait()
			m, _ := next(t, c, "error", "state")
			if tc.code == "" && m.Type != "state" || tc.code != "" && m.Code != tc.code {
				t.Errorf("spectator sends %s: %+v", tc.typ, m)
			}
		}
	})
}

// TestSpectatorCoalescing: moves made in a row within one round of the
// fan-out reach a spectator as the one state after them; the end of the
// game is not coalesced away.
func TestSpectatorCoalescing(t *testing.T) {
	withHub(t, func(h *live.Hub) {
		ctx := context.Background()
		w, b := seats()
		id, _ := h.Create(ctx, game.Spec{Rules: toguz.Standard(), White: w, Black: b})
		white, _ := h.Join(ctx, id, w.ID)
		black, _ := h.Join(ctx, id, b.ID)
		c, _ := h.Join(ctx, id, "")
		synctest.Wait()
		play(t, [2]*live.Conn{white, black}, 10, 0)
		white.Send(live.ClientMsg{Type: "resign"})
		time.Sleep(time.Second)
		synctest.Wait()
		var got []string
		for range len(c.Out()) {
			var m struct {
				Type string `json:"type"`
				Ply  int    `json:"ply"`
			}
			json.Unmarshal(<-c.Out(), &m)
			got = append(got, fmt.Sprintf("%s %d", m.Type, m.Ply))
		}
		if want := []string{"state 0", "state 10", "end 0"}; !slices.Equal(got, want) {
			t.Errorf("the spectator got %q, want %q", got, want)
		}
	})
}
