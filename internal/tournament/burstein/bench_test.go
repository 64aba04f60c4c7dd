package burstein

import (
	"fmt"
	"testing"

	"github.com/toguz/toguz/internal/tournament"
)

// benchPair pairs rounds 5, 7 and 9 (after the four seeding rounds) of a
// generated n-player, 9-round Burstein Swiss (draws, forfeits, byes,
// withdrawals, late entries).
func benchPair(b *testing.B, n int) {
	ev, err := tournament.Generate(tournament.GenerateConfig{Players: n, Rounds: 9, System: tournament.Burstein,
		DrawRate: 0.3, ForfeitRate: 0.02, ByeRate: 0.02, WithdrawRate: 0.005, LateRate: 0.05, Seed: 1}, Pairer{})
	if err != nil {
		b.Fatal(err)
	}
	for _, round := range []int{5, 7, 9} {
		in, err := InputFor(ev.Before(round))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("round%d", round), func(b *testing.B) {
			for b.Loop() {
				if _, err := PairRound(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPair100 pairs a round of a 100-player Burstein Swiss.
func BenchmarkPair100(b *testing.B) { benchPair(b, 100) }

// BenchmarkPair300 pairs a round of a 300-player Burstein Swiss.
func BenchmarkPair300(b *testing.B) { benchPair(b, 300) }
