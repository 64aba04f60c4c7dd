package live_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/enginepool"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/store"
)

// awaitMove returns the move message of ply (1-based) on c, failing the
// test after a few seconds or on an error message.
func awaitMove(t *testing.T, c *live.Conn, ply int) (hole int, fen string) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case b, open := <-c.Out():
			if !open {
				t.Fatalf("connection closed before ply %d", ply)
			}
			var m struct {
				Type, FEN, Code string
				Ply, Hole       int
			}
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			switch {
			case m.Type == "error":
				t.Fatalf("waiting for ply %d: %s", ply, b)
			case m.Type == "move" && m.Ply == ply:
				return m.Hole, m.FEN
			}
		case <-timeout:
			t.Fatalf("no move of ply %d", ply)
		}
	}
}

// TestEngineGame plays a guest against the real engine at level 1 on a
// real store: the engine answers each move with a legal one by itself, and
// every move is stored.
func TestEngineGame(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, filepath.Join(t.TempDir(), "t.db"))
	defer st.Close()
	eng, err := enginepool.NewLivePlayer(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	hubCtx, stop := context.WithCancel(ctx)
	gs := store.LiveStore{S: st}
	h := live.NewHub(hubCtx, live.Config{Store: gs, Engine: eng, FirstMoveTimeout: -1})
	defer func() {
		stop()
		h.Wait()
	}()
	w, _ := seats()
	id, err := h.Create(ctx, game.Spec{Rules: toguz.Standard(), White: w, Black: game.EngineSeat(1, "Engine 1")})
	if err != nil {
		t.Fatal(err)
	}
	cw, err := h.Join(ctx, id, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer cw.Leave()
	p := toguz.StartPosition()
	for ply := 0; ply < 6; ply += 2 {
		m := p.LegalMoves().Slice()[0]
		move(cw, ply, int(m))
		p = p.After(m)
		if _, fen := awaitMove(t, cw, ply+1); fen != toguz.FormatFEN(p, toguz.FullMove(toguz.White, 1, ply+1)) {
			t.Fatalf("ply %d: the hub's position %s, the rules' %s", ply+1, fen, p.FEN())
		}
		hole, fen := awaitMove(t, cw, ply+2)
		if p, err = p.Play(toguz.Move(hole)); err != nil {
			t.Fatalf("the engine's ply %d: %v", ply+2, err)
		}
		if want := toguz.FormatFEN(p, toguz.FullMove(toguz.White, 1, ply+2)); fen != want {
			t.Fatalf("ply %d: the hub's position %s, the rules' %s", ply+2, fen, want)
		}
	}
	saved, err := gs.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(saved.Moves) != 6 || !saved.Black.IsEngine() || saved.End != nil {
		t.Fatalf("stored %d moves, black %+v, end %+v: want 6 moves of a game going on against the engine", len(saved.Moves), saved.Black, saved.End)
	}
}

// openStore opens the real store on the SQLite file at path (created when
// new), with one reader as the hub needs; the caller closes it.
func openStore(t *testing.T, path string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), path, store.Options{Readers: 1})
	if err != nil {
		t.Fatal(err)
	}
	return st
}
