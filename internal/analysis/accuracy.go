package analysis

import (
	"math"

	"github.com/toguz/toguz"
)

// AccuracyScale is the loss, in stones, that brings a move's accuracy down
// to 100/e ≈ 36.8 (docs/review.md).
const AccuracyScale = 10.0

// MoveAccuracy maps the stones a move lost (its Ply.Cost: the drop of the
// mover's expected stone margin between the engine's best move and the move
// played, never below 0, a proven result counting 100 stones) to 0..100:
//
//	a(L) = 100 · e^(−L / AccuracyScale)
//
// so the best move scores 100, an inaccuracy of 3 stones 74.1, a mistake of
// 6 stones 54.9, a blunder of 12 stones 30.1, and a thrown-away win about 0.
func MoveAccuracy(loss float64) float64 {
	return 100 * math.Exp(-max(loss, 0)/AccuracyScale)
}

// Accuracy returns each player's accuracy over the plies played from
// start: the mean of MoveAccuracy over his plies that were not forced (a
// ply with one legal move says nothing of its player), and whether he had
// any such ply (a player with none has no accuracy).
func Accuracy(start toguz.Position, plies []Ply) (acc [2]float64, ok [2]bool) {
	var sum [2]float64
	var n [2]int
	turn := start.Turn()
	for _, p := range plies {
		if !p.Forced {
			sum[turn] += MoveAccuracy(p.Cost)
			n[turn]++
		}
		turn = turn.Other()
	}
	for pl := range 2 {
		if n[pl] > 0 {
			acc[pl], ok[pl] = sum[pl]/float64(n[pl]), true
		}
	}
	return acc, ok
}
