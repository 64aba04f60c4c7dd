package dubov

import (
	"fmt"
	"testing"

	"github.com/toguz/toguz/internal/tournament"
)

// TestEngineMatchesReference pairs random tournaments (forfeits, byes,
// withdrawals, late entries) round by round with the engine, and checks
// every round against the slow reference's pairing of the same input.
func TestEngineMatchesReference(t *testing.T) {
	events := 200
	if testing.Short() {
		events = 15
	}
	rounds, diffs := 0, 0
	for seed := range uint64(events) {
		cfg := tournament.GenerateConfig{Players: 4 + int(seed%10), Rounds: 3 + int(seed%5), DrawRate: 0.3,
			ForfeitRate: 0.05, ByeRate: 0.05, WithdrawRate: 0.02, LateRate: 0.1, Seed: seed}
		check := checkingPairer{t: t, rounds: &rounds, diffs: &diffs, name: fmt.Sprintf("seed %d", seed)}
		if _, err := tournament.Generate(cfg, check); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
	t.Logf("%d rounds compared, %d differences", rounds, diffs)
	if diffs > 0 {
		t.Errorf("%d of %d rounds differ from the reference", diffs, rounds)
	}
}

type checkingPairer struct {
	t             *testing.T
	rounds, diffs *int
	name          string
}

func (c checkingPairer) Pair(e *tournament.Event) ([]tournament.Pair, error) {
	in, err := InputFor(e)
	if err != nil {
		return nil, err
	}
	got, err := PairRound(in)
	want, ok := referencePair(in)
	*c.rounds++
	switch {
	case err != nil && ok:
		*c.diffs++
		c.t.Errorf("%s round %d: engine %v, reference %v", c.name, in.Round, err, want)
	case err == nil && !ok:
		*c.diffs++
		c.t.Errorf("%s round %d: engine %v, the reference finds no pairing", c.name, in.Round, got)
	case err == nil && fmt.Sprint(got) != fmt.Sprint(want):
		*c.diffs++
		c.t.Errorf("%s round %d:\nengine    %v\nreference %v\ninput %+v", c.name, in.Round, got, want, in)
	}
	if err != nil {
		return nil, err
	}
	return Pairer{}.Pair(e)
}
