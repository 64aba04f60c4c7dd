package toguz

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Diagram returns the board diagram of the seeds (docs/rules.md §5) as text:
// Black's row on top from his last hole to hole 1, White's below from hole
// 1, each row followed by its owner's kazan in parentheses, "–" for an empty
// hole and "X" for a tuzdik (on the row of the player who lost the hole).
// Hole numbers frame the rows, and a last line says who is to move:
//
//	     9   8   7   6   5   4   3   2   1
//	     9   9   9   –  10  10  10  10  10  (0)
//	     9   9   9   9   9   9   1  10  10  (10)
//	     1   2   3   4   5   6   7   8   9
//	Black to move
//
// ParseDiagram reads it back.
func (p Position) Diagram() string {
	n := p.Holes()
	var b strings.Builder
	numbers := func(black bool) {
		for k := range n {
			h := k + 1
			if black {
				h = n - k
			}
			fmt.Fprintf(&b, "%4d", h)
		}
		b.WriteByte('\n')
	}
	row := func(pl Player) {
		for k := range n {
			h := k + 1
			if pl == Black {
				h = n - k
			}
			switch s := p.Stones(pl, h); {
			case p.IsTuzdik(pl, h):
				b.WriteString("   X")
			case s == 0:
				b.WriteString("   –")
			default:
				fmt.Fprintf(&b, "%4d", s)
			}
		}
		fmt.Fprintf(&b, "  (%d)\n", p.Kazan(pl))
	}
	numbers(true)
	row(Black)
	row(White)
	numbers(false)
	if p.Turn() == White {
		b.WriteString("White to move\n")
	} else {
		b.WriteString("Black to move\n")
	}
	return b.String()
}

// DiagramNamed returns Diagram followed by a legend of the holes'
// traditional names, each after its hole number, in columns that fit a
// terminal of 80:
//
//	1 арт             4 атсыратар       7 қандықақпан
//	2 тектұрмас       5 бел             8 көкмойын
//	3 атөтпес         6 белбасар        9 маңдай
//
// names[k-1] names hole k (both players' hole k have the same name), and
// glosses[k-1], where glosses has it and it is not empty, follows it after
// a dash: "1 art — back". A hole past the end of names is left out. The
// package holds no names: package internal/i18n has them in each language.
// ParseDiagram reads the result back, legend ignored.
func (p Position) DiagramNamed(names, glosses []string) string {
	var entries []string
	for k := range min(p.Holes(), len(names)) {
		e := fmt.Sprintf("%4d %s", k+1, names[k])
		if k < len(glosses) && glosses[k] != "" {
			e += " — " + glosses[k]
		}
		entries = append(entries, e)
	}
	return p.Diagram() + legend(entries)
}

// legend lays entries out in as many columns (at most 3) as fit in 80
// characters, filled down each column first.
func legend(entries []string) string {
	if len(entries) == 0 {
		return ""
	}
	w := 0
	for _, e := range entries {
		w = max(w, utf8.RuneCountInString(e))
	}
	w += 2
	cols := 3
	for cols > 1 && cols*w > 80 {
		cols--
	}
	rows := (len(entries) + cols - 1) / cols
	var b strings.Builder
	for r := range rows {
		var line strings.Builder
		for c := range cols {
			i := c*rows + r
			if i >= len(entries) {
				break
			}
			e := entries[i]
			line.WriteString(e)
			if c < cols-1 && i+rows < len(entries) {
				line.WriteString(strings.Repeat(" ", w-utf8.RuneCountInString(e)))
			}
		}
		b.WriteString(line.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// ParseDiagram reads a board diagram under r, as Position.Diagram writes it
// or as the seeds print it. The two rows of holes are the lines that end
// with a kazan in parentheses, Black's first; a cell is a number of stones,
// "–" or "-" for none, "X" (also Cyrillic "Х") for a tuzdik; words between
// the last cell and the kazan are ignored (the seeds write the kazan's name
// there). A row of hole numbers (optionally "№"-prefixed, after an optional
// label) may come above and below, and must then count the holes in order.
// A line "White to move" or "Black to move" gives the turn (White when
// absent). Lines of hole names, as DiagramNamed writes them (a hole number
// followed by a word), are ignored. The error is a *ParseError with the
// line and column; the position is checked as Setup.Position does.
func ParseDiagram(s string, r Rules) (Position, error) {
	if err := r.Validate(); err != nil {
		return Position{}, err
	}
	setup := Setup{Rules: r}
	rows := 0
	for li, text := range strings.Split(s, "\n") {
		line := li + 1
		fields, cols := fieldsCols(text)
		if len(fields) == 0 {
			continue
		}
		last := fields[len(fields)-1]
		switch {
		case strings.HasPrefix(last, "(") && strings.HasSuffix(last, ")"):
			if err := diagramRow(&setup, rows, fields, cols, line); err != nil {
				return Position{}, err
			}
			rows++
		case isTurnLine(fields):
			turn, err := diagramTurn(fields[0], text, line, cols[0])
			if err != nil {
				return Position{}, err
			}
			setup.Turn = turn
		case isLegend(fields):
			// Hole names, not part of the position.
		default:
			if err := holeNumbers(fields, cols, rows == 0, r.Holes); err != nil {
				err.Line = line
				return Position{}, err
			}
		}
	}
	if rows != 2 {
		return Position{}, diagramError(0, 0, ErrSyntax, "the diagram has %d rows of holes ending with a kazan in parentheses, want 2", rows)
	}
	p, err := setup.Position()
	if err != nil {
		return Position{}, diagramError(0, 0, err, "diagram")
	}
	return p, nil
}

// diagramError is the *ParseError of ParseDiagram.
func diagramError(line, col int, err error, format string, args ...any) error {
	return &ParseError{Line: line, Column: col, Msg: fmt.Sprintf(format, args...), Err: err}
}

// isTurnLine reports whether a line is "… to move".
func isTurnLine(fields []string) bool {
	return len(fields) == 3 && fields[1] == "to" && fields[2] == "move"
}

// diagramTurn reads the word before "to move".
func diagramTurn(word, text string, line, col int) (Player, error) {
	switch strings.ToLower(word) {
	case "white":
		return White, nil
	case "black":
		return Black, nil
	}
	return White, diagramError(line, col, ErrSyntax, "%q: want White to move or Black to move", text)
}

// diagramRow reads the row of holes after the rows read before it, whose
// last field is the kazan, into setup: Black's row comes first.
func diagramRow(setup *Setup, rows int, fields []string, cols []int, line int) error {
	r := setup.Rules
	last := fields[len(fields)-1]
	if rows == 2 {
		return diagramError(line, cols[len(fields)-1], ErrSyntax, "a third row of holes: a diagram has two, Black's then White's")
	}
	pl := Black
	if rows == 1 {
		pl = White
	}
	k, err := strconv.Atoi(last[1 : len(last)-1])
	if err != nil || k < 0 {
		return diagramError(line, cols[len(fields)-1], ErrSyntax, "kazan %s: want a number of stones in parentheses", last)
	}
	setup.Kazan[pl] = k
	cells, tuzdik, err := diagramCells(pl, fields[:len(fields)-1], cols, line, r.Holes)
	if err != nil {
		return err
	}
	if len(cells) != r.Holes {
		return diagramError(line, 1, ErrSyntax, "%s's row has %d holes, want %d (ruleset %s)", pl, len(cells), r.Holes, r)
	}
	row := make([]int, r.Holes)
	for i, n := range cells {
		if pl == Black {
			row[r.Holes-1-i] = n
		} else {
			row[i] = n
		}
	}
	setup.Board[pl] = row
	setup.Tuzdik[pl.Other()] = tuzdik
	return nil
}

// diagramCells reads the cells of pl's row left to right, up to a label
// before the kazan, and the number of the hole that is a tuzdik (0: none).
func diagramCells(pl Player, fields []string, cols []int, line, holes int) (cells []int, tuzdik int, err error) {
	cells = make([]int, 0, holes)
	for i, f := range fields {
		n, ok := diagramCell(f)
		if !ok {
			if i < holes {
				return nil, 0, diagramError(line, cols[i], ErrSyntax, "cell %q: want a number of stones, – (empty) or X (tuzdik)", f)
			}
			break // a label before the kazan
		}
		if len(cells) == holes {
			return nil, 0, diagramError(line, cols[i], ErrSyntax, "%s's row has more than %d holes", pl, holes)
		}
		h := len(cells) + 1
		if pl == Black {
			h = holes - len(cells)
		}
		if n < 0 {
			if tuzdik != 0 {
				return nil, 0, diagramError(line, cols[i], ErrPosition, "%s's row has two tuzdiks; a player owns at most one", pl)
			}
			tuzdik, n = h, 0
		}
		cells = append(cells, n)
	}
	return cells, tuzdik, nil
}

// diagramCell reads a cell: stones (n ≥ 0), an empty hole (0) or a tuzdik
// (-1).
func diagramCell(f string) (int, bool) {
	switch f {
	case "–", "-", "—":
		return 0, true
	case "X", "x", "Х", "х":
		return -1, true
	}
	n, err := strconv.Atoi(f)
	if err != nil || n < 0 || n > 255 || f[0] == '+' {
		return 0, false
	}
	return n, true
}

// isLegend reports whether a line is one of DiagramNamed's legend: a hole
// number followed by a word that is not a cell.
func isLegend(fields []string) bool {
	if len(fields) < 2 {
		return false
	}
	if _, err := strconv.Atoi(fields[0]); err != nil {
		return false
	}
	_, cell := diagramCell(fields[1])
	return !cell
}

// holeNumbers checks a line of hole numbers: n..1 above the rows, 1..n below,
// after an optional label.
func holeNumbers(fields []string, cols []int, above bool, n int) *ParseError {
	nums := fields
	if len(nums) > n {
		nums = nums[len(nums)-n:] // a label first
	}
	for i, f := range nums {
		want := i + 1
		if above {
			want = n - i
		}
		got, err := strconv.Atoi(strings.TrimPrefix(f, "№"))
		if err != nil || got != want || len(nums) != n {
			return &ParseError{Column: cols[len(fields)-len(nums)+i], Err: ErrSyntax,
				Msg: fmt.Sprintf("%q: want a row of holes (ending with a kazan such as (10)), a row of hole numbers or \"White to move\"", strings.Join(fields, " "))}
		}
	}
	return nil
}

// fieldsCols splits s at spaces and tabs and returns the fields with their
// 1-based columns in runes.
func fieldsCols(s string) ([]string, []int) {
	var fields []string
	var cols []int
	col := 1
	start, startCol := -1, 0
	for i, c := range s {
		if c == ' ' || c == '\t' || c == '\r' {
			if start >= 0 {
				fields, cols = append(fields, s[start:i]), append(cols, startCol)
				start = -1
			}
		} else if start < 0 {
			start, startCol = i, col
		}
		col++
	}
	if start >= 0 {
		fields, cols = append(fields, s[start:]), append(cols, startCol)
	}
	return fields, cols
}
