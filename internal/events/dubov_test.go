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
	"github.com/toguz/toguz/internal/tournament/dubov"
	"github.com/toguz/toguz/internal/tournament/dutch"
)

// TestDubovEvent runs a Swiss paired by the Dubov system on the site (a
// real store and live hub, the Swiss pairers connected by system): an odd
// field, draws, a forfeit; every round of the TRF the event exports passes
// the checker with the Dubov pairer and differs from the Dutch pairing
// somewhere. The system is for a Swiss only, and not with the Baku
// acceleration.
func TestDubovEvent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	swiss := tournament.BySystem{tournament.Dutch: dutch.Pairer{}, tournament.Dubov: dubov.Pairer{}}
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		st, err := store.Open(ctx, path, store.Options{Readers: 1, SessionSweep: -1})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		m, err := events.New(ctx, events.Config{Store: st, Swiss: swiss})
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
		for _, bad := range []events.Settings{
			{Kind: events.Swiss, Rules: "standard", TC: "5+3", Rounds: 5, Pairing: "dubov", Acceleration: "baku"},
			{Kind: events.RoundRobin, Rules: "standard", TC: "5+3", Pairing: "dubov"},
			{Kind: events.Swiss, Rules: "standard", TC: "5+3", Rounds: 5, Pairing: "dubov+doubleswiss"},
			{Kind: events.Swiss, Rules: "standard", TC: "5+3", Rounds: 5, Pairing: "monrad"},
		} {
			if _, err := m.Create(ctx, arbiter, "Bad", time.Time{}, bad); err == nil {
				t.Errorf("created with %+v", bad)
			}
		}
		ev, err := m.Create(ctx, arbiter, "Dubov open", time.Time{}, events.Settings{Kind: events.Swiss, Rules: "standard", TC: "5+3", Rounds: 5, Pairing: "dubov"})
		if err != nil {
			t.Fatal(err)
		}
		for i, id := range ids[:11] {
			if _, err := m.Join(ctx, ev.ID, events.Player{UserID: id, Name: fmt.Sprintf("player%d", i+1), Rating: 2300 - 41*i}); err != nil {
				t.Fatal(err)
			}
		}
		if err := m.Start(ctx, ev.ID, arbiter); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		results := []string{"1-0", "0-1", "1/2", "1-0", "+-", "0-1", "1-0", "1/2"}
		k, differ := 0, false
		for round := 1; round <= 5; round++ {
			e, _ := m.Get(ev.ID)
			if len(e.Rounds) != round {
				t.Fatalf("round %d not paired: %d rounds", round, len(e.Rounds))
			}
			for _, p := range e.Rounds[round-1].Pairings {
				if p.Black == 0 || p.Result != "" {
					continue
				}
				if err := m.SetResult(ctx, ev.ID, arbiter, round, p.Board, results[k%len(results)]); err != nil {
					t.Fatal(err)
				}
				k++
				synctest.Wait()
			}
			synctest.Wait()
			e, _ = m.Get(ev.ID)
			var b bytes.Buffer
			if err := e.Tournament(0).WriteTRF(&b); err != nil {
				t.Fatal(err)
			}
			te, err := tournament.ReadTRF(bytes.NewReader(b.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if te.System != tournament.Dubov {
				t.Fatalf("the exported TRF's system is %q", te.System)
			}
			for _, sys := range []tournament.System{tournament.Dubov, tournament.Dutch} {
				te.System = sys
				res, err := tournament.Check(te, swiss)
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range res {
					switch {
					case sys == tournament.Dubov && !c.Same():
						t.Errorf("round %d: the site paired %s; the Dubov checker %s %v", c.Round, tournament.PairsText(c.File), tournament.PairsText(c.Ours), c.Err)
					case sys == tournament.Dutch && !c.Same():
						differ = true
					}
				}
			}
		}
		if !differ {
			t.Error("the Dubov event was paired as the Dutch system pairs it")
		}
		if e, _ := m.Get(ev.ID); e.Status != events.Finished {
			t.Errorf("after 5 rounds: %s", e.Status)
		}
	})
}
