package store

import (
	"slices"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/game"
)

// TestLeases: a lease is taken when free, expired or one's own, refused
// while another node holds it, renewed in bulk (a node learns which it
// still holds), released as expired (a clean stop) or deleted, and a game
// being played with no live lease is an orphan.
func TestLeases(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		ttl := 4 * time.Second
		mustTake := func(game, node string, now time.Time, want bool) game.Lease {
			t.Helper()
			prev, ok, err := s.TakeLease(ctx, game, node, now, ttl)
			if err != nil || ok != want {
				t.Fatalf("TakeLease(%s, %s, %v) = %+v, %v, %v; want ok %v", game, node, now.Sub(t0), prev, ok, err, want)
			}
			return prev
		}
		if prev := mustTake("g1", "A", t0, true); prev.Node != "" {
			t.Errorf("a new lease had a holder: %+v", prev)
		}
		if prev := mustTake("g1", "B", t0.Add(time.Second), false); prev.Node != "A" || !prev.Expires.Equal(t0.Add(ttl)) {
			t.Errorf("refused lease: %+v", prev)
		}
		mustTake("g1", "A", t0.Add(2*time.Second), true) // one's own: renewed
		held, err := s.RenewLeases(ctx, "A", t0.Add(3*time.Second), ttl)
		if err != nil || len(held) != 1 || held[0] != "g1" {
			t.Fatalf("RenewLeases = %v, %v", held, err)
		}
		mustTake("g1", "B", t0.Add(3*time.Second+ttl-time.Millisecond), false)
		// A stops renewing: B takes it once expired, and learns when A last ran.
		prev := mustTake("g1", "B", t0.Add(3*time.Second+ttl), true)
		if prev.Node != "A" || !prev.Renewed.Equal(t0.Add(3*time.Second)) {
			t.Errorf("taken over from %+v; want A, renewed at +3s", prev)
		}
		if held, err := s.RenewLeases(ctx, "A", t0.Add(8*time.Second), ttl); err != nil || len(held) != 0 {
			t.Errorf("A still holds %v, %v", held, err)
		}
		if l, err := s.Lease(ctx, "g1"); err != nil || l.Node != "B" {
			t.Errorf("Lease = %+v, %v", l, err)
		}
		// A clean stop expires it at once; the game needing no owner deletes it.
		at := t0.Add(9 * time.Second)
		if err := s.ReleaseLease(ctx, "g1", "B", at); err != nil {
			t.Fatal(err)
		}
		if prev := mustTake("g1", "A", at, true); prev.Node != "B" || !prev.Renewed.Equal(at) {
			t.Errorf("after a clean stop: %+v", prev)
		}
		if err := s.ReleaseLease(ctx, "g1", "B", time.Time{}); err != nil { // not B's: nothing happens
			t.Fatal(err)
		}
		if l, _ := s.Lease(ctx, "g1"); l.Node != "A" {
			t.Errorf("B released A's lease: %+v", l)
		}
		if err := s.ReleaseLease(ctx, "g1", "A", time.Time{}); err != nil {
			t.Fatal(err)
		}
		if l, _ := s.Lease(ctx, "g1"); l.Node != "" {
			t.Errorf("deleted lease still there: %+v", l)
		}

		// Orphans: the games being played without a live lease.
		var ids []string
		for range 3 {
			g, err := s.CreateGame(ctx, Game{Players: [2]game.Seat{{Name: "a"}, {Name: "b"}}, Rules: toguz.Standard(), Status: game.Playing}, nil)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, g.ID)
		}
		mustTake(ids[0], "A", t0, true)                      // live until +4s
		mustTake(ids[1], "A", t0.Add(-10*time.Second), true) // expired
		orphans, err := s.Orphans(ctx, t0.Add(time.Second))
		slices.Sort(orphans)
		want := []string{ids[1], ids[2]}
		slices.Sort(want)
		if err != nil || !slices.Equal(orphans, want) {
			t.Errorf("Orphans = %v, %v; want %v", orphans, err, want)
		}
	})
}
