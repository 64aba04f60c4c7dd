package tui

import (
	"fmt"
	"io"
	"strings"

	"github.com/toguz/toguz"
)

// ANSI SGR sequences. Each player has a colour so that a row and its kazan
// read as one; a tuzdik is marked in red, the hole just emptied in reverse
// video and the hole where the last stone fell on a green background.
const (
	sgrReset   = "\x1b[0m"
	sgrBold    = "\x1b[1m"
	sgrDim     = "\x1b[2m"
	sgrReverse = "\x1b[7m"
	sgrWhite   = "\x1b[1;93m" // White's stones: bold bright yellow
	sgrBlack   = "\x1b[1;96m" // Black's stones: bold bright cyan
	sgrTuzdik  = "\x1b[1;97;41m"
	sgrLanding = "\x1b[30;102m"
	sgrNumber  = "\x1b[90m" // hole numbers: grey
)

// Style says how the board is drawn.
type Style struct {
	Colour bool // ANSI colours; off, the board is plain text
	Dots   bool // draw the stones as dots under (White) or over (Black) the counts
	Flip   bool // White's row on top (seen from Black's side)
	// HoleNames, when not empty, are the holes' traditional names, written
	// under the board each after its hole number: HoleNames[k-1] for hole k
	// (both players' hole k have the same name). HoleGlosses[k-1], where
	// present and not empty, follows its name after a dash. Package
	// internal/i18n has them in each language (i18n.Holes).
	HoleNames, HoleGlosses []string
}

// LastMove is what the board highlights: the hole emptied and the hole where
// the last stone fell. The zero value highlights nothing.
type LastMove struct {
	Player  toguz.Player
	Hole    int // hole emptied, 1..n; 0: none
	Landing Square
}

// Square is one hole of the board.
type Square struct {
	Side toguz.Player
	Hole int // 1..n; 0: none
}

// cellWidth is the width of one hole on screen; dotsPerLine dots fit in it.
const (
	cellWidth   = 6
	dotsPerLine = 5
)

// DrawBoard writes p as a diagram: the top row read from the last hole down
// to hole 1 and the bottom row from hole 1 up, as players sit facing each
// other, with the hole numbers outside, each kazan at the end of its row, the
// tuzdiks marked X (on the row of the player who lost the hole) and the side
// to move marked with an arrow.
func DrawBoard(w io.Writer, p toguz.Position, last LastMove, st Style) error {
	top, bottom := toguz.Black, toguz.White
	if st.Flip {
		top, bottom = bottom, top
	}
	d := &boardDrawer{p: p, last: last, st: st, top: top, n: p.Holes()}
	d.numbers(top)
	if st.Dots {
		d.dots(top, 1)
		d.dots(top, 0)
	}
	d.row(top)
	d.b.WriteString("\n")
	d.row(bottom)
	if st.Dots {
		d.dots(bottom, 0)
		d.dots(bottom, 1)
	}
	d.numbers(bottom)
	d.b.WriteString(legend(d.n, st, d.paint))
	_, err := io.WriteString(w, d.b.String())
	return err
}

// boardDrawer builds DrawBoard's diagram line by line.
type boardDrawer struct {
	b    strings.Builder
	p    toguz.Position
	last LastMove
	st   Style
	top  toguz.Player // the player whose row is drawn on top
	n    int          // holes a row
}

func (d *boardDrawer) paint(sgr, s string) string {
	if !d.st.Colour || sgr == "" {
		return s
	}
	return sgr + s + sgrReset
}

// order returns the hole numbers of pl's row left to right.
func (d *boardDrawer) order(pl toguz.Player) []int {
	hs := make([]int, d.n)
	for i := range hs {
		if pl == d.top {
			hs[i] = d.n - i
		} else {
			hs[i] = i + 1
		}
	}
	return hs
}

func colourOf(pl toguz.Player) string {
	if pl == toguz.White {
		return sgrWhite
	}
	return sgrBlack
}

// numbers writes the line of the hole numbers of pl's row.
func (d *boardDrawer) numbers(pl toguz.Player) {
	d.b.WriteString(strings.Repeat(" ", 8))
	for _, h := range d.order(pl) {
		d.b.WriteString(d.paint(sgrNumber, center(fmt.Sprint(h), cellWidth)))
	}
	d.b.WriteString("\n")
}

// dots writes line 0 or 1 of the dots of pl's row: the first dotsPerLine
// stones of each hole, or the next ones with a + for more.
func (d *boardDrawer) dots(pl toguz.Player, line int) {
	d.b.WriteString(strings.Repeat(" ", 8))
	for _, h := range d.order(pl) {
		k := 0
		if !d.p.IsTuzdik(pl, h) {
			k = d.p.Stones(pl, h)
		}
		k -= line * dotsPerLine
		s := ""
		switch {
		case k > dotsPerLine && line == 1:
			s = strings.Repeat("•", dotsPerLine-1) + "+"
		case k > 0:
			s = strings.Repeat("•", min(k, dotsPerLine))
		}
		d.b.WriteString(d.paint(colourOf(pl), center(s, cellWidth)))
	}
	d.b.WriteString("\n")
}

// row writes pl's row: its label, marked when pl is to move, the holes and
// the kazan.
func (d *boardDrawer) row(pl toguz.Player) {
	label := fmt.Sprintf("%-6s", sideName(pl))
	if pl == d.p.Turn() && !d.p.IsOver() {
		label += "▶ "
	} else {
		label += "  "
	}
	d.b.WriteString(d.paint(colourOf(pl), label))
	for _, h := range d.order(pl) {
		cell, sgr := d.cell(pl, h)
		pad := cellWidth - len([]rune(cell))
		left := pad / 2
		d.b.WriteString(strings.Repeat(" ", left))
		d.b.WriteString(d.paint(sgr, cell))
		d.b.WriteString(strings.Repeat(" ", pad-left))
	}
	fmt.Fprintf(&d.b, "  %s\n", d.paint(sgrBold+colourOf(pl), fmt.Sprintf("kazan %3d", d.p.Kazan(pl))))
}

// cell returns the text of pl's hole h and its colour: the stones, - or X,
// in brackets for the hole last played from and in parentheses for the
// one its last stone landed in.
func (d *boardDrawer) cell(pl toguz.Player, h int) (cell, sgr string) {
	switch {
	case d.p.IsTuzdik(pl, h):
		cell, sgr = "X", sgrTuzdik
	case d.p.Stones(pl, h) == 0:
		cell, sgr = "-", sgrDim
	default:
		cell, sgr = fmt.Sprint(d.p.Stones(pl, h)), colourOf(pl)
	}
	switch {
	case d.last.Hole == h && d.last.Player == pl:
		cell = "[" + cell + "]"
		sgr = sgrReverse + colourOf(pl)
	case d.last.Landing.Hole == h && d.last.Landing.Side == pl:
		cell = "(" + cell + ")"
		if sgr != sgrTuzdik {
			sgr = sgrLanding
		}
	}
	return cell, sgr
}

// legend returns the lines naming the holes of a board of n, as many
// entries a line as fit in 80 columns (at most 3), filled down each column
// first and indented as the board's rows are:
//
//	1 арт             4 атсыратар       7 қандықақпан
func legend(n int, st Style, paint func(sgr, s string) string) string {
	type entry struct{ number, text string }
	var es []entry
	w := 0
	for k := range min(n, len(st.HoleNames)) {
		e := entry{fmt.Sprintf("%2d", k+1), st.HoleNames[k]}
		if k < len(st.HoleGlosses) && st.HoleGlosses[k] != "" {
			e.text += " — " + st.HoleGlosses[k]
		}
		es = append(es, e)
		w = max(w, len([]rune(e.number+" "+e.text))+3)
	}
	if len(es) == 0 {
		return ""
	}
	const margin = 6 // the rows' labels take 8; the numbers right-aligned
	cols := 3
	for cols > 1 && margin+cols*w > 80 {
		cols--
	}
	rows := (len(es) + cols - 1) / cols
	var b strings.Builder
	for r := range rows {
		b.WriteString(strings.Repeat(" ", margin))
		for c := range cols {
			i := c*rows + r
			if i >= len(es) {
				break
			}
			b.WriteString(paint(sgrNumber, es[i].number) + " " + es[i].text)
			if c < cols-1 && i+rows < len(es) {
				b.WriteString(strings.Repeat(" ", w-len([]rune(es[i].number+" "+es[i].text))))
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// sideName is the name of pl's side, capitalised.
func sideName(pl toguz.Player) string {
	if pl == toguz.White {
		return "White"
	}
	return "Black"
}

// center centres s (counted in runes) in a field of width w.
func center(s string, w int) string {
	pad := w - len([]rune(s))
	if pad <= 0 {
		return s
	}
	return strings.Repeat(" ", pad/2) + s + strings.Repeat(" ", pad-pad/2)
}
