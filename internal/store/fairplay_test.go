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
