package store

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
)

// TestEventsRoundTrip: an event saved whole is loaded back the same, saved
// again replaces its parts, and its arbiters' log reads newest first.
func TestEventsRoundTrip(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a, b := mustUser(t, s, "abai"), mustUser(t, s, "bolat")
		ev := Event{ID: "ev000001", Creator: a.ID, Name: "Кубок", Kind: "swiss", Settings: []byte(`{"rounds":5}`),
			Status: "running", Published: 1, Created: t0, Start: t0.Add(time.Hour), Arbiters: []int64{a.ID},
			Entries: []game.EventEntry{
				{Start: 1, UserID: a.ID, Name: "abai", Rating: 1600, BirthYear: 2001, Sex: "m", Joined: t0},
				{Start: 2, UserID: b.ID, Name: "bolat", Rating: 1500, Withdrawn: true, Paused: true, Joined: t0},
			},
			Rounds: []game.EventRound{{Round: 1, Paired: t0.Add(time.Hour), Pairings: []game.EventPairing{
				{Board: 1, White: 1, Black: 2, GameID: "g0000001", Result: "1-0", Berserk: "w"},
			}}},
		}
		if err := s.SaveEvent(ctx, ev); err != nil {
			t.Fatal(err)
		}
		got, err := s.Events(ctx)
		if err != nil || len(got) != 1 {
			t.Fatalf("Events = %+v, %v", got, err)
		}
		if d := cmp.Diff(ev, got[0]); d != "" {
			t.Errorf("the event read back (-saved +read):\n%s", d)
		}
		ev.Status, ev.Ended, ev.Rounds = "finished", t0.Add(2*time.Hour), nil
		ev.Entries = ev.Entries[:1]
		if err := s.SaveEvent(ctx, ev); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Events(ctx); err != nil || len(got) != 1 || got[0].Status != "finished" || len(got[0].Entries) != 1 || len(got[0].Rounds) != 0 {
			t.Errorf("after saving again: %+v, %v", got, err)
		}
		for i, act := range []string{"pair", "result"} {
			if err := s.LogEventAction(ctx, ev.ID, EventAction{At: t0.Add(time.Duration(i) * time.Minute), UserID: a.ID, Action: act, Detail: "1"}); err != nil {
				t.Fatal(err)
			}
		}
		log, err := s.EventLog(ctx, ev.ID)
		if err != nil || len(log) != 2 || log[0].Action != "result" || log[1].Name != "abai" || !log[1].At.Equal(t0) {
			t.Errorf("EventLog = %+v, %v", log, err)
		}
	})
}

// TestReportsTakeBackRatedGames covers the rest of the store's statements
// on both back ends: reports, a take-back, and the open database's pages
// of rated games.
func TestReportsTakeBackRatedGames(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		for i, msg := range []string{"first", "second"} {
			id, err := s.AddReport(ctx, Report{Reporter: "g:Guest-1", ReporterName: "Guest-1", Reported: "x", Room: "lobby",
				Message: msg, Verified: i == 1, Created: t0.Add(time.Duration(i) * time.Second)})
			if err != nil || id == 0 {
				t.Fatalf("AddReport: %d, %v", id, err)
			}
		}
		rs, err := s.Reports(ctx, 10, 0)
		if err != nil || len(rs) != 2 || rs[0].Message != "second" || !rs[0].Verified || rs[1].Verified {
			t.Errorf("Reports = %+v, %v", rs, err)
		}

		a, b := mustUser(t, s, "abai"), mustUser(t, s, "bolat")
		tc := clock.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}
		g := mustGame(t, s, Game{Players: [2]game.Seat{{UserID: a.ID}, {UserID: b.ID}}, Rules: toguz.Standard(), TimeControl: tc,
			Rated: true, Status: game.Playing})
		for ply, hole := range []toguz.Move{7, 3, 2} {
			if err := s.AppendMove(ctx, g.ID, Move{Ply: ply + 1, Hole: hole, Played: t0}, nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.TakeBack(ctx, g.ID, 1, nil); err != nil {
			t.Fatal(err)
		}
		if err := s.TakeBack(ctx, g.ID, 5, nil); !errors.Is(err, ErrConflict) {
			t.Errorf("take back beyond the moves: %v, want ErrConflict", err)
		}
		if moves, err := s.Moves(ctx, g.ID); err != nil || len(moves) != 1 || moves[0].Hole != 7 {
			t.Errorf("moves after the take-back: %+v, %v", moves, err)
		}
		if _, err := s.FinishGame(ctx, g.ID, Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByKazan, At: t0}); err != nil {
			t.Fatal(err)
		}
		first, last, ok, err := s.RatedSpan(ctx)
		if err != nil || !ok || !first.Equal(t0) || !last.Equal(t0) {
			t.Errorf("RatedSpan = %v, %v, %v, %v", first, last, ok, err)
		}
		gs, err := s.RatedGames(ctx, t0.Add(-time.Hour), t0.Add(time.Hour), 0, "", 10)
		if err != nil || len(gs) != 1 || gs[0].ID != g.ID || gs[0].Plies != 1 {
			t.Errorf("RatedGames = %+v, %v", gs, err)
		}
	})
}
