package dutch

import (
	"math/rand/v2"
	"testing"
	"time"
)

// stateAt plays a random n-player Swiss up to (not including) round and
// returns the input for that round.
func stateAt(tb testing.TB, n, rounds, round int, seed uint64) Input {
	r := rand.New(rand.NewPCG(seed, 7))
	s := newSim(n, rounds, White)
	for k := 1; k < round; k++ {
		in := s.input(k, nil)
		pr, err := PairRound(in)
		if err != nil {
			tb.Fatal(err)
		}
		s.play(k, pr, nil, nil, r)
	}
	return s.input(round, nil)
}

// BenchmarkPair500 pairs each round of a 500-player, 9-round Swiss.
func BenchmarkPair500(b *testing.B) {
	for _, round := range []int{2, 5, 9} {
		in := stateAt(b, 500, 9, round, 1)
		b.Run("round"+string(rune('0'+round)), func(b *testing.B) {
			for b.Loop() {
				if _, err := PairRound(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestPair500Timing plays a 500-player, 9-round Swiss and logs the slowest
// round's pairing time (the issue asks for under a second).
func TestPair500Timing(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	r := rand.New(rand.NewPCG(2, 7))
	s := newSim(500, 9, White)
	var worst time.Duration
	for k := 1; k <= 9; k++ {
		in := s.input(k, nil)
		t0 := time.Now()
		pr, st, err := PairRoundStats(in)
		d := time.Since(t0)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.check(k, in, pr); err != nil {
			t.Fatal(err)
		}
		t.Logf("round %d: %v, %d brackets, %d nodes, %d budget cuts, C7/C8 within complete pairings: %d sets by matching, %d searches bounded",
			k, d, st.Brackets, st.Nodes, st.BudgetHits, st.ExactC7, st.BestC7)
		worst = max(worst, d)
		s.play(k, pr, nil, nil, r)
	}
	t.Logf("slowest round: %v", worst)
}
