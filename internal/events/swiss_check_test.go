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
	"github.com/toguz/toguz/internal/tournament/systems"
)

// checkPairings runs FIDE's Free Pairings Checker (tournament.Check, what
// `toguz tournament check` runs) over an event's TRF as the site exports
// it: every round paired again from the rounds before it with the
// system's pairer must come out as the site paired it.
func checkPairings(t *testing.T, trf []byte) {
	t.Helper()
	te, err := tournament.ReadTRF(bytes.NewReader(trf))
	if err != nil {
		t.Fatalf("the exported TRF: %v", err)
	}
	p, err := tournament.PairerFor(te.System, swissPairer())
	if err != nil {
		t.Fatal(err)
	}
	res, err := tournament.Check(te, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) == 0 {
		t.Fatal("the TRF has no round")
	}
	for _, c := range res {
		if !c.Same() {
			t.Errorf("round %d of the exported TRF (%s): the site paired %s; the checker %s %v", c.Round, te.System,
				tournament.PairsText(c.File), tournament.PairsText(c.Ours), c.Err)
		}
	}
}

// swissPairer is the Swiss pairer the server connects: each Swiss
// system's package by the event's system.
func swissPairer() tournament.Pairer {
	return systems.Swiss()
}

// TestSwissEventTRFChecks runs a Swiss on the site (a real store and live
// hub, the Swiss pairer connected), without and with the Baku
// acceleration, and by the Burstein system, with what an arbiter meets: an odd field (the bye), draws,
// a forfeit, a withdrawal and a late entry; the arbiter enters the
// results. The TRF the event page exports, round by round, passes the
// checker (TestEventPages runs it over a round robin's). The acceleration
// is for a Swiss only.
func TestSwissEventTRFChecks(t *testing.T) {
	for _, acc := range []string{"", "baku"} {
		t.Run("acceleration="+acc, func(t *testing.T) { swissEventTRFChecks(t, acc, "") })
	}
	t.Run("system=burstein", func(t *testing.T) { swissEventTRFChecks(t, "", "burstein") })
}

// swissEventTRFChecks runs TestSwissEventTRFChecks' event with the
// acceleration acc ("" or "baku") and the pairing system sys ("" or
// "burstein").
func swissEventTRFChecks(t *testing.T, acc, sys string) {
	path := filepath.Join(t.TempDir(), "t.db")
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		st, err := store.Open(ctx, path, store.Options{Readers: 1, SessionSweep: -1})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		m, err := events.New(ctx, events.Config{Store: st, Swiss: swissPairer()})
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
		ev, err := m.Create(ctx, arbiter, "Swiss open", time.Time{}, events.Settings{Kind: events.Swiss, Rules: "standard", TC: "5+3", Rounds: 5, Acceleration: acc, Pairing: sys})
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
		for round := 1; round <= 5; round++ {
			e, _ := m.Get(ev.ID)
			if len(e.Rounds) != round {
				t.Fatalf("round %d not paired: %d rounds", round, len(e.Rounds))
			}
			switch round {
			case 2: // a late entry, paired from round 3
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
			if err := e.Tournament(0).WriteTRF(&b); err != nil {
				t.Fatal(err)
			}
			checkPairings(t, b.Bytes())
			if round == 5 {
				t.Logf("the exported TRF:\n%s", b.String())
			}
		}
		e, _ := m.Get(ev.ID)
		if e.Status != events.Finished {
			t.Errorf("after 5 rounds: %s", e.Status)
		}
		if want := map[string]tournament.System{"": tournament.Dutch, "baku": tournament.DutchBaku, "burstein": tournament.Burstein}[acc+sys]; e.Tournament(0).System != want {
			t.Errorf("the event's system %s, want %s", e.Tournament(0).System, want)
		}
		if _, err := m.Create(ctx, arbiter, "Round robin", time.Time{}, events.Settings{Kind: events.RoundRobin, Rules: "standard", TC: "5+3", Acceleration: "baku"}); err == nil {
			t.Error("a round robin with the Baku acceleration")
		}
	})
}
