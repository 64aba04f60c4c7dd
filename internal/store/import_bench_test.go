package store

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/toguz/toguz"
)

// randomGame is a game of random legal moves, to its end or 300 plies.
func randomGame(rng *rand.Rand) []toguz.Move {
	p, _ := toguz.NewPosition(toguz.Standard())
	var out []toguz.Move
	for !p.IsOver() && len(out) < 300 {
		var ms []toguz.Move
		for m := range p.LegalMoves().All() {
			ms = append(ms, m)
		}
		m := ms[rng.IntN(len(ms))]
		p, _ = p.Play(m)
		out = append(out, m)
	}
	return out
}

// BenchmarkImportGames times the largest import (1,000 games of random
// play, about 125 plies each) in the one writer's transaction: the time
// every live game's moves wait behind it
// (go test -bench ImportGames -run ^$ ./internal/store).
func BenchmarkImportGames(b *testing.B) {
	s, err := Open(b.Context(), filepath.Join(b.TempDir(), "bench.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	plies := 0
	for n := 0; b.Loop(); n++ {
		b.StopTimer()
		ims := make([]Import, 1000)
		for i := range ims {
			ims[i] = Import{Players: [2]string{fmt.Sprint(n, "/", i), "b"}, Rules: toguz.Standard(), Moves: randomGame(rng)}
			plies += len(ims[i].Moves)
		}
		b.StartTimer()
		if _, err := s.ImportGames(b.Context(), "a:x", 0, ims); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(plies)/float64(b.N), "plies/op")
}
