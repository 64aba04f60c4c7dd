package live_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/bus"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/store"
)

// TestTwoNodesAPI: the bot and board API's moves, draws, chat and
// resignations, and an arbiter's clock adjustment and adjudication, sent
// to a node that does not own the game, are run by the owner (and refused
// as the owner refuses them); while the owner is gone and its lease has
// not run out they are refused as game_moving, which a retry cures once
// the other node has taken the game over.
func TestTwoNodesAPI(t *testing.T) {
	busURL := startBus(t)
	path := filepath.Join(t.TempDir(), "t.db")
	a := startNode(t, path, busURL, "A")
	b := startNode(t, path, busURL, "B")
	ctx := context.Background()
	w, bl := seats()
	white, black := live.Chatter{ID: w.ID, Name: w.Name}, live.Chatter{ID: bl.ID, Name: bl.Name}
	tc, _ := clock.ParseTimeControl("5+0")
	id, err := a.h.Create(ctx, game.Spec{Rules: toguz.Standard(), White: w, Black: bl, TC: tc})
	if err != nil {
		t.Fatal(err)
	}
	watch, err := a.h.Join(ctx, id, "someone")
	if err != nil {
		t.Fatal(err)
	}
	await(t, watch, "state")
	// Sockets relayed from B count as what they are on A (the metrics'
	// kind of socket).
	relayedWatch, err := b.h.Join(ctx, id, "someone else")
	if err != nil {
		t.Fatal(err)
	}
	relayedBlack, err := b.h.Join(ctx, id, bl.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !relayedWatch.Spectator() || relayedBlack.Spectator() {
		t.Errorf("relayed through B: the spectator's Spectator() = %v, the player's %v", relayedWatch.Spectator(), relayedBlack.Spectator())
	}
	relayedWatch.Leave()
	relayedBlack.Leave()

	// Moves through B, the owner A's refusals as they are.
	if err := b.h.PlayPly(ctx, id, white, toguz.Ply{Move: 7}); err != nil {
		t.Fatalf("White's move through B: %v", err)
	}
	if err := b.h.PlayPly(ctx, id, white, toguz.Ply{Move: 7}); code(err) != apierr.CodeNotYourTurn {
		t.Errorf("White again through B: %v, want not_your_turn", err)
	}
	if err := b.h.Act(ctx, id, black, live.ClientMsg{Type: "move", Hole: 3}); err != nil {
		t.Fatalf("Black's move through B: %v", err)
	}
	if err := b.h.Act(ctx, id, live.Chatter{ID: "x", Name: "x"}, live.ClientMsg{Type: "resign"}); code(err) != apierr.CodeNotAPlayer {
		t.Errorf("a stranger's resignation through B: %v, want not_a_player", err)
	}
	if err := b.h.Act(ctx, id, white, live.ClientMsg{Type: "chat", Text: "salem"}); err != nil {
		t.Errorf("chat through B: %v", err)
	}
	if err := b.h.Act(ctx, id, white, live.ClientMsg{Type: "draw_offer"}); err != nil {
		t.Errorf("a draw offer through B: %v", err)
	}
	if err := b.h.Act(ctx, id, black, live.ClientMsg{Type: "draw_decline"}); err != nil {
		t.Errorf("the decline through B: %v", err)
	}
	if err := b.h.AdjustClock(ctx, id, toguz.Black, time.Minute); err != nil {
		t.Errorf("the arbiter's minute through B: %v", err)
	}
	st, err := a.h.State(ctx, id)
	if err != nil || st.Ply != 2 || st.Clock.BlackMS != 6*60_000 || st.DrawOffer != "" {
		t.Fatalf("the game on A: ply %d, clock %+v, draw offer %q, %v", st.Ply, st.Clock, st.DrawOffer, err)
	}
	if b.h.Live() != 0 {
		t.Errorf("B runs %d games; want none (A owns the game)", b.h.Live())
	}
	// A bot's event stream on B lists the game A runs.
	if gs := b.h.GamesOfAll(ctx, w.ID); len(gs) != 1 || gs[0].ID != id || gs[0].TC != tc || gs[0].White.ID != w.ID {
		t.Errorf("GamesOfAll on B: %+v; want game %s", gs, id)
	}

	// A stops: B's requests are game_moving until B has taken the game
	// over (TestAPIGameMoving: a lease held by a node that does not
	// answer), then played.
	a.crash()
	start := time.Now()
	for {
		err := b.h.PlayPly(ctx, id, white, toguz.Ply{Move: 1})
		if err == nil {
			break
		}
		if code(err) != apierr.CodeGameMoving {
			t.Fatalf("a move while A is gone: %v, want game_moving", err)
		}
		if time.Since(start) > 5*time.Second {
			t.Fatal("B never took the game over")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := b.h.Adjudicate(ctx, id, toguz.Draw); err != nil {
		t.Fatalf("the arbiter's draw on B: %v", err)
	}
	s, err := b.st.Game(ctx, id)
	if err != nil || s.Status != game.Ended || s.Result != toguz.Draw || s.Plies != 3 {
		t.Fatalf("stored: %v %v, %d moves, %v", s.Status, s.Result, s.Plies, err)
	}
}

// TestAPIGameMoving: a request for a game whose lease a node holds that
// does not answer (it died a moment ago) is refused as game_moving until
// the lease runs out, and then run by the node that takes the game.
func TestAPIGameMoving(t *testing.T) {
	busURL := startBus(t)
	path := filepath.Join(t.TempDir(), "t.db")
	b := startNode(t, path, busURL, "B")
	ctx := context.Background()
	ls := store.LiveStore{S: b.st}
	if err := ls.CreateGame(ctx, game.Spec{ID: "g1", Rules: toguz.Standard(), White: w1, Black: b1, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := ls.TakeLease(ctx, "g1", "Z", time.Now(), time.Second); !ok || err != nil {
		t.Fatalf("lease for Z: %v %v", ok, err)
	}
	white := live.Chatter{ID: w1.ID, Name: w1.Name}
	if err := b.h.PlayPly(ctx, "g1", white, toguz.Ply{Move: 7}); code(err) != apierr.CodeGameMoving {
		t.Fatalf("a move while Z holds the lease: %v, want game_moving", err)
	}
	if _, err := b.h.State(ctx, "g1"); code(err) != apierr.CodeGameMoving {
		t.Errorf("the state while Z holds the lease: %v, want game_moving", err)
	}
	time.Sleep(time.Second + 200*time.Millisecond)
	if err := b.h.PlayPly(ctx, "g1", white, toguz.Ply{Move: 7}); err != nil {
		t.Fatalf("the retry once Z's lease ran out: %v", err)
	}
}

var w1, b1 = seats()

func code(err error) apierr.Code {
	var le *live.Error
	if errors.As(err, &le) {
		return le.Code
	}
	return ""
}

// TestBusDownFailsFast: while NATS is down a request for a game another
// node runs is refused as game_moving at once, not after waiting its
// whole timeout.
func TestBusDownFailsFast(t *testing.T) {
	em, err := bus.StartEmbedded("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.db")
	a := startNode(t, path, em.URL(), "A")
	b := startNode(t, path, em.URL(), "B")
	ctx := context.Background()
	id, err := a.h.Create(ctx, game.Spec{Rules: toguz.Standard(), White: w1, Black: b1})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // B hears A
	em.Close()
	for b.b.Connected() {
		time.Sleep(10 * time.Millisecond)
	}
	start := time.Now()
	err = b.h.PlayPly(ctx, id, live.Chatter{ID: w1.ID, Name: w1.Name}, toguz.Ply{Move: 7})
	if code(err) != apierr.CodeGameMoving || time.Since(start) > 100*time.Millisecond {
		t.Errorf("a move through B with NATS down: %v after %v; want game_moving at once", err, time.Since(start))
	}
}
