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
	var b strings.Builder
	row := func(pl Player, holes []int) {
		empty := 0
		sep := func() {
			if b.Len() > 0 && b.String()[b.Len()-1] != '/' {
				b.WriteByte(',')
			}
		}
		flush := func() {
			if empty > 0 {
				sep()
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
		}
		for _, h := range holes {
			switch n := p.Stones(pl, h); {
			case p.IsTuzdik(pl, h):
				flush()
				sep()
				b.WriteByte('t')
			case n == 0:
				empty++
			default:
				flush()
				sep()
				b.WriteString(strconv.Itoa(n))
				b.WriteByte('S')
			}
		}
		flush()
	}
	n := p.Holes()
	north := make([]int, 0, n)
	south := make([]int, 0, n)
	for h := n; h >= 1; h-- {
		north = append(north, h)
	}
	for h := 1; h <= n; h++ {
		south = append(south, h)
	}
	row(Black, north)
	b.WriteByte('/')
	row(White, south)
	turn := "S"
	if p.Turn() == Black {
		turn = "N"
	}
	fmt.Fprintf(&b, " %d %d %s %d", p.Kazan(White), p.Kazan(Black), turn, fullmove)
	return b.String()
}

// ParseFEN reads a position string as FormatFEN writes it, for a game under
// r, and returns the position and its move number. The error is a
// *ParseError whose Column points at the offending field, and it wraps
// ErrSyntax or ErrPosition.
func ParseFEN(s string, r Rules) (Position, int, error) {
	fail := func(col int, err error, format string, args ...any) (Position, int, error) {
		return Position{}, 0, &ParseError{Column: col, Msg: fmt.Sprintf(format, args...), Err: err}
	}
	if err := r.Validate(); err != nil {
		return fail(0, err, "position string")
	}
	fields := strings.Fields(s)
	if len(fields) != 5 {
		return fail(1, ErrSyntax, "position string %q has %d fields, want 5: NORTH/SOUTH K1 K2 TURN FULLMOVE", s, len(fields))
	}
	col := func(i int) int { // 1-based column of field i
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
	setup := Setup{Rules: r}
	rows := strings.Split(fields[0], "/")
	if len(rows) != 2 {
		return fail(col(0), ErrSyntax, "board %q must be two rows separated by one '/'", fields[0])
	}
	var tuzdikOn [2][]int // holes marked t in each player's row
	rowCol := col(0)
	for i, text := range rows {
		pl := Black // the north row comes first
		if i == 1 {
			pl = White
		}
		cells := make([]int, 0, r.Holes)
		c := rowCol
		for _, cell := range strings.Split(text, ",") {
			switch {
			case cell == "t" || cell == "T":
				cells = append(cells, -1)
			case strings.HasSuffix(cell, "S") || strings.HasSuffix(cell, "s"):
				n, err := strconv.Atoi(cell[:len(cell)-1])
				if err != nil || n < 0 || n > 255 {
					return fail(c, ErrSyntax, "cell %q: want <stones>S, a count of empty holes or t", cell)
				}
				cells = append(cells, n)
			default:
				n, err := strconv.Atoi(cell)
				if err != nil || n < 1 || n > r.Holes {
					return fail(c, ErrSyntax, "cell %q: want <stones>S, a count of empty holes (1..%d) or t", cell, r.Holes)
				}
				for range n {
					cells = append(cells, 0)
				}
			}
			c += len(cell) + 1
		}
		if len(cells) != r.Holes {
			return fail(rowCol, ErrSyntax, "%s row %q has %d holes, want %d", pl, text, len(cells), r.Holes)
		}
		row := make([]int, r.Holes)
		for k, n := range cells {
			h := k + 1 // south: holes 1..n left to right
			if pl == Black {
				h = r.Holes - k // north: holes n..1
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
			return fail(col(0), ErrPosition, "%s's row has %d tuzdiks; a player owns at most one", pl, len(t))
		}
	}
	for i := range 2 {
		k, err := strconv.Atoi(fields[1+i])
		if err != nil || k < 0 {
			return fail(col(1+i), ErrSyntax, "kazan %q is not a number of stones", fields[1+i])
		}
		setup.Kazan[i] = k
	}
	switch fields[3] {
	case "S", "s":
		setup.Turn = White
	case "N", "n":
		setup.Turn = Black
	default:
		return fail(col(3), ErrSyntax, "turn %q: want S (White) or N (Black)", fields[3])
	}
	full, err := strconv.Atoi(fields[4])
	if err != nil || full < 1 {
		return fail(col(4), ErrSyntax, "move number %q: want a whole number from 1", fields[4])
	}
	p, err := setup.Position()
	if err != nil {
		return fail(1, err, "position string %q", s)
	}
	return p, full, nil
}
