package store

import (
	"errors"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/game"
)

// TestFairPlay: the evidence of both sides round-trips, a second judgement
// of a side replaces the first, the rows of an account come newest first,
// and evidence about a game that does not exist is refused.
func TestFairPlay(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		u := mustUser(t, s, "Abai")
		g1 := mustGame(t, s, Game{Players: [2]game.Seat{{Name: "Abai", UserID: u.ID}, {Name: "Guest-b"}}, Rules: toguz.Standard(), Status: game.Playing})
		g2 := mustGame(t, s, Game{Players: [2]game.Seat{{Name: "Guest-c"}, {Name: "Abai", UserID: u.ID}}, Rules: toguz.Standard(), Status: game.Playing})
		w := game.FairPlay{GameID: g1.ID, Side: "white", UserID: u.ID, Rating: 1500, Moves: 40, Agree1: 0.5, Agree3: 0.875,
			MeanLoss: 1.25, Score: 0.5, IPR: 1480, Computed: t0, Rated: true, Timed: 12, TimeCorr: 0.25, Deep: 36, AgreeDeep: 0.625, Strength: 2.25}
		b := game.FairPlay{GameID: g1.ID, Side: "black", Moves: 39, Agree1: 0.25, Agree3: 0.5, MeanLoss: 3, Score: -1, IPR: 1100, Computed: t0}
		later := game.FairPlay{GameID: g2.ID, Side: "black", UserID: u.ID, Rating: 1510, Moves: 30, Agree1: 1, Agree3: 1,
			Score: 6.5, IPR: 2900, Flag: true, Computed: t0.Add(time.Second)}
		for _, f := range []game.FairPlay{b, {GameID: g1.ID, Side: "white", Moves: 1, Computed: t0}, w, later} {
			if err := s.PutFairPlay(ctx, f); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.FairPlayByGame(ctx, g1.ID)
		if err != nil || len(got) != 2 || got[0] != w || got[1] != b {
			t.Errorf("FairPlayByGame = %+v, %v; want %+v, %+v", got, err, w, b)
		}
		mine, err := s.FairPlayByUser(ctx, u.ID, 10)
		if err != nil || len(mine) != 2 || mine[0] != later || mine[1] != w {
			t.Errorf("FairPlayByUser = %+v, %v", mine, err)
		}
		if one, _ := s.FairPlayByUser(ctx, u.ID, 1); len(one) != 1 {
			t.Errorf("FairPlayByUser(limit 1) = %d rows", len(one))
		}
		if err := s.PutFairPlay(ctx, game.FairPlay{GameID: "nosuch", Side: "white", Computed: t0}); !errors.Is(err, ErrNotFound) {
			t.Errorf("PutFairPlay(no game) = %v, want ErrNotFound", err)
		}
	})
}

// TestFairPlayFitGames: the fit reads the rated games between two people
// with a result, page by page, and none with a guest, an engine's seat, a
// bot, a voided game or a marked account, nor a casual or unfinished game.
func TestFairPlayFitGames(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a, b := mustUser(t, s, "Abai"), mustUser(t, s, "Bolat")
		cheat, boost, voided, bot := mustUser(t, s, "Cheat"), mustUser(t, s, "Boost"), mustUser(t, s, "Voided"), mustUser(t, s, "Robot")
		if err := s.UpgradeToBot(ctx, bot.ID); err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{
			ratedWin(t, s, a, b, t0).ID: true,
			ratedWin(t, s, b, a, t0).ID: true,
		}
		seat := func(u User) game.Seat { return game.UserSeat(u.ID, u.Name) }
		for _, g := range []Game{
			{Players: [2]game.Seat{seat(a), seat(b)}}, // casual
			{Players: [2]game.Seat{seat(a), game.GuestSeat("Guest-x")}, Rated: true},
			{Players: [2]game.Seat{game.EngineSeat(6, "level 6"), seat(a)}, Rated: true},
		} {
			g.Rules, g.Status = toguz.Standard(), game.Playing
			g = mustGame(t, s, g)
			if _, err := s.FinishGame(ctx, g.ID, Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByResignation, At: t0}); err != nil {
				t.Fatal(err)
			}
		}
		aborted := mustGame(t, s, Game{Players: [2]game.Seat{seat(a), seat(b)}, Rules: toguz.Standard(), Rated: true, Status: game.Playing})
		if _, err := s.FinishGame(ctx, aborted.ID, Finish{Status: game.Aborted, At: t0}); err != nil {
			t.Fatal(err)
		}
		mustGame(t, s, Game{Players: [2]game.Seat{seat(a), seat(b)}, Rules: toguz.Standard(), Rated: true, Status: game.Playing})
		ratedWin(t, s, bot, a, t0)
		ratedWin(t, s, cheat, a, t0)
		ratedWin(t, s, a, boost, t0)
		ratedWin(t, s, voided, b, t0)
		for _, c := range []ModChange{
			{UserID: cheat.ID, Action: "engine", Set: func(f *ModFlags) { f.Engine = true }},
			{UserID: boost.ID, Action: "booster", Set: func(f *ModFlags) { f.Booster = true }},
			// Voided's games stay voided after the mark is lifted.
			{UserID: voided.ID, Action: "engine", Set: func(f *ModFlags) { f.Engine = true }, Void: true, VoidSince: t0.Add(-time.Hour), VoidMax: 10},
			{UserID: voided.ID, Action: "clear", Set: func(f *ModFlags) { f.Engine = false }},
		} {
			if _, err := s.ApplyModChange(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
		var got []string
		afterMS, afterID := int64(0), ""
		for range 10 {
			page, err := s.FairPlayFitGames(ctx, afterMS, afterID, 1)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				break
			}
			g := page[0]
			got = append(got, g.ID)
			afterMS, afterID = g.Date.UnixMilli(), g.ID
		}
		if len(got) != len(want) || !want[got[0]] || !want[got[1]] {
			t.Errorf("FairPlayFitGames, a game a page: %v; want the two rated games of Abai and Bolat, %v", got, want)
		}
		if _, err := s.FairPlayFitGames(ctx, 0, "", 0); err == nil {
			t.Error("FairPlayFitGames with limit 0: no error")
		}
	})
}
