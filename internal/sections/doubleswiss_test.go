package sections

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/tournament"
)

// TestDoubleSwissSection runs a Double-Swiss section at the desk: two
// matches are four rounds, the second of each the first's boards with the
// colours swapped; a requested half-point bye covers a whole match; the
// results the arbiter enters make the standings, and the section's file
// passes the checker.
func TestDoubleSwissSection(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 6))
	reg, groups := simRegister(rng, 8)
	d := New(Config{Store: openStore(t), Register: reg})
	id, err := d.Create(ctx, 1, Settings{Name: "Cup", Federation: "KAZ", Start: "2026-06-01"},
		[]Spec{{Key: "open", Name: "Open", Discipline: federation.Rapid, System: tournament.DoubleSwiss, Rounds: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Enter(ctx, id, 1, groups[0][:7], nil); err != nil {
		t.Fatal(err)
	}
	c, _ := d.Get(ctx, id)
	if got := c.Section("open").Event.Rounds; got != 4 {
		t.Fatalf("two matches are %d rounds", got)
	}
	if err := d.Bye(ctx, id, 1, "open", groups[0][0], 3, true); err != nil {
		t.Fatal(err)
	}
	for r := 1; r <= 4; r++ {
		if _, err := d.Pair(ctx, id, 1, ""); err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		c, _ := d.Get(ctx, id)
		s := c.Section("open")
		if r%2 == 0 {
			first := map[[2]int]bool{}
			for _, b := range s.Boards(r - 1) {
				first[[2]int{b.White, b.Black}] = true
			}
			for _, b := range s.Boards(r) {
				if b.Black != 0 && !first[[2]int{b.Black, b.White}] {
					t.Fatalf("round %d: board %d-%d is no first game reversed", r, b.White, b.Black)
				}
			}
		}
		res := map[int]string{}
		for _, b := range s.Boards(r) {
			if b.Black != 0 {
				res[b.N] = []string{"1-0", "1/2", "0-1"}[rng.IntN(3)]
			}
		}
		if _, err := d.Results(ctx, id, 1, "A", "open", r, res); err != nil {
			t.Fatal(err)
		}
	}
	c, _ = d.Get(ctx, id)
	s := c.Section("open")
	if c.Status() != Finished {
		t.Fatalf("status %s", c.Status())
	}
	if p := s.Event.Player(s.Start(groups[0][0])); p.Entry(3).Code != tournament.HalfBye || p.Entry(4).Code != tournament.HalfBye {
		t.Fatalf("the requested bye: %c %c", p.Entry(3).Code, p.Entry(4).Code)
	}
	checks, err := tournament.Check(s.Event, tournament.DoubleSwissPairer{})
	if err != nil {
		t.Fatal(err)
	}
	for _, rc := range checks {
		if !rc.Same() {
			t.Fatalf("round %d: the desk %s, the checker %s %v", rc.Round, tournament.PairsText(rc.File), tournament.PairsText(rc.Ours), rc.Err)
		}
	}
	total := 0.0
	for _, st := range s.Event.Standings(-1) {
		total += st.Points
	}
	// Every game gives its players 1 point: three matches a round, four
	// rounds, 12; the pairing-allocated bye of match 1, 1.5 (0.75 a
	// round); the requested half-point bye of match 2, twice 0.5.
	if total != 12+1.5+1 {
		t.Fatalf("the standings' points add to %g", total)
	}
}
