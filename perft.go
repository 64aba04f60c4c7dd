package toguz

// Perft counts the move paths of the given length from p, making every move
// down to the last ply. A finished game counts as one leaf wherever it ends.
// It is the standard check of a move generator: RULES.md §7 lists the counts
// from the start.
func Perft(p Position, depth int) uint64 {
	if depth == 0 || p.IsOver() {
		return 1
	}
	return perft(p, p.sideMoves(p.Turn()), depth)
}

// perft counts from a position that is not over, whose legal moves are
// given, depth ≥ 1. The position is passed by value, in registers.
func perft(p Position, moves MoveSet, depth int) uint64 {
	var n uint64
	for moves != 0 {
		m := moves.First()
		moves &= moves - 1
		child := p.After(m)
		if depth == 1 {
			n++
			continue
		}
		// The test of IsOver, keeping the moves for the child's count.
		next := child.sideMoves(child.Turn())
		if next == 0 || child.kazanWon() {
			n++
			continue
		}
		n += perft(child, next, depth-1)
	}
	return n
}

// PerftBulk returns the same count as Perft but does not make the moves of
// the last ply: each of them is a leaf whether or not it ends the game.
func PerftBulk(p Position, depth int) uint64 {
	if depth == 0 || p.IsOver() {
		return 1
	}
	return perftBulk(p, depth)
}

func perftBulk(p Position, depth int) uint64 {
	moves := p.sideMoves(p.Turn())
	if depth == 1 {
		return countBits(moves)
	}
	var n uint64
	for moves != 0 {
		m := moves.First()
		moves &= moves - 1
		child := p.After(m)
		if child.IsOver() {
			n++
		} else {
			n += perftBulk(child, depth-1)
		}
	}
	return n
}
