package sections

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/tournament"
	"github.com/toguz/toguz/internal/tournament/dubov"
	"github.com/toguz/toguz/internal/tournament/dutch"
)

// TestDubovSection runs a section paired by the Dubov system at the desk
// (the Swiss pairers connected by system): late entries and byes asked for
// in advance are allowed as in any Swiss, and every round is the Dubov
// pairer's (FIDE's checker over the section's event agrees).
func TestDubovSection(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	reg, groups := simRegister(rng, 9)
	now := time.Date(2026, 5, 10, 9, 0, 0, 0, time.UTC)
	swiss := tournament.BySystem{tournament.Dutch: dutch.Pairer{}, tournament.Dubov: dubov.Pairer{}}
	d := New(Config{Store: openStore(t), Register: reg, Swiss: swiss, Now: func() time.Time { return now }})
	const arbiter = 7
	spec := Spec{Key: "open", Name: "Open", Discipline: federation.Classic, System: tournament.Dubov, Rounds: 5, TC: "60+30"}
	id, err := d.Create(ctx, arbiter, Settings{Name: "Dubov Cup", City: "Taraz", Federation: "kaz", Start: "2026-05-10", End: "2026-05-14"}, []Spec{spec})
	if err != nil {
		t.Fatal(err)
	}
	if e, err := d.Enter(ctx, id, arbiter, slices.Concat(groups[0][:8], groups[1][:3]), nil); err != nil || e[0].Error != nil {
		t.Fatalf("entries: %+v %v", e, err)
	}
	if err := d.Bye(ctx, id, arbiter, "open", groups[0][2], 2, true); err != nil {
		t.Fatal(err)
	}
	for r := 1; r <= 5; r++ {
		if _, err := d.Pair(ctx, id, arbiter, ""); err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		if r == 1 {
			if e, err := d.Enter(ctx, id, arbiter, []string{groups[0][8]}, nil); err != nil || e[0].Error != nil {
				t.Fatalf("a late entry: %+v %v", e, err)
			}
		}
		c, err := d.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		s := c.Sections[0]
		res := map[int]string{}
		for _, b := range s.Boards(r) {
			if b.Black != 0 {
				res[b.N] = randomResult(rng, s.Event.Player(b.White).Rating, s.Event.Player(b.Black).Rating)
			}
		}
		if _, err := d.Results(ctx, id, arbiter, "Arbiter", "open", r, res); err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
	}
	c, err := d.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	ev := c.Sections[0].Event
	if ev.System != tournament.Dubov {
		t.Fatalf("the section's system is %q", ev.System)
	}
	checks, err := tournament.Check(ev, swiss)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range checks {
		if !k.Same() {
			t.Errorf("round %d: the desk paired %s, the checker %s %v", k.Round, tournament.PairsText(k.File), tournament.PairsText(k.Ours), k.Err)
		}
	}
}
