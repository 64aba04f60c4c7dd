// Package refrules is a deliberately slow and simple implementation of the
// Toguz Kumalak rules, written straight from docs/rules.md §2–§3 for any ruleset,
// to check the fast package toguz against.
//
// It shares no code with package toguz: it uses only toguz's types (Rules,
// Player, Move, Outcome, Setup) so that positions and results can be
// compared. The board is a plain array, sowing moves one stone at a time,
// and every rule is an explicit check in the order docs/rules.md gives it.
//
// # Index
//
//   - Position: the state of a game; New starts one, FromSetup and
//     Position.Setup convert from and to toguz.Setup.
//   - Position.LegalMoves, Position.Play: the moves and their effect.
//   - Position.IsOver, Position.Outcome: the end of the game and its score.
//   - Perft: move-path counts, a finished game counting as a leaf.
package refrules

import (
	"errors"
	"fmt"

	"github.com/toguz/toguz"
)

// maxHoles bounds the board arrays; it equals toguz.MaxHoles.
const maxHoles = 9

// Position is a game state. It is comparable, so tests can compare two
// positions with ==; holes past Rules.Holes stay zero.
type Position struct {
	Rules toguz.Rules
	// Board[pl][h-1] is the number of stones in pl's hole h.
	Board [2][maxHoles]int
	// Kazan[pl] is the number of stones pl has captured.
	Kazan [2]int
	// Tuzdik[pl] is the number (1..Holes) of the opponent's hole that pl
	// owns, or 0.
	Tuzdik [2]int
	// Turn is the player to move.
	Turn toguz.Player
}

// New returns the starting position under r: Stones stones in every hole,
// empty kazans, White to move.
func New(r toguz.Rules) Position {
	p := Position{Rules: r, Turn: toguz.White}
	for pl := range 2 {
		for h := 0; h < r.Holes; h++ {
			p.Board[pl][h] = r.Stones
		}
	}
	return p
}

// FromSetup copies a toguz.Setup, which must already be valid.
func FromSetup(s toguz.Setup) Position {
	p := Position{Rules: s.Rules, Kazan: s.Kazan, Tuzdik: s.Tuzdik, Turn: s.Turn}
	for pl := range 2 {
		copy(p.Board[pl][:], s.Board[pl])
	}
	return p
}

// Setup returns the position as a toguz.Setup.
func (p Position) Setup() toguz.Setup {
	s := toguz.Setup{Rules: p.Rules, Kazan: p.Kazan, Tuzdik: p.Tuzdik, Turn: p.Turn}
	for pl := range 2 {
		s.Board[pl] = append([]int(nil), p.Board[pl][:p.Rules.Holes]...)
	}
	return s
}

// isTuzdik reports whether pl's hole h belongs to pl's opponent as his
// tuzdik.
func (p Position) isTuzdik(pl toguz.Player, h int) bool {
	return p.Tuzdik[pl.Other()] == h
}

// stonesOnSide counts the stones in pl's holes that are not tuzdiks.
func (p Position) stonesOnSide(pl toguz.Player) int {
	n := 0
	for h := 1; h <= p.Rules.Holes; h++ {
		if !p.isTuzdik(pl, h) {
			n += p.Board[pl][h-1]
		}
	}
	return n
}

// kazanWins reports whether a kazan holds 82 or more (more than half of the
// stones) and the rules stop the game there.
func (p Position) kazanWins() bool {
	if p.Rules.PlayOut {
		return false
	}
	half := p.Rules.Holes * p.Rules.Stones
	return p.Kazan[0] > half || p.Kazan[1] > half
}

// IsOver reports whether the game has ended: a kazan has more than half of
// the stones (unless the game is played out), or the player to move has no
// stone in a non-tuzdik hole (atsyrau).
func (p Position) IsOver() bool {
	return p.kazanWins() || p.stonesOnSide(p.Turn) == 0
}

// LegalMoves returns the holes the player to move may empty, lowest first:
// none once the game is over, else every non-empty hole of his that is not
// a tuzdik.
func (p Position) LegalMoves() []toguz.Move {
	if p.IsOver() {
		return nil
	}
	var moves []toguz.Move
	for h := 1; h <= p.Rules.Holes; h++ {
		if !p.isTuzdik(p.Turn, h) && p.Board[p.Turn][h-1] > 0 {
			moves = append(moves, toguz.Move(h))
		}
	}
	return moves
}

// ErrIllegal is returned by Play for a move that cannot be played.
var ErrIllegal = errors.New("illegal move")

// spot is one hole: its owner's side and its number.
type spot struct {
	side toguz.Player
	hole int // 1..Holes
}

// next returns the hole after s in sowing order: along a side from hole 1
// to the last, then on to the other side's hole 1.
func (p Position) next(s spot) spot {
	if s.hole < p.Rules.Holes {
		return spot{s.side, s.hole + 1}
	}
	return spot{s.side.Other(), 1}
}

// Play returns the position after the player to move empties hole m.
func (p Position) Play(m toguz.Move) (Position, error) {
	me := p.Turn
	h := int(m)
	switch {
	case p.IsOver():
		return p, fmt.Errorf("%w: the game is over", ErrIllegal)
	case h < 1 || h > p.Rules.Holes:
		return p, fmt.Errorf("%w: no hole %d", ErrIllegal, h)
	case p.isTuzdik(me, h):
		return p, fmt.Errorf("%w: hole %d is a tuzdik", ErrIllegal, h)
	case p.Board[me][h-1] == 0:
		return p, fmt.Errorf("%w: hole %d is empty", ErrIllegal, h)
	}

	// §2.2: take every stone. With two or more, the first goes back into
	// the emptied hole (unless the rules say otherwise); a single stone
	// moves to the next hole.
	n := p.Board[me][h-1]
	p.Board[me][h-1] = 0
	at := spot{me, h}
	if n == 1 || !p.Rules.OriginSowing {
		at = p.next(at)
	}
	for {
		if p.isTuzdik(at.side, at.hole) {
			// §2.3: a stone sown into a tuzdik goes to its owner's kazan.
			p.Kazan[at.side.Other()]++
		} else {
			p.Board[at.side][at.hole-1]++
		}
		n--
		if n == 0 {
			break
		}
		at = p.next(at)
	}

	// §2.4: the last stone in an opponent's hole that is not a tuzdik.
	opp := me.Other()
	if at.side == opp && !p.isTuzdik(at.side, at.hole) {
		c := p.Board[opp][at.hole-1]
		switch {
		case c%2 == 0:
			p.Kazan[me] += c
			p.Board[opp][at.hole-1] = 0
		case c == 3 && p.Rules.Tuzdik &&
			p.Tuzdik[me] == 0 && // (a) one tuzdik per player
			at.hole != p.Rules.Holes && // (b) never the last hole
			p.Tuzdik[opp] != at.hole: // (c) not the mirror of his tuzdik
			p.Tuzdik[me] = at.hole
			p.Kazan[me] += 3
			p.Board[opp][at.hole-1] = 0
		}
	}
	p.Turn = opp
	return p, nil
}

// Outcome returns how the rules end the game, as toguz.Outcome: ByKazan when
// a kazan holds more than half of the stones; ByAtsyrau when the player to
// move has no stone, after the other player has added the stones on his side
// to his kazan, or ByDraw when the board was already empty and the kazans
// hold half each (81–81); Unterminated (with the kazans as Score) otherwise.
func (p Position) Outcome() toguz.Outcome {
	o := toguz.Outcome{Score: p.Kazan}
	switch {
	case p.kazanWins():
		o.Termination = toguz.ByKazan
	case p.stonesOnSide(p.Turn) == 0:
		o.Termination = toguz.ByAtsyrau
		other := p.Turn.Other()
		o.Score[other] += p.stonesOnSide(other)
	default:
		return o
	}
	half := p.Rules.Holes * p.Rules.Stones
	switch {
	case o.Score[toguz.White] > half:
		o.Result = toguz.WhiteWins
	case o.Score[toguz.Black] > half:
		o.Result = toguz.BlackWins
	default:
		o.Result = toguz.Draw
		if p.Kazan[0] == half && p.Kazan[1] == half {
			o.Termination = toguz.ByDraw
		}
	}
	return o
}

// Perft counts the move paths of depth plies from p; a finished game is a
// leaf wherever it ends.
func Perft(p Position, depth int) uint64 {
	if depth == 0 || p.IsOver() {
		return 1
	}
	var n uint64
	for _, m := range p.LegalMoves() {
		q, err := p.Play(m)
		if err != nil {
			panic(err) // LegalMoves returned a move Play refuses: a bug here
		}
		n += Perft(q, depth-1)
	}
	return n
}
