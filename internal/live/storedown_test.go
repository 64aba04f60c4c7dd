package live_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/store"
)

// downStore is the real store, whose writes of moves fail while down is
// set, as they do while PostgreSQL restarts.
type downStore struct {
	store.LiveStore
	down *atomic.Bool
}

func (s downStore) AddMove(ctx context.Context, id string, ply int, m game.PlayedMove) error {
	if s.down.Load() {
		return errors.New("dial tcp 127.0.0.1:5432: connect: connection refused")
	}
	return s.LiveStore.AddMove(ctx, id, ply, m)
}

func (s downStore) EndGame(ctx context.Context, g game.Saved) (*[2]int, error) {
	if s.down.Load() {
		return nil, errors.New("dial tcp 127.0.0.1:5432: connect: connection refused")
	}
	return s.LiveStore.EndGame(ctx, g)
}

// TestStoreDown: a move or a resignation the store does not take, from a
// socket or the API, is refused as store_unavailable (503, retryable), not
// internal nor (a resignation) acknowledged; the game is as it was, and the
// same request succeeds once the store is back.
func TestStoreDown(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "t.db"))
	defer st.Close()
	var down atomic.Bool
	ctx, cancel := context.WithCancel(context.Background())
	h := live.NewHub(ctx, live.Config{Store: downStore{store.LiveStore{S: st}, &down}, FirstMoveTimeout: -1})
	defer func() { cancel(); h.Wait() }()
	if _, err := h.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	w, bl := seats()
	tc, _ := clock.ParseTimeControl("5+0")
	id, err := h.Create(ctx, game.Spec{Rules: toguz.Standard(), White: w, Black: bl, TC: tc})
	if err != nil {
		t.Fatal(err)
	}
	cw, err := h.Join(ctx, id, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := await(t, cw, "state"); !ok {
		t.Fatal("no state")
	}
	if got := apierr.Status(apierr.CodeStoreUnavailable); got != 503 {
		t.Errorf("store_unavailable is HTTP %d, want 503", got)
	}

	down.Store(true)
	move(cw, 0, 7)
	if m, ok := await(t, cw, "error", "move"); !ok || m.Type != "error" || m.Code != string(apierr.CodeStoreUnavailable) {
		t.Fatalf("a move from the socket while the store is down: %+v, want the error store_unavailable", m)
	}
	white := live.Chatter{ID: w.ID, Name: w.Name}
	if err := h.PlayPly(ctx, id, white, toguz.Ply{Move: 7}); code(err) != apierr.CodeStoreUnavailable {
		t.Fatalf("a move from the API while the store is down: %v, want store_unavailable", err)
	}
	if s, err := h.State(ctx, id); err != nil || s.Ply != 0 {
		t.Fatalf("the game after the refused moves: ply %d, %v; want 0", s.Ply, err)
	}

	down.Store(false)
	if err := h.PlayPly(ctx, id, white, toguz.Ply{Move: 7}); err != nil {
		t.Fatalf("the retry once the store is back: %v", err)
	}
	if m, ok := await(t, cw, "move"); !ok || *m.Ply != 1 {
		t.Fatalf("the retried move: %+v %v", m, ok)
	}
	if moves, err := st.Moves(ctx, id); err != nil || len(moves) != 1 {
		t.Fatalf("stored moves: %d, %v; want 1", len(moves), err)
	}

	down.Store(true)
	cw.Send(live.ClientMsg{Type: "resign"})
	if m, ok := await(t, cw, "error", "end"); !ok || m.Type != "error" || m.Code != string(apierr.CodeStoreUnavailable) {
		t.Fatalf("a resignation from the socket while the store is down: %+v, want the error store_unavailable", m)
	}
	if err := h.Act(ctx, id, white, live.ClientMsg{Type: "resign"}); code(err) != apierr.CodeStoreUnavailable {
		t.Fatalf("a resignation from the API while the store is down: %v, want store_unavailable", err)
	}
	if s, err := h.State(ctx, id); err != nil || s.Status != "playing" {
		t.Fatalf("the game after the refused resignations: %q, %v; want playing", s.Status, err)
	}
	down.Store(false)
	if err := h.Act(ctx, id, white, live.ClientMsg{Type: "resign"}); err != nil {
		t.Fatalf("the resignation once the store is back: %v", err)
	}
	if g, err := (store.LiveStore{S: st}).Game(ctx, id); err != nil || g.End == nil || g.End.Termination != toguz.ByResignation {
		t.Fatalf("stored ending: %+v, %v; want a resignation", g.End, err)
	}
}
