package events_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toguz/toguz/internal/events"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/tournament"
	"github.com/toguz/toguz/internal/tournament/dutch"
)

// TestDoubleSwissEvent runs a Double-Swiss on the site: three matches
// are six rounds, each match's second round the first's pairs with the
// colours swapped, paired when the first has ended; the bye is a game won
// and a game drawn; a late entry and a withdrawal; the exported TRF passes
// the checker after every round, and the standings count both games.
func TestDoubleSwissEvent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		st, err := store.Open(ctx, path, store.Options{Readers: 1, SessionSweep: -1})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		m, err := events.New(ctx, events.Config{Store: st, Swiss: dutch.Pairer{}})
		if err != nil {
			t.Fatal(err)
		}
		hctx, cancel := context.WithCancel(ctx)
		defer cancel()
		hub := live.NewHub(hctx, live.Config{Store: store.LiveStore{S: st}, FirstMoveTimeout: -1, Heartbeat: -1,
			OnEnd: func(s game.Saved) { go m.GameEnded(s) }})
		if err := m.SetGames(ctx, hub); err != nil {
			t.Fatal(err)
		}
		defer func() {
			_ = hub.Stop(context.Background())
			cancel()
			hub.Wait()
		}()
		ids := users(t, st, 12)
		arbiter := ids[11]
		if _, err := m.Create(ctx, arbiter, "Bad", time.Time{}, events.Settings{Kind: events.Swiss, Rules: "standard", TC: "5+3", Rounds: 3, Pairing: "doubleswiss", Acceleration: "baku"}); err == nil {
			t.Error("a Double-Swiss with the Baku acceleration")
		}
		if _, err := m.Create(ctx, arbiter, "Bad", time.Time{}, events.Settings{Kind: events.RoundRobin, Rules: "standard", TC: "5+3", Pairing: "doubleswiss"}); err == nil {
			t.Error("a Double-Swiss round robin")
		}
		ev, err := m.Create(ctx, arbiter, "Double-Swiss open", time.Time{}, events.Settings{Kind: events.Swiss, Rules: "standard", TC: "5+3", Rounds: 3, Pairing: "doubleswiss"})
		if err != nil {
			t.Fatal(err)
		}
		for i, id := range ids[:9] {
			if _, err := m.Join(ctx, ev.ID, events.Player{UserID: id, Name: fmt.Sprintf("player%d", i+1), Rating: 2200 - 37*i}); err != nil {
				t.Fatal(err)
			}
		}
		if err := m.Start(ctx, ev.ID, arbiter); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		results := []string{"1-0", "1/2", "0-1", "1-0", "+-", "1/2", "0-1"}
		k := 0
		for round := 1; round <= 6; round++ {
			e, _ := m.Get(ev.ID)
			if len(e.Rounds) != round {
				t.Fatalf("round %d not paired: %d rounds", round, len(e.Rounds))
			}
			if round%2 == 0 {
				// The match's second game: the first's pairs reversed.
				first := map[[2]int]bool{}
				for _, p := range e.Rounds[round-2].Pairings {
					first[[2]int{p.White, p.Black}] = true
				}
				for _, p := range e.Rounds[round-1].Pairings {
					if p.Black != 0 && !first[[2]int{p.Black, p.White}] {
						t.Fatalf("round %d: %d-%d is not a first game reversed", round, p.White, p.Black)
					}
				}
			}
			switch round {
			case 2: // a late entry between a match's games: paired from match 2
				if _, err := m.Join(ctx, ev.ID, events.Player{UserID: ids[9], Name: "late", Rating: 2050}); err != nil {
					t.Fatal(err)
				}
			case 3:
				if _, err := m.Withdraw(ctx, ev.ID, ids[2]); err != nil {
					t.Fatal(err)
				}
			}
			for _, p := range e.Rounds[round-1].Pairings {
				if p.Black == 0 || p.Result != "" {
					continue
				}
				res := results[k%len(results)]
				k++
				if err := m.SetResult(ctx, ev.ID, arbiter, round, p.Board, res); err != nil {
					t.Fatal(err)
				}
				synctest.Wait()
			}
			synctest.Wait()
			e, _ = m.Get(ev.ID)
			var b bytes.Buffer
			te := e.Tournament(0)
			if err := te.WriteTRF(&b); err != nil {
				t.Fatal(err)
			}
			checkPairings(t, b.Bytes())
			if round == 6 {
				t.Logf("the exported TRF:\n%s", b.String())
			}
		}
		e, _ := m.Get(ev.ID)
		if e.Status != events.Finished {
			t.Errorf("after 3 matches: %s", e.Status)
		}
		te := e.Tournament(0)
		if te.System != tournament.DoubleSwiss || te.Rounds != 6 {
			t.Errorf("the event's system %s with %d rounds", te.System, te.Rounds)
		}
		// The bye of match 1 (9 players) is worth 1.5 over its two rounds.
		for _, p := range e.Rounds[0].Pairings {
			if p.Black == 0 {
				pl := te.Player(p.White)
				if got := te.Score(pl, 2); got != 1.5 {
					t.Errorf("the bye's match: %g points", got)
				}
			}
		}
	})
}
