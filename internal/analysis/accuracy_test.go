package analysis

import (
	"math"
	"testing"

	"github.com/toguz/toguz"
)

func TestMoveAccuracy(t *testing.T) {
	tests := []struct {
		loss, want float64
	}{
		{0, 100},
		{-2, 100}, // better than the engine saw: no bonus
		{3, 74.08},
		{6, 54.88},
		{10, 36.79},
		{12, 30.12},
		{100, 0.0045},
	}
	for _, tt := range tests {
		if got := MoveAccuracy(tt.loss); math.Abs(got-tt.want) > 0.01 {
			t.Errorf("MoveAccuracy(%g) = %.4f, want %.4f", tt.loss, got, tt.want)
		}
	}
}

// TestAccuracy: hand-made games; the plies alternate from the start
// position's mover (White), forced plies count for nobody.
func TestAccuracy(t *testing.T) {
	start := toguz.StartPosition()
	tests := []struct {
		name  string
		plies []Ply
		acc   [2]float64
		ok    [2]bool
	}{
		{"no plies", nil, [2]float64{}, [2]bool{}},
		{"perfect", []Ply{{}, {}, {}}, [2]float64{100, 100}, [2]bool{true, true}},
		{"white blunders once in three", []Ply{{}, {}, {}, {Cost: 3}, {Cost: 12}, {}},
			[2]float64{(100 + 100 + 30.12) / 3, (100 + 74.08 + 100) / 3}, [2]bool{true, true}},
		{"a forced blunder counts for nobody", []Ply{{Cost: 50, Forced: true}, {Cost: 6}},
			[2]float64{0, 54.88}, [2]bool{false, true}},
	}
	for _, tt := range tests {
		acc, ok := Accuracy(start, tt.plies)
		if ok != tt.ok {
			t.Errorf("%s: ok %v, want %v", tt.name, ok, tt.ok)
		}
		for pl := range 2 {
			if math.Abs(acc[pl]-tt.acc[pl]) > 0.01 {
				t.Errorf("%s: player %d accuracy %.3f, want %.3f", tt.name, pl, acc[pl], tt.acc[pl])
			}
		}
	}
}
