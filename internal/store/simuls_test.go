package store

import (
	"errors"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/game"
)

// TestSimuls: a simul written change by change (made, joined, left,
// started) reads back as it was; the expired ones are deleted with their
// participants.
func TestSimuls(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		day := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
		host := game.Seat{ID: "u:7", UserID: 7, Name: "Aigerim", Rating: 1650}
		sm := Simul{ID: "s1", Host: host, Ruleset: "standard", TC: "10+5", Max: 3, HostWhite: true, Rated: true, Created: day}
		if err := s.CreateSimul(ctx, sm); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateSimul(ctx, sm); !errors.Is(err, ErrConflict) {
			t.Errorf("the same id twice: %v, want ErrConflict", err)
		}
		old := Simul{ID: "s0", Host: game.Seat{ID: "g:x", Name: "guest-x", Guest: true}, Ruleset: "standard", TC: "none", Max: 2,
			Created: day.Add(-25 * time.Hour), Players: []game.Seat{{ID: "g:y", Name: "guest-y", Guest: true}}}
		if err := s.CreateSimul(ctx, old); err != nil {
			t.Fatal(err)
		}
		a := game.Seat{ID: "u:8", UserID: 8, Name: "Bolat", Rating: 1500}
		b := game.Seat{ID: "g:abc", Name: "guest-abc", Guest: true}
		c := game.Seat{ID: "u:9", UserID: 9, Name: "Dana", Rating: 1400}
		for _, p := range []game.Seat{a, b, c} {
			if err := s.AddSimulPlayer(ctx, "s1", p); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.AddSimulPlayer(ctx, "s1", b); !errors.Is(err, ErrConflict) {
			t.Errorf("a participant twice: %v, want ErrConflict", err)
		}
		if err := s.AddSimulPlayer(ctx, "nope", b); !errors.Is(err, ErrNotFound) {
			t.Errorf("join an unknown simul: %v, want ErrNotFound", err)
		}
		// a leaves: b and c move up to boards 1 and 2, a joins again on 3.
		if err := s.RemoveSimulPlayer(ctx, "s1", a.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.RemoveSimulPlayer(ctx, "s1", "u:404"); err != nil {
			t.Errorf("removing one who is not in it: %v", err)
		}
		if err := s.AddSimulPlayer(ctx, "s1", a); err != nil {
			t.Fatal(err)
		}
		if err := s.StartSimul(ctx, "s1", []string{"g1", "g2"}); !errors.Is(err, ErrConflict) {
			t.Errorf("two games for three players: %v, want ErrConflict", err)
		}
		if err := s.StartSimul(ctx, "s1", []string{"g1", "g2", "g3"}); err != nil {
			t.Fatal(err)
		}
		if err := s.AddSimulPlayer(ctx, "s1", game.Seat{ID: "u:10", Name: "late"}); !errors.Is(err, ErrConflict) {
			t.Errorf("join a started simul: %v, want ErrConflict", err)
		}
		if err := s.RemoveSimulPlayer(ctx, "s1", b.ID); !errors.Is(err, ErrConflict) {
			t.Errorf("leave a started simul: %v, want ErrConflict", err)
		}
		list, err := s.Simuls(ctx, day.Add(-48*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 2 || list[0].ID != "s0" || list[1].ID != "s1" {
			t.Fatalf("simuls %+v, want s0 and s1, oldest first", list)
		}
		got := list[1]
		if got.Host != host || got.Ruleset != "standard" || got.TC != "10+5" || got.Max != 3 || !got.HostWhite || !got.Rated ||
			!got.Started || !got.Created.Equal(day) {
			t.Errorf("simul s1 read back as %+v", got)
		}
		want, wantGames := []game.Seat{b, c, a}, []string{"g1", "g2", "g3"}
		if len(got.Players) != 3 || len(got.Games) != 3 {
			t.Fatalf("players %+v, games %q, want %+v, %q", got.Players, got.Games, want, wantGames)
		}
		for i := range want {
			if got.Players[i] != want[i] || got.Games[i] != wantGames[i] {
				t.Errorf("board %d: %+v, %q, want %+v, %q", i+1, got.Players[i], got.Games[i], want[i], wantGames[i])
			}
		}
		if g0 := list[0]; g0.Started || g0.Host.Guest != true || len(g0.Players) != 1 || g0.Players[0].Name != "guest-y" {
			t.Errorf("simul s0 read back as %+v", g0)
		}
		if since, err := s.Simuls(ctx, day.Add(-time.Hour)); err != nil || len(since) != 1 || since[0].ID != "s1" {
			t.Errorf("simuls of the last hour: %+v %v, want s1", since, err)
		}
		n, err := s.DeleteSimulsBefore(ctx, day.Add(-24*time.Hour))
		if err != nil || n != 1 {
			t.Fatalf("DeleteSimulsBefore: %d %v, want 1", n, err)
		}
		var left int
		if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM simul_players WHERE simul_id = 's0'`).Scan(&left); err != nil || left != 0 {
			t.Errorf("the expired simul's players: %d left, %v", left, err)
		}
		if list, err := s.Simuls(ctx, time.Time{}); err != nil || len(list) != 1 || list[0].ID != "s1" {
			t.Errorf("after the deletion: %+v %v", list, err)
		}
	})
}
