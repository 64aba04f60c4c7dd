package sections

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/tournament"
	"github.com/toguz/toguz/internal/tournament/burstein"
	"github.com/toguz/toguz/internal/tournament/dutch"
)

// TestBursteinSection runs a section by the Burstein system on the desk
// (the Swiss pairer by system, as the server connects it): a late entry
// and a requested bye are taken as in any Swiss, every round is paired,
// and the section's TRF passes the checker with the Burstein pairer.
func TestBursteinSection(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 6))
	reg, groups := simRegister(rng, 12)
	swiss := tournament.BySystem{tournament.Dutch: dutch.Pairer{}, tournament.Burstein: burstein.Pairer{}}
	d := New(Config{Store: openStore(t), Register: reg, Swiss: swiss})
	id, err := d.Create(ctx, 1, Settings{Name: "Open", Federation: "KAZ", Start: "2026-06-01"},
		[]Spec{{Key: "open", Name: "Open", Discipline: federation.Rapid, System: tournament.Burstein, Rounds: 6}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Enter(ctx, id, 1, groups[0][:11], nil); err != nil {
		t.Fatal(err)
	}
	if err := d.Bye(ctx, id, 1, "open", groups[0][0], 4, true); err != nil {
		t.Fatalf("a requested bye: %v", err)
	}
	results := []string{"1-0", "0-1", "1/2"}
	for r := 1; r <= 6; r++ {
		if _, err := d.Pair(ctx, id, 1, ""); err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		if r == 2 {
			if e, _ := d.Enter(ctx, id, 1, groups[0][11:12], nil); e[0].Error != nil {
				t.Fatalf("a late entry: %+v", e[0].Error)
			}
		}
		c, _ := d.Get(ctx, id)
		res := map[int]string{}
		for _, b := range c.Section("open").Boards(r) {
			if b.Black != 0 {
				res[b.N] = results[(b.N+r)%len(results)]
			}
		}
		if _, err := d.Results(ctx, id, 1, "A", "open", r, res); err != nil {
			t.Fatal(err)
		}
	}
	c, _ := d.Get(ctx, id)
	s := c.Section("open")
	if c.Status() != Finished || s.Event.System != tournament.Burstein {
		t.Fatalf("status %s, system %s", c.Status(), s.Event.System)
	}
	checks, err := tournament.Check(s.Event, swiss)
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range checks {
		if !ch.Same() {
			t.Errorf("round %d: the desk paired %s, the checker %s %v", ch.Round, tournament.PairsText(ch.File), tournament.PairsText(ch.Ours), ch.Err)
		}
	}
	if len(checks) != 6 {
		t.Errorf("%d rounds checked", len(checks))
	}
}
