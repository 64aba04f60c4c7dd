package puzzle

import (
	"context"
	"testing"

	"github.com/toguz/toguz/internal/tablebase"
)

// TestTablebase: with tables holding every child, the miner's goal is the
// tables' exact one and the puzzle is tagged so; Verify checks it against
// the tables too.
func TestTablebase(t *testing.T) {
	tb, err := tablebase.Solve(context.Background(), 4, 0, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		fen  string
		goal Goal
		held bool
	}{
		// 9 takes Black's hole 1 (1+1 = 2, even) and reaches 82; 1 does not.
		{"4,1S,3,1S/1S,7,1S 80 78 S 1", Win, true},
		{"9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1", 0, false},
	} {
		p := fen(t, c.fen)
		g, held := ExactGoal(tb, p)
		if g != c.goal || held != c.held {
			t.Errorf("%s: ExactGoal = %v %v, want %v %v", c.fen, g, held, c.goal, c.held)
		}
		if !held {
			continue
		}
		cfg := DefaultConfig()
		cfg.Tablebase = tb
		m, err := NewMiner(cfg)
		if err != nil {
			t.Fatal(err)
		}
		pz, ok := m.Mine(context.Background(), Candidate{Pos: p})
		if !ok || pz.Goal != c.goal || !pz.Has(Tablebase) {
			t.Errorf("%s: Mine = %v %+v", c.fen, ok, pz)
			continue
		}
		s, _ := NewSearcher(cfg)
		if err := Verify(context.Background(), s, pz, VerifyDepth, cfg); err != nil {
			t.Error(err)
		}
		pz.Goal = Save
		if err := Verify(context.Background(), s, pz, VerifyDepth, cfg); err == nil {
			t.Errorf("%s: a wrong goal passes the tablebase", c.fen)
		}
	}
}
