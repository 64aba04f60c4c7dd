package teamswiss

import (
	"math/rand/v2"
	"testing"
)

// TestLargeEvents plays bigger events through the engine and checks each
// round's invariants (the reference cannot enumerate them).
func TestLargeEvents(t *testing.T) {
	sizes := []int{17, 24, 40, 61}
	if testing.Short() {
		sizes = []int{17, 24}
	}
	rnd := rand.New(rand.NewPCG(4, 6))
	for _, n := range sizes {
		for typ := range PreferenceType(3) {
			s := newSim(n, 4, rnd)
			for r := 1; r <= 9; r++ {
				in := s.input(r, 9, typ)
				p, err := PairRound(in)
				if err != nil {
					t.Fatalf("%d teams round %d: %v", n, r, err)
				}
				if p.BudgetHit {
					t.Errorf("%d teams round %d: the search hit its budget", n, r)
				}
				checkRound(t, in, p)
				s.play(in, p)
			}
		}
	}
}

// eventAt plays n teams through rounds-1 rounds and returns the input of
// the last round.
func eventAt(n, rounds int) Input {
	rnd := rand.New(rand.NewPCG(uint64(n), 9))
	s := newSim(n, 4, rnd)
	for r := 1; r < rounds; r++ {
		in := s.input(r, rounds, TypeA)
		p, err := PairRound(in)
		if err != nil {
			panic(err)
		}
		s.play(in, p)
	}
	in := s.input(rounds, rounds, TypeA)
	for i := range in.Teams {
		in.Teams[i].Absent = false
	}
	return in
}

func benchRound(b *testing.B, n, round int) {
	in := eventAt(n, round)
	for b.Loop() {
		if _, err := PairRound(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRound5Of60Teams(b *testing.B)  { benchRound(b, 60, 5) }
func BenchmarkRound9Of150Teams(b *testing.B) { benchRound(b, 150, 9) }
