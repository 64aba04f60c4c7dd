package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
)

// opsSeen records the operations an Observer is told of.
type opsSeen struct {
	mu  sync.Mutex
	ops map[string]int
}

func (o *opsSeen) ObserveStore(op string, d time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if d < 0 {
		op += " (negative)"
	}
	o.ops[op]++
}

// TestObserver plays a game through LiveStore and checks that the
// observer hears of the writer's writes and commits and of each of the
// hub's operations.
func TestObserver(t *testing.T) {
	obs := &opsSeen{ops: map[string]int{}}
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "toguz.db"), Options{Observer: obs})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := t.Context()
	ls := LiveStore{S: s}
	tc, err := clock.ParseTimeControl("5+3")
	if err != nil {
		t.Fatal(err)
	}
	spec := game.Spec{ID: "g1", Rules: toguz.Standard(), White: game.GuestSeat("a"), Black: game.GuestSeat("b"), TC: tc, Created: time.Now()}
	if err := ls.CreateGame(ctx, spec); err != nil {
		t.Fatal(err)
	}
	if err := ls.AddMove(ctx, "g1", 1, game.PlayedMove{Hole: 1, At: time.Now(), Clock: [2]time.Duration{5 * time.Minute, 5 * time.Minute}}); err != nil {
		t.Fatal(err)
	}
	if err := ls.TakeBack(ctx, "g1", 0, nil); err != nil {
		t.Fatal(err)
	}
	if err := ls.SaveClocks(ctx, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	g, err := ls.Game(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ls.LiveGames(ctx); err != nil {
		t.Fatal(err)
	}
	g.End = &game.Ending{Status: game.Aborted, At: time.Now()}
	if _, err := ls.EndGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	s.SessionByTokenHash(ctx, "none")
	obs.mu.Lock()
	defer obs.mu.Unlock()
	for _, op := range []string{"write", "commit", "create_game", "add_move", "take_back", "save_clocks", "game", "live_games", "end_game", "session"} {
		if obs.ops[op] == 0 {
			t.Errorf("the observer was not told of %q (told of %v)", op, obs.ops)
		}
	}
	// Five writes at least (create, move, takeback, clocks, end), each
	// committed.
	if obs.ops["write"] < 5 || obs.ops["commit"] < 5 {
		t.Errorf("writes %d, commits %d: want at least 5 each", obs.ops["write"], obs.ops["commit"])
	}
	for op := range obs.ops {
		if len(op) > 10 && op[len(op)-10:] == "(negative)" {
			t.Errorf("%s: a negative duration", op)
		}
	}
}

// TestReady: a migrated store is ready; one whose schema another program
// migrated further is not, nor a closed one.
func TestReady(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		if err := s.Ready(ctx); err != nil {
			t.Fatalf("a migrated store: %v", err)
		}
		if err := s.write(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO goose_db_version (version_id, is_applied) VALUES (99, true)`)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if err := s.Ready(ctx); err == nil {
			t.Error("a schema at version 99: ready")
		}
		s.Close()
		cctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		if err := s.Ready(cctx); err == nil {
			t.Error("a closed store: ready")
		}
	})
}
