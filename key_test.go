package toguz

import (
	"math/rand/v2"
	"testing"
)

// TestKeyAndRingStones walks random games: equal positions have equal keys,
// distinct ones distinct keys, and RingStones agrees with Stones.
func TestKeyAndRingStones(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	seen := make(map[uint64]Position)
	for _, r := range []Rules{Standard(), Bestemshe(), Seven(), Pre1949()} {
		for range 200 {
			p, err := NewPosition(r)
			if err != nil {
				t.Fatal(err)
			}
			for !p.IsOver() {
				k := p.Key()
				if q, ok := seen[k]; ok && q != p {
					t.Fatalf("key %x of %s and %s", k, p.FEN(), q.FEN())
				}
				seen[k] = p
				if c := p; c.Key() != k {
					t.Fatalf("a copy of %s has another key", p.FEN())
				}
				ring := p.RingStones()
				for i, n := range ring {
					want := 0
					if i < 2*p.Holes() {
						want = p.Stones(Player(i/p.Holes()), i%p.Holes()+1)
					}
					if int(n) != want {
						t.Fatalf("%s: RingStones()[%d] = %d, want %d", p.FEN(), i, n, want)
					}
				}
				ms := p.LegalMoves().Slice()
				p = p.After(ms[rng.IntN(len(ms))])
			}
		}
	}
	if len(seen) < 10000 {
		t.Errorf("only %d positions seen", len(seen))
	}
}
