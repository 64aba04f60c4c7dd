package toguz

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Ply is a move as the score sheet writes it (docs/rules.md §6): the hole played,
// the number of the hole where the last stone fell (on either side; the side
// is not written) and whether the move made a tuzdik. "76" is hole 7 landing
// on hole 6; "48x" is hole 4 landing on hole 8 and making it a tuzdik.
//
// The short form (seed 004: "a short record by one digit, the number of the
// hole played, is possible") writes the hole alone, "7": its Land is 0, and
// neither the landing nor a tuzdik is claimed.
//
// A Ply read from text is only what was written; Position.PlayPly checks it
// against the rules.
type Ply struct {
	Move   Move // the hole emptied, 1..Holes
	Land   int  // the number of the hole the last stone fell into, 1..Holes; 0 in the short form
	Tuzdik bool // the move made a tuzdik (written x)
}

// String writes the ply as the score sheet does: two digits and an x when
// the move made a tuzdik; the hole alone in the short form.
func (y Ply) String() string {
	b := make([]byte, 0, 3)
	return string(y.appendTo(b))
}

// AppendText appends the ply's score-sheet form (String) to b: many plies'
// notations written into one buffer. It never fails.
func (y Ply) AppendText(b []byte) ([]byte, error) { return y.appendTo(b), nil }

// appendTo appends the score-sheet form of the ply to b.
func (y Ply) appendTo(b []byte) []byte {
	b = append(b, '0'+byte(y.Move))
	if y.Land != 0 {
		b = append(b, '0'+byte(y.Land))
	}
	if y.Tuzdik {
		b = append(b, 'x')
	}
	return b
}

// ErrNotation is wrapped by every error about a ply, kazan annotation or
// recorded ending that disagrees with the rules.
var ErrNotation = errors.New("wrong notation")

// NotationError says how a ply disagrees with the rules.
type NotationError struct {
	Ply    Ply    // the ply as written
	Reason string // what the rules give, e.g. "lands on black's hole 5, not 8"
}

func (e *NotationError) Error() string { return e.Ply.String() + " " + e.Reason }

func (e *NotationError) Unwrap() error { return ErrNotation }

// ParsePly reads a score-sheet ply: two digits, then optionally a tuzdik mark
// x (also X and the Cyrillic х and Х); or the short form, the hole's digit
// alone. It checks only the text; use Position.PlayPly to check it against
// a position.
func ParsePly(s string) (Ply, error) {
	y, n := scanPly(s)
	if n == 0 || n != len(s) {
		return Ply{}, fmt.Errorf("%w: ply %q: want two digits (hole played, hole of the last stone) and an optional x, or the hole alone", ErrSyntax, excerpt(s))
	}
	return y, nil
}

// scanPly reads a ply at the start of s and returns it and the number of
// bytes read, 0 when s does not start with a ply.
func scanPly(s string) (Ply, int) {
	if len(s) == 0 || !isDigit1(s[0]) {
		return Ply{}, 0
	}
	if len(s) == 1 || s[1] < '0' || s[1] > '9' {
		return Ply{Move: Move(s[0] - '0')}, 1 // the short form: no landing, no mark
	}
	if !isDigit1(s[1]) {
		return Ply{}, 0
	}
	y := Ply{Move: Move(s[0] - '0'), Land: int(s[1] - '0')}
	n := 2
	if len(s) > 2 {
		switch r, size := utf8.DecodeRuneInString(s[2:]); r {
		case 'x', 'X', 'х', 'Х':
			y.Tuzdik = true
			n += size
		}
	}
	return y, n
}

func isDigit1(c byte) bool { return c >= '1' && c <= '9' }

// Landing returns the side and the number of the hole where the last stone
// of m falls. m must be a legal move.
func (p Position) Landing(m Move) (Player, int) {
	h := p.Holes()
	ring := 2 * h
	from := int(p.Turn())*h + int(m) - 1
	n := p.Stones(p.Turn(), int(m))
	last := from + n // the sowing starts in the next hole
	if n > 1 && p.Rules().OriginSowing {
		last-- // the first stone goes back into the emptied hole
	}
	last %= ring
	return Player(last / h), last%h + 1
}

// Ply returns the score-sheet ply of m, which must be legal, and the
// position after it.
func (p Position) Ply(m Move) (Ply, Position) {
	_, land := p.Landing(m)
	next := p.After(m)
	me := p.Turn()
	return Ply{Move: m, Land: land, Tuzdik: p.Tuzdik(me) == 0 && next.Tuzdik(me) != 0}, next
}

// Notation returns the score-sheet form of m ("76", "48x"), or an error when
// m is not legal here.
func (p Position) Notation(m Move) (string, error) {
	if err := p.CheckMove(m); err != nil {
		return "", err
	}
	y, _ := p.Ply(m)
	return y.String(), nil
}

// PlayPly plays the move of y and checks that the landing digit and the
// tuzdik mark agree with the rules (in the short form, only the mark, if
// any). An illegal move gets an
// *IllegalMoveError; a disagreement a *NotationError that says what the
// rules give ("48 lands on black's hole 5, not 8").
func (p Position) PlayPly(y Ply) (Position, error) {
	if err := p.CheckMove(y.Move); err != nil {
		return p, err
	}
	got, next := p.Ply(y.Move)
	switch {
	case y.Land == 0 && !y.Tuzdik:
	case y.Land == 0:
		if !got.Tuzdik {
			return p, &NotationError{y, "is marked x but makes no tuzdik"}
		}
	case got.Land != y.Land:
		side, _ := p.Landing(y.Move)
		return p, &NotationError{y, fmt.Sprintf("lands on %s's hole %d, not %d", side, got.Land, y.Land)}
	case got.Tuzdik && !y.Tuzdik:
		return p, &NotationError{y, fmt.Sprintf("makes %s's hole %d a tuzdik, so it is written %s", p.Turn().Other(), got.Land, got)}
	case !got.Tuzdik && y.Tuzdik:
		return p, &NotationError{y, "is marked x but makes no tuzdik"}
	}
	return next, nil
}

// ParsePlies reads score-sheet plies separated by spaces ("76 98 48 36x")
// and plays them from p, checking each. It returns the moves and the final
// position; the error is a *ParseError naming the ply and its column.
func ParsePlies(p Position, s string) ([]Move, Position, error) {
	var moves []Move
	col := 1
	for i := 0; i < len(s); {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			i++
			col++
			continue
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' && s[j] != '\r' {
			j++
		}
		word := s[i:j]
		y, err := ParsePly(word)
		if err == nil {
			var next Position
			next, err = p.PlayPly(y)
			p = next
		}
		if err != nil {
			msg, cause := explainPly(word, err)
			return moves, p, &ParseError{Column: col, Ply: len(moves) + 1, Msg: msg, Err: cause}
		}
		moves = append(moves, y.Move)
		col += utf8.RuneCountInString(word)
		i = j
	}
	return moves, p, nil
}

// explainPly splits the error of the ply written as word into the message
// and the cause of a ParseError, so that the text reads once: "48 lands on
// black's hole 5, not 8: wrong notation", `ply "4": want two digits…`,
// "48: illegal move 4: the hole is empty".
func explainPly(word string, err error) (string, error) {
	var ne *NotationError
	switch {
	case errors.As(err, &ne):
		return ne.Error(), ErrNotation
	case errors.Is(err, ErrSyntax):
		return strings.TrimPrefix(err.Error(), ErrSyntax.Error()+": "), ErrSyntax
	}
	return word, err
}
