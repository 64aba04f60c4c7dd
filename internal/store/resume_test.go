package store

import (
	"fmt"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
)

// TestAlive: the instant of the last heartbeat or clean stop; zero before any.
func TestAlive(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		if at, err := s.LastAlive(ctx); !at.IsZero() || err != nil {
			t.Fatalf("LastAlive of a new store = %v, %v", at, err)
		}
		for _, at := range []time.Time{t0, t0.Add(time.Second)} {
			if err := s.MarkAlive(ctx, at); err != nil {
				t.Fatal(err)
			}
			if got, err := s.LastAlive(ctx); !got.Equal(at) || err != nil {
				t.Errorf("LastAlive = %v, %v; want %v", got, err, at)
			}
		}
		g := mustGame(t, s, Game{Players: [2]game.Seat{{Name: "g1"}, {Name: "g2"}}, Rules: toguz.Standard(), Status: game.Playing,
			TimeControl: clock.TimeControl{Base: time.Minute}})
		st := clock.State{Remaining: [2]time.Duration{35 * time.Second, time.Minute}, Running: true, Since: t0.Add(time.Hour)}
		if err := s.SaveClocks(ctx, map[string]clock.State{g.ID: st}, t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Clock(ctx, g.ID); got != st || err != nil {
			t.Errorf("Clock = %+v, %v; want %+v", got, err, st)
		}
		if got, _ := s.LastAlive(ctx); !got.Equal(t0.Add(time.Hour)) {
			t.Errorf("LastAlive after SaveClocks = %v", got)
		}
	})
}

// TestEndAbandoned: the start-up sweep aborts, in batches, exactly the games
// being played whose abandonment time had come by the given instant, and
// leaves the others (and those already over) alone.
func TestEndAbandoned(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		ls := LiveStore{S: s}
		a := live.Abandonment{FirstMove: time.Minute, Untimed: 7 * 24 * time.Hour, Engine: 6 * time.Hour}
		by := t0.Add(30 * 24 * time.Hour)
		old := t0                          // abandoned by by, whatever the kind
		recent := by.Add(-time.Minute / 2) // not yet, whatever the kind
		mk := func(tc clock.TimeControl, black game.Seat, created time.Time, plies int) string {
			g := mustGame(t, s, Game{Players: [2]game.Seat{{Name: "g1"}, black}, Rules: toguz.Standard(), Status: game.Playing,
				TimeControl: tc, Created: created})
			p := toguz.StartPosition()
			for ply := 1; ply <= plies; ply++ {
				m := p.LegalMoves().First()
				if err := s.AppendMove(ctx, g.ID, Move{Ply: ply, Hole: m, Played: created, Clock: -1}, nil); err != nil {
					t.Fatal(err)
				}
				p = p.After(m)
			}
			return g.ID
		}
		person, engine := game.Seat{Name: "g2"}, game.Seat{Name: "Engine 1", Engine: 1}
		blitz, corr := clock.TimeControl{Base: 3 * time.Minute}, clock.TimeControl{Days: 3}
		dead := []string{mk(clock.TimeControl{}, person, old, 0), mk(clock.TimeControl{}, person, old, 5),
			mk(blitz, person, old, 1), mk(corr, person, old, 0), mk(corr, person, old, 1),
			mk(blitz, engine, old, 0), mk(clock.TimeControl{}, engine, old, 4)}
		kept := []string{
			mk(clock.TimeControl{}, person, recent, 3), mk(blitz, person, recent, 1), mk(corr, person, recent, 0),
			mk(blitz, engine, recent, 0),
			mk(blitz, person, old, 2), mk(corr, person, old, 3), // the clocks run: they flag
		}
		over := mk(clock.TimeControl{}, person, old, 0)
		if _, err := s.FinishGame(ctx, over, Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByResignation}); err != nil {
			t.Fatal(err)
		}
		n, err := ls.EndAbandoned(ctx, a, by, by)
		if err != nil || n != len(dead) {
			t.Fatalf("EndAbandoned = %d, %v; want %d", n, err, len(dead))
		}
		for _, id := range dead {
			if g, _ := s.Game(ctx, id); g.Status != game.Aborted || !g.Ended.Equal(by) {
				t.Errorf("abandoned %s: %s at %v", id, g.Status, g.Ended)
			}
		}
		for _, id := range kept {
			if g, _ := s.Game(ctx, id); g.Status != game.Playing {
				t.Errorf("kept %s: %s", id, g.Status)
			}
		}
		if g, _ := s.Game(ctx, over); g.Status != game.Ended || g.Result != toguz.WhiteWins {
			t.Errorf("the finished game: %s %v", g.Status, g.Result)
		}
		if live, _ := ls.LiveGames(ctx); len(live) != len(kept) {
			t.Errorf("%d games left to load, want %d", len(live), len(kept))
		}
	})
}

// TestAbortGamesBatches: the sweep aborts a bounded number of games per
// transaction, and never a game that is over.
func TestAbortGamesBatches(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		var ids []string
		for i := range 5 {
			ids = append(ids, mustGame(t, s, Game{ID: fmt.Sprintf("g%d", i), Players: [2]game.Seat{{Name: "a"}, {Name: "b"}},
				Rules: toguz.Standard(), Status: game.Playing}).ID)
		}
		if _, err := s.FinishGame(ctx, ids[4], Finish{Status: game.Aborted}); err != nil {
			t.Fatal(err)
		}
		before := s.commits.Load()
		if n, err := s.abortGames(ctx, ids, t0, 2); n != 4 || err != nil {
			t.Fatalf("abortGames = %d, %v; want 4", n, err)
		}
		if c := s.commits.Load() - before; c != 3 {
			t.Errorf("%d transactions for 5 games in batches of 2, want 3", c)
		}
	})
}
