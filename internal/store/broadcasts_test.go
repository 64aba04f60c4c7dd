package store

import (
	"errors"
	"testing"
)

func TestBroadcasts(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		u, err := s.CreateUser(ctx, "arbiter", "x")
		if err != nil {
			t.Fatal(err)
		}
		id, err := s.CreateBroadcast(ctx, Broadcast{OwnerID: u.ID, Name: "Almaty open", Ruleset: "standard", Rounds: 7}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateBroadcast(ctx, Broadcast{OwnerID: u.ID, Name: "second", Ruleset: "standard", Rounds: 1}, 1); !errors.Is(err, ErrLimit) {
			t.Errorf("a second broadcast over the limit of 1: %v, want ErrLimit", err)
		}
		g, err := s.AddBroadcastGame(ctx, id, BroadcastGame{Round: 1, Board: 1, White: "A", Black: "B"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddBroadcastGame(ctx, id, BroadcastGame{Round: 1, Board: 1, White: "C", Black: "D"}); !errors.Is(err, ErrConflict) {
			t.Errorf("board 1 twice: %v, want ErrConflict", err)
		}
		if err := s.AppendBroadcastPlies(ctx, id, g, 0, []string{"76", "98"}, ""); err != nil {
			t.Fatal(err)
		}
		if err := s.AppendBroadcastPlies(ctx, id, g, 0, []string{"11"}, ""); !errors.Is(err, ErrConflict) {
			t.Errorf("append from a stale count: %v, want ErrConflict", err)
		}
		if err := s.AppendBroadcastPlies(ctx, id, g, 2, []string{"48"}, "1-0"); err != nil {
			t.Fatal(err)
		}
		if err := s.SaveBroadcastRound(ctx, id, 2, "012 x", []BroadcastGame{{Board: 1, White: "B", Black: "A", Result: "0-1", Plies: []string{"11"}}}); err != nil {
			t.Fatal(err)
		}
		b, err := s.LoadBroadcast(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if b.OwnerName != "arbiter" || len(b.Games) != 2 || b.TRF[2] != "012 x" {
			t.Fatalf("loaded %+v", b)
		}
		if g0 := b.Games[0]; g0.Result != "1-0" || len(g0.Plies) != 3 || g0.Plies[2] != "48" {
			t.Errorf("game 1: %+v", g0)
		}
		if g1 := b.Games[1]; g1.Round != 2 || len(g1.Plies) != 1 {
			t.Errorf("game 2: %+v", g1)
		}
		if _, err := s.LoadBroadcast(ctx, 99); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown broadcast: %v", err)
		}
		list, err := s.Broadcasts(ctx, 10)
		if err != nil || len(list) != 1 || list[0].Name != "Almaty open" {
			t.Errorf("list: %+v %v", list, err)
		}
	})
}
