package puzzle

import (
	"math/rand/v2"
	"testing"
)

// TestPick: a theme filter gives puzzles of that theme, and a streak of n
// draws harder puzzles as n grows.
func TestPick(t *testing.T) {
	set, err := loadSet()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, th := range AllThemes {
		if p, ok := set.pick(th, -1, rng); ok && !p.Has(th) {
			t.Errorf("theme %s drew %s %v", th, p.ID, p.Themes)
		}
	}
	low, _ := set.pick("", 0, rng)
	high, _ := set.pick("", 14, rng)
	if low.Depth > high.Depth || low.Depth != 1 {
		t.Errorf("streak: depth %d at 0, %d at 14", low.Depth, high.Depth)
	}
}
