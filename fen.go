package toguz

import (
	"fmt"
	"strconv"
	"strings"
)

// FEN returns the position string of p on its own, with move number 1; see
// FormatFEN. A position does not know how many moves led to it: to write the
// position of a game in progress, pass FullMove's number to FormatFEN.
func (p Position) FEN() string { return FormatFEN(p, 1) }

// FormatFEN writes PlayStrategy's position string (docs/rules.md §6), generalised
// to any board size: `NORTH/SOUTH K1 K2 TURN FULLMOVE`. NORTH lists Black's
// holes from the last to hole 1, SOUTH White's from hole 1; a cell is `<n>S`
// for n stones, a digit d for d empty holes in a row, or `t` for a tuzdik
// (owned by the other row's player). K1 and K2 are White's and Black's
// kazans, TURN is S (White) or N (Black).
func FormatFEN(p Position, fullmove int) string {
	return string(AppendFEN(make([]byte, 0, 64), p, fullmove))
}

// AppendFEN appends FormatFEN's string to dst: one allocation at most, for
// the server's states, which write a game's every position.
func AppendFEN(dst []byte, p Position, fullmove int) []byte {
	start := len(dst)
	row := func(pl Player, from, step int) {
		empty := 0
		sep := func() {
			if len(dst) > start && dst[len(dst)-1] != '/' {
				dst = append(dst, ',')
			}
		}
		flush := func() {
			if empty > 0 {
				sep()
				dst = strconv.AppendInt(dst, int64(empty), 10)
				empty = 0
			}
		}
		for i, h := 0, from; i < p.Holes(); i, h = i+1, h+step {
			switch n := p.Stones(pl, h); {
			case p.IsTuzdik(pl, h):
				flush()
				sep()
				dst = append(dst, 't')
			case n == 0:
				empty++
			default:
				flush()
				sep()
				dst = strconv.AppendInt(dst, int64(n), 10)
				dst = append(dst, 'S')
			}
		}
		flush()
	}
	row(Black, p.Holes(), -1) // North: Black's holes from the last
	dst = append(dst, '/')
	row(White, 1, 1)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(p.Kazan(White)), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(p.Kazan(Black)), 10)
	if p.Turn() == Black {
		dst = append(dst, " N "...)
	} else {
		dst = append(dst, " S "...)
	}
	return strconv.AppendInt(dst, int64(fullmove), 10)
}

// ParseFEN reads a position string as FormatFEN writes it, for a game under
// r, and returns the position and its move number. The error is a
// *ParseError whose Column points at the offending field, and it wraps
// ErrSyntax or ErrPosition.
func ParseFEN(s string, r Rules) (Position, int, error) {
	if err := r.Validate(); err != nil {
		return Position{}, 0, fenError(0, err, "position string")
	}
	fields := strings.Fields(s)
	if len(fields) != 5 {
		return Position{}, 0, fenError(1, ErrSyntax, "position string %q has %d fields, want 5: NORTH/SOUTH K1 K2 TURN FULLMOVE", s, len(fields))
	}
	setup := Setup{Rules: r}
	if err := parseFENBoard(&setup, fields[0], fenColumn(s, fields, 0)); err != nil {
		return Position{}, 0, err
	}
	for i := range 2 {
		k, err := strconv.Atoi(fields[1+i])
		if err != nil || k < 0 {
			return Position{}, 0, fenError(fenColumn(s, fields, 1+i), ErrSyntax, "kazan %q is not a number of stones", fields[1+i])
		}
		setup.Kazan[i] = k
	}
	switch fields[3] {
	case "S", "s":
		setup.Turn = White
	case "N", "n":
		setup.Turn = Black
	default:
		return Position{}, 0, fenError(fenColumn(s, fields, 3), ErrSyntax, "turn %q: want S (White) or N (Black)", fields[3])
	}
	full, err := strconv.Atoi(fields[4])
	if err != nil || full < 1 {
		return Position{}, 0, fenError(fenColumn(s, fields, 4), ErrSyntax, "move number %q: want a whole number from 1", fields[4])
	}
	p, err := setup.Position()
	if err != nil {
		return Position{}, 0, fenError(1, err, "position string %q", s)
	}
	return p, full, nil
}

// fenError is ParseFEN's error at column col.
func fenError(col int, err error, format string, args ...any) error {
	return &ParseError{Column: col, Msg: fmt.Sprintf(format, args...), Err: err}
}

// fenColumn returns the 1-based column in s of fields[i], fields being
// strings.Fields(s).
func fenColumn(s string, fields []string, i int) int {
	off := 0
	rest := s
	for j := 0; j <= i; j++ {
		k := strings.Index(rest, fields[j])
		if j == i {
			return off + k + 1
		}
		off += k + len(fields[j])
		rest = rest[k+len(fields[j]):]
	}
	return 0
}

// parseFENBoard reads the board field of a position string, at column
// col, into setup's Board and Tuzdik.
func parseFENBoard(setup *Setup, board string, col int) error {
	holes := setup.Rules.Holes
	rows := strings.Split(board, "/")
	if len(rows) != 2 {
		return fenError(col, ErrSyntax, "board %q must be two rows separated by one '/'", board)
	}
	var tuzdikOn [2][]int // holes marked t in each player's row
	rowCol := col
	for i, text := range rows {
		pl := Black // the north row comes first
		if i == 1 {
			pl = White
		}
		cells, err := parseFENRow(text, rowCol, pl, holes)
		if err != nil {
			return err
		}
		row := make([]int, holes)
		for k, n := range cells {
			h := k + 1 // south: holes 1..n left to right
			if pl == Black {
				h = holes - k // north: holes n..1
			}
			if n < 0 {
				tuzdikOn[pl] = append(tuzdikOn[pl], h)
				n = 0
			}
			row[h-1] = n
		}
		setup.Board[pl] = row
		rowCol += len(text) + 1
	}
	for pl := White; pl <= Black; pl++ {
		switch t := tuzdikOn[pl]; len(t) {
		case 0:
		case 1:
			setup.Tuzdik[pl.Other()] = t[0]
		default:
			return fenError(col, ErrPosition, "%s's row has %d tuzdiks; a player owns at most one", pl, len(t))
		}
	}
	return nil
}

// parseFENRow reads pl's row of the board, at column col: a cell a hole,
// its stones, or -1 for a tuzdik.
func parseFENRow(text string, col int, pl Player, holes int) ([]int, error) {
	cells := make([]int, 0, holes)
	c := col
	for _, cell := range strings.Split(text, ",") {
		var err error
		if cells, err = appendFENCell(cells, cell, c, holes); err != nil {
			return nil, err
		}
		c += len(cell) + 1
	}
	if len(cells) != holes {
		return nil, fenError(col, ErrSyntax, "%s row %q has %d holes, want %d", pl, text, len(cells), holes)
	}
	return cells, nil
}

// appendFENCell appends the holes of a cell, at column c, to cells: t a
// tuzdik (-1), <stones>S a hole, a number that many empty holes.
func appendFENCell(cells []int, cell string, c, holes int) ([]int, error) {
	switch {
	case cell == "t" || cell == "T":
		cells = append(cells, -1)
	case strings.HasSuffix(cell, "S") || strings.HasSuffix(cell, "s"):
		n, err := strconv.Atoi(cell[:len(cell)-1])
		if err != nil || n < 0 || n > 255 {
			return nil, fenError(c, ErrSyntax, "cell %q: want <stones>S, a count of empty holes or t", cell)
		}
		cells = append(cells, n)
	default:
		n, err := strconv.Atoi(cell)
		if err != nil || n < 1 || n > holes {
			return nil, fenError(c, ErrSyntax, "cell %q: want <stones>S, a count of empty holes (1..%d) or t", cell, holes)
		}
		for range n {
			cells = append(cells, 0)
		}
	}
	return cells, nil
}
