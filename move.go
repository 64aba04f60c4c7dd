package toguz

import (
	"errors"
	"fmt"
	"math/bits"
)

// Move is the number (1..Holes) of the hole the player to move empties.
// The zero Move is NoMove.
type Move uint8

// NoMove is the zero Move: no hole.
const NoMove Move = 0

// Hole returns the hole number of the move.
func (m Move) Hole() int { return int(m) }

func (m Move) String() string {
	if m == NoMove {
		return "-"
	}
	return fmt.Sprintf("%d", uint8(m))
}

// MoveSet is a set of moves, bit h-1 for hole h. It costs nothing to build
// or to iterate, so move generation never allocates.
type MoveSet uint16

// Has reports whether m is in the set.
func (s MoveSet) Has(m Move) bool { return m != NoMove && s&(1<<(m-1)) != 0 }

// Len returns the number of moves in the set.
func (s MoveSet) Len() int { return bits.OnesCount16(uint16(s)) }

// Empty reports whether the set has no move.
func (s MoveSet) Empty() bool { return s == 0 }

// First returns the lowest move of a non-empty set.
func (s MoveSet) First() Move { return Move(bits.TrailingZeros16(uint16(s)) + 1) }

// Without returns the set less m.
func (s MoveSet) Without(m Move) MoveSet { return s &^ (1 << (m - 1)) }

// All calls yield for each move in the set, lowest hole first:
//
//	for m := range p.LegalMoves().All() { … }
func (s MoveSet) All() func(yield func(Move) bool) {
	return func(yield func(Move) bool) {
		for s != 0 {
			m := s.First()
			s &= s - 1
			if !yield(m) {
				return
			}
		}
	}
}

// Slice returns the moves in the set, lowest hole first.
func (s MoveSet) Slice() []Move {
	out := make([]Move, 0, s.Len())
	for m := range s.All() {
		out = append(out, m)
	}
	return out
}

// ErrIllegalMove is wrapped by every error about a move that cannot be played.
var ErrIllegalMove = errors.New("illegal move")

// ErrGameOver is wrapped by the error for a move played after the game ended.
var ErrGameOver = errors.New("the game is over")

// IllegalMoveError says why a move cannot be played.
type IllegalMoveError struct {
	Move   Move
	Reason string
	Err    error // a more specific sentinel such as ErrGameOver, or nil
}

func (e *IllegalMoveError) Error() string {
	return fmt.Sprintf("illegal move %d: %s", uint8(e.Move), e.Reason)
}

func (e *IllegalMoveError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrIllegalMove, e.Err}
	}
	return []error{ErrIllegalMove}
}
