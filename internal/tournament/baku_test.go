package tournament

import (
	"fmt"
	"testing"
)

// TestBakuPoints follows C.04.5.1's examples: 161 players make a GA of 82
// (2·⌈161/4⌉, the last GA player's pairing number); in nine rounds five are
// accelerated, GA having one virtual point in the first three and half a
// point in the next two; GB never has any.
func TestBakuPoints(t *testing.T) {
	for _, c := range []struct{ players, ga int }{{161, 82}, {160, 80}, {10, 6}, {9, 6}, {8, 4}, {7, 4}, {2, 2}} {
		e := New("Open", DutchBaku, 9)
		for i := range c.players {
			if _, err := e.AddPlayer(Player{Name: fmt.Sprintf("P%d", i+1)}, ZeroBye); err != nil {
				t.Fatal(err)
			}
		}
		if got := e.BakuGA(); got != c.ga {
			t.Errorf("%d players: GA to %d, want %d", c.players, got, c.ga)
		}
	}
	e := New("Open", DutchBaku, 9)
	for i := range 161 {
		if _, err := e.AddPlayer(Player{Name: fmt.Sprintf("P%d", i+1)}, ZeroBye); err != nil {
			t.Fatal(err)
		}
	}
	want := []float64{1, 1, 1, 0.5, 0.5, 0, 0, 0, 0}
	for r := 1; r <= 9; r++ {
		if got := e.BakuPoints(82, r); got != want[r-1] {
			t.Errorf("the last GA player, round %d: %g virtual points, want %g", r, got, want[r-1])
		}
		if got := e.BakuPoints(83, r); got != 0 {
			t.Errorf("the first GB player, round %d: %g virtual points", r, got)
		}
	}
	// Eleven rounds: six accelerated, three of them with a full point.
	e.Rounds = 11
	if got := []float64{e.BakuPoints(1, 3), e.BakuPoints(1, 4), e.BakuPoints(1, 6), e.BakuPoints(1, 7)}; fmt.Sprint(got) != "[1 0.5 0.5 0]" {
		t.Errorf("11 rounds: rounds 3, 4, 6, 7 give %v", got)
	}
	// After round 1, a late entry does not move the last GA player.
	e.Rounds = 9
	if err := e.Apply(1, []Pair{{1, 2}}); err != nil {
		t.Fatal(err)
	}
	for i := 3; i <= 161; i++ {
		e.Player(i).Rounds = []Entry{{Opponent: i ^ 1, Colour: White, Code: Win}}
	}
	if _, err := e.AddPlayer(Player{Name: "Late"}, ZeroBye); err != nil {
		t.Fatal(err)
	}
	if got := e.BakuGA(); got != 82 {
		t.Errorf("after a late entry GA ends at %d, want 82", got)
	}
}
