// Package svg draws a Toguz Kumalak position as an SVG diagram: a wooden
// board with the holes (otau) of both players, their stones drawn and
// counted, the two kazans, the tuzdiks, the hole numbers on both rows, and
// optionally the last move, the players' names, the holes' traditional
// names beside their numbers and the board turned round.
//
// # Index
//
//   - Render and Write draw a position with Options.
//   - Options: Flip (Black at the bottom), From and To (the last move's
//     emptied and landing holes), White and Black (names), HoleNames and
//     HoleGlosses (the holes' names, from package internal/i18n in each
//     language), Labels (the board's words in the reader's language),
//     Width.
//   - LastMove finds From and To of a move from the position before it.
//
// The output depends only on the position and the options, so it can be
// compared byte for byte; it is plain SVG 1.1 with no script and no
// external resource, and it works for every board size (2..9 holes).
//
// The layout is the seeds' diagram's (docs/rules.md §5): White's (the first
// player's) row at the bottom with holes 1..n from the left, Black's at the
// top from n down to 1, so sowing runs counter-clockwise. The two kazans lie
// between the rows, each beside its owner's row, as the seeds write each
// row's kazan after it and as the web board and Position.Diagram show them.
package svg

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/toguz/toguz"
)

// Hole names one hole of the board. The zero Hole is no hole.
type Hole struct {
	Side   toguz.Player
	Number int // 1..Holes, 0 for none
}

// Options say what to draw besides the position. The zero value draws the
// position alone, White at the bottom.
type Options struct {
	// Flip puts Black's row at the bottom.
	Flip bool
	// From and To highlight the last move: the hole its player emptied and
	// the hole its last stone fell into. Either may be the zero Hole.
	From, To Hole
	// White and Black are the players' names, shown by their rows.
	White, Black string
	// HoleNames, when not nil, are the holes' traditional names, written
	// beside the hole numbers on both edges: HoleNames[k-1] by hole k (both
	// players' hole k have the same name). HoleGlosses, when not nil, are
	// short glosses of them, in a smaller line under each name. Either has
	// one entry per hole of the board. The package holds no names: package
	// internal/i18n has them in each language (i18n.Holes).
	HoleNames, HoleGlosses []string
	// Labels, when not nil, are the words drawn on the board in the
	// reader's language (package internal/i18n has them); nil draws the
	// English ones.
	Labels *Labels
	// Width is the width attribute in pixels; 0 leaves the natural size
	// (696 × 594 for nine holes, taller with names). The drawing scales
	// with it.
	Width int
}

// Labels are the board's words: the sides' names, the word by each kazan
// and the mark of the side to move; the word under a tuzdik's cross and
// the drawing's title (its <title>, what a screen reader
// says of it). Tuzdik and Title, when empty, are the English ones, so
// that Labels written before they were added draw as they did.
type Labels struct {
	White, Black, Kazan, ToMove string
	Tuzdik                      string
	// Title is the whole title, in the reader's language: the caller
	// writes the kazans and the side to move into it (Render draws
	// "Toguz Kumalak (standard): White 0, Black 0, white to move" when it
	// is empty).
	Title string
}

var english = Labels{White: "White", Black: "Black", Kazan: "kazan", ToMove: "to move"}

// tuzdikWord is the word under a tuzdik's cross.
func (d *drawing) tuzdikWord() string {
	if w := d.labels().Tuzdik; w != "" {
		return w
	}
	return "tuzdik"
}

func (d *drawing) labels() Labels {
	if d.opt.Labels != nil {
		return *d.opt.Labels
	}
	return english
}

// LastMove returns the holes to highlight for m played from before: the
// hole emptied and the hole the last stone falls into. m must be legal.
func LastMove(before toguz.Position, m toguz.Move) (from, to Hole) {
	side, land := before.Landing(m)
	return Hole{before.Turn(), int(m)}, Hole{side, land}
}

// Render returns the diagram of p as an SVG document.
func Render(p toguz.Position, opt Options) ([]byte, error) {
	var b bytes.Buffer
	if err := Write(&b, p, opt); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Write writes the diagram of p to w. It fails only when w does or when the
// options name a hole the board does not have.
func Write(w io.Writer, p toguz.Position, opt Options) error {
	for _, h := range []struct {
		name string
		hole Hole
	}{{"From", opt.From}, {"To", opt.To}} {
		if h.hole.Number == 0 {
			continue
		}
		if h.hole.Number < 0 || h.hole.Number > p.Holes() || (h.hole.Side != toguz.White && h.hole.Side != toguz.Black) {
			return fmt.Errorf("svg: Options.%s: no hole %d for %s on a board of %d holes", h.name, h.hole.Number, h.hole.Side, p.Holes())
		}
	}
	if opt.Width < 0 {
		return fmt.Errorf("svg: Options.Width %d is negative", opt.Width)
	}
	for _, l := range []struct {
		name  string
		names []string
	}{{"HoleNames", opt.HoleNames}, {"HoleGlosses", opt.HoleGlosses}} {
		if l.names != nil && len(l.names) != p.Holes() {
			return fmt.Errorf("svg: Options.%s has %d entries for a board of %d holes", l.name, len(l.names), p.Holes())
		}
	}
	d := drawing{p: p, opt: opt}
	d.draw()
	_, err := w.Write(d.b.Bytes())
	return err
}

// The layout, in pixels of the natural size.
const (
	pitch      = 72  // from one hole to the next
	holeW      = 56  // a hole's width
	holeH      = 124 // a hole's height
	minInner   = 468 // the narrowest the inside of the board gets
	side       = 24  // wood left and right of the holes
	nameH      = 34  // the name line above and below the board
	numberH    = 24  // the band with the hole numbers
	holeNameH  = 18  // the band with the holes' names, outside the numbers
	glossH     = 14  // a line of glosses under the names
	countH     = 30  // the line with each hole's count
	kazanH     = 66  // a kazan's height
	kazanGap   = 10  // between the two kazans
	rowGap     = 14  // between a row of holes and the kazans
	kazanLabel = 104 // the owner's label at the left end of a kazan
	kazanCount = 64  // the count at the right end of a kazan
)

// Colours: a warm wooden board, dark hollows, ivory stones.
const (
	colInk       = "#2b1a0e"
	colHole      = "#5a3416"
	colStone     = "#f6efdf"
	colStoneEdge = "#8b7452"
	colFrom      = "#1f7ae0"
	colTo        = "#f08c00"
	colTuzdik    = "#b3261e"
)

type drawing struct {
	p   toguz.Position
	opt Options
	b   bytes.Buffer

	n          int // holes per side
	namesH     int // the height of the band of hole names: 0 without them
	inner      int // width of the inside of the board
	width, hgt int
	x0         int // x of the first hole's left edge
}

func (d *drawing) printf(format string, args ...any) { fmt.Fprintf(&d.b, format, args...) }

// escape returns s safe for XML text and attributes.
func escape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s)) // a strings.Builder never fails
	return b.String()
}

// bottom and top return the players whose rows are drawn at the bottom and
// at the top.
func (d *drawing) bottom() toguz.Player {
	if d.opt.Flip {
		return toguz.Black
	}
	return toguz.White
}

func (d *drawing) top() toguz.Player { return d.bottom().Other() }

func (d *drawing) draw() {
	d.n = d.p.Holes()
	d.inner = max(d.n*pitch, minInner)
	d.width = d.inner + 2*side
	if d.opt.HoleNames != nil {
		d.namesH = holeNameH
		if d.opt.HoleGlosses != nil {
			d.namesH += glossH
		}
	}
	boardH := 2*(d.namesH+numberH+countH+holeH+rowGap) + 2*kazanH + kazanGap
	d.hgt = boardH + 2*nameH
	d.x0 = side + (d.inner-d.n*pitch)/2 + (pitch-holeW)/2

	size := ""
	if d.opt.Width > 0 {
		size = fmt.Sprintf(` width="%d" height="%d"`, d.opt.Width, d.opt.Width*d.hgt/d.width)
	}
	d.printf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d"%s font-family="Georgia, 'DejaVu Serif', serif" role="img">`+"\n", d.width, d.hgt, size)
	d.printf("<title>%s</title>\n", escape(d.title()))
	d.defs()
	d.printf(`<rect x="0" y="0" width="%d" height="%d" fill="#f3ead8"/>`+"\n", d.width, d.hgt)
	d.printf(`<rect x="2" y="%d" width="%d" height="%d" rx="22" fill="url(#tg-wood)" stroke="#4a2a10" stroke-width="4"/>`+"\n",
		nameH, d.width-4, boardH)
	// A darker rim carries the hole numbers.
	d.printf(`<rect x="14" y="%d" width="%d" height="%d" rx="14" fill="none" stroke="#7a4a1f" stroke-width="2" opacity="0.6"/>`+"\n",
		nameH+d.namesH+numberH, d.width-28, boardH-2*(d.namesH+numberH))

	y := nameH
	d.name(d.top(), nameH/2+6)
	d.holeNames(d.top(), y)
	y += d.namesH
	d.numbers(d.top(), y+numberH/2+5)
	y += numberH
	d.counts(d.top(), y+countH/2+7)
	y += countH
	d.holes(d.top(), y, false)
	y += holeH + rowGap
	// Each kazan lies beside its owner's row.
	d.kazan(d.top(), y)
	y += kazanH + kazanGap
	d.kazan(d.bottom(), y)
	y += kazanH + rowGap
	d.holes(d.bottom(), y, true)
	y += holeH
	d.counts(d.bottom(), y+countH/2+7)
	y += countH
	d.numbers(d.bottom(), y+numberH/2+5)
	y += numberH
	d.holeNames(d.bottom(), y)
	d.name(d.bottom(), d.hgt-nameH/2+6)
	d.printf("</svg>\n")
}

func (d *drawing) title() string {
	if t := d.labels().Title; t != "" {
		return t
	}
	p := d.p
	return fmt.Sprintf("Toguz Kumalak (%s): White %d, Black %d, %s to move", p.Rules(), p.Kazan(toguz.White), p.Kazan(toguz.Black), p.Turn())
}

func (d *drawing) defs() {
	d.printf(`<defs>
<linearGradient id="tg-wood" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="#d9a066"/><stop offset="0.5" stop-color="#c4874a"/><stop offset="1" stop-color="#a8692f"/>
</linearGradient>
<radialGradient id="tg-hollow" cx="0.5" cy="0.4" r="0.7">
<stop offset="0" stop-color="#7a4a22"/><stop offset="1" stop-color="%s"/>
</radialGradient>
<radialGradient id="tg-stone" cx="0.35" cy="0.3" r="0.8">
<stop offset="0" stop-color="#ffffff"/><stop offset="0.6" stop-color="%s"/><stop offset="1" stop-color="#d8c9a8"/>
</radialGradient>
</defs>
`, colHole, colStone)
}

// holeAt returns the number of pl's hole in column col (0 on the left):
// the bottom row runs 1..n from the left, the top row n..1. Rows are drawn
// column by column, so the document reads left to right.
func (d *drawing) holeAt(pl toguz.Player, col int) int {
	if pl == d.top() {
		return d.n - col
	}
	return col + 1
}

// colX returns the left edge of column col's holes.
func (d *drawing) colX(col int) int { return d.x0 + col*pitch }

// name writes a player's name, colour and whether he is to move.
func (d *drawing) name(pl toguz.Player, y int) {
	label := d.labels().White
	fill, stroke := "#ffffff", colInk
	if pl == toguz.Black {
		label, fill, stroke = d.labels().Black, "#1c1c1c", "#000000"
	}
	name := d.opt.White
	if pl == toguz.Black {
		name = d.opt.Black
	}
	if name != "" {
		label += " · " + name
	}
	d.printf(`<circle cx="%d" cy="%d" r="8" fill="%s" stroke="%s" stroke-width="2"/>`+"\n", side+8, y-5, fill, stroke)
	d.printf(`<text x="%d" y="%d" font-size="17" fill="%s">%s</text>`+"\n", side+24, y, colInk, escape(label))
	if d.p.Turn() == pl && !d.p.IsOver() {
		d.printf(`<text x="%d" y="%d" font-size="15" font-style="italic" fill="%s" text-anchor="end">%s ◀</text>`+"\n",
			d.width-side, y, colInk, escape(d.labels().ToMove))
	}
}

// numbers writes the hole numbers along pl's edge of the board.
func (d *drawing) numbers(pl toguz.Player, y int) {
	for col := range d.n {
		d.printf(`<text x="%d" y="%d" font-size="14" font-weight="bold" fill="#fbe7c6" text-anchor="middle">%d</text>`+"\n",
			d.colX(col)+holeW/2, y, d.holeAt(pl, col))
	}
}

// holeNames writes the names of pl's holes in the band whose top edge is
// at y, outside the hole numbers, each with its gloss in a line under it.
func (d *drawing) holeNames(pl toguz.Player, y int) {
	if d.opt.HoleNames == nil {
		return
	}
	for col := range d.n {
		h, x := d.holeAt(pl, col), d.colX(col)+holeW/2
		d.printf(`<text x="%d" y="%d" font-size="11" fill="#fbe7c6" text-anchor="middle"%s>%s</text>`+"\n",
			x, y+holeNameH-5, fit(d.opt.HoleNames[h-1], 11), escape(d.opt.HoleNames[h-1]))
		if d.opt.HoleGlosses != nil && d.opt.HoleGlosses[h-1] != "" {
			d.printf(`<text x="%d" y="%d" font-size="9" font-style="italic" fill="#fbe7c6" text-anchor="middle"%s>%s</text>`+"\n",
				x, y+holeNameH+glossH-5, fit(d.opt.HoleGlosses[h-1], 9), escape(d.opt.HoleGlosses[h-1]))
		}
	}
}

// fit returns the attributes that squeeze a text of size font into the
// width of a column when it would be wider (judged at 0.55 em a letter):
// a name never runs into the next hole's.
func fit(s string, font int) string {
	const room = pitch - 6
	if float64(utf8.RuneCountInString(s))*0.55*float64(font) <= room {
		return ""
	}
	return fmt.Sprintf(` textLength="%d" lengthAdjust="spacingAndGlyphs"`, room)
}

// counts writes the number of stones in each of pl's holes.
func (d *drawing) counts(pl toguz.Player, y int) {
	for col := range d.n {
		h, x := d.holeAt(pl, col), d.colX(col)+holeW/2
		text, fill := fmt.Sprint(d.p.Stones(pl, h)), colInk
		switch {
		case d.p.IsTuzdik(pl, h):
			text, fill = "X", colTuzdik
		case d.p.Stones(pl, h) == 0:
			fill = "#7a5a3a"
		}
		d.printf(`<rect x="%d" y="%d" width="36" height="22" rx="11" fill="#fff8ea" fill-opacity="0.85" stroke="#7a4a1f"/>`+"\n", x-18, y-16)
		d.printf(`<text x="%d" y="%d" font-size="16" font-weight="bold" fill="%s" text-anchor="middle">%s</text>`+"\n", x, y, fill, text)
	}
}

// holes draws pl's row of holes, whose top edge is at y. Stones settle at
// the end of a hole nearest the kazans: the top for the bottom row.
func (d *drawing) holes(pl toguz.Player, y int, bottomRow bool) {
	d.printf(`<g class="row-%s">`+"\n", pl)
	for col := range d.n {
		h, x := d.holeAt(pl, col), d.colX(col)
		stroke, width := "#3b200b", 2
		dash := ""
		switch (Hole{pl, h}) {
		case d.opt.From:
			stroke, width, dash = colFrom, 5, ` stroke-dasharray="9 5"`
		case d.opt.To:
			stroke, width = colTo, 5
		}
		d.printf(`<rect x="%d" y="%d" width="%d" height="%d" rx="%d" fill="url(#tg-hollow)" stroke="%s" stroke-width="%d"%s/>`+"\n",
			x, y, holeW, holeH, holeW/2, stroke, width, dash)
		if d.p.IsTuzdik(pl, h) {
			d.tuzdik(pl.Other(), x, y)
			continue
		}
		pack := packBottom
		if bottomRow {
			pack = packTop
		}
		d.stones(d.p.Stones(pl, h), x+4, y+4, holeW-8, holeH-8, 14, pack)
	}
	d.printf("</g>\n")
}

// tuzdik marks the hole at x, y as owner's tuzdik: a cross in the owner's
// colour on a red ring.
func (d *drawing) tuzdik(owner toguz.Player, x, y int) {
	mark := "#fffaf0"
	if owner == toguz.Black {
		mark = "#151515"
	}
	cx, cy := x+holeW/2, y+holeH/2
	d.printf(`<circle cx="%d" cy="%d" r="20" fill="%s" stroke="%s" stroke-width="3"/>`+"\n", cx, cy, colTuzdik, mark)
	d.printf(`<path d="M%d %dL%d %dM%d %dL%d %d" stroke="%s" stroke-width="5" stroke-linecap="round"/>`+"\n",
		cx-10, cy-10, cx+10, cy+10, cx+10, cy-10, cx-10, cy+10, mark)
	d.printf(`<text x="%d" y="%d" font-size="11" fill="#fbe7c6" text-anchor="middle">%s</text>`+"\n", cx, y+holeH-10, escape(d.tuzdikWord()))
}

// Where stones settle in their box.
const (
	packTop = iota
	packBottom
	packMiddle
)

// stones draws n stones in the box x, y, w, h: a grid of the largest stones
// (at most maxD pixels across) that holds them all, packed as pack says.
// Rows are centred across the box. Past what even 4-pixel stones can hold,
// the grid is full and the count tells the rest.
func (d *drawing) stones(n, x, y, w, h, maxD, pack int) {
	if n == 0 {
		return
	}
	dia := maxD
	for dia > 4 && (w/dia)*(h/dia) < n {
		dia--
	}
	cols, rows := w/dia, h/dia
	n = min(n, cols*rows)
	r := float64(dia)/2 - 0.6
	for i := range n {
		row, col := i/cols, i%cols
		inRow := min(cols, n-row*cols) // centre a short last row
		cx := float64(x) + float64(w-inRow*dia)/2 + float64(col*dia) + float64(dia)/2
		var cy float64
		switch pack {
		case packTop:
			cy = float64(y + row*dia + dia/2)
		case packBottom:
			cy = float64(y+h-row*dia) - float64(dia)/2
		default:
			used := (n + cols - 1) / cols * dia
			cy = float64(y+(h-used)/2+row*dia) + float64(dia)/2
		}
		d.printf(`<circle cx="%.1f" cy="%.1f" r="%.1f" fill="url(#tg-stone)" stroke="%s" stroke-width="0.8"/>`+"\n",
			cx, cy, r, colStoneEdge)
	}
}

// kazan draws pl's kazan with its top edge at y: the owner's name, the
// stones and their count.
func (d *drawing) kazan(pl toguz.Player, y int) {
	x, w := side, d.inner
	d.printf(`<rect x="%d" y="%d" width="%d" height="%d" rx="%d" fill="url(#tg-hollow)" stroke="#3b200b" stroke-width="2"/>`+"\n",
		x, y, w, kazanH, kazanH/2)
	label := d.labels().White
	if pl == toguz.Black {
		label = d.labels().Black
	}
	d.printf(`<text x="%d" y="%d" font-size="13" fill="#fbe7c6">%s</text>`+"\n", x+26, y+kazanH/2-6, escape(d.labels().Kazan))
	d.printf(`<text x="%d" y="%d" font-size="16" font-weight="bold" fill="#fbe7c6">%s</text>`+"\n", x+26, y+kazanH/2+13, escape(label))
	k := d.p.Kazan(pl)
	d.stones(k, x+kazanLabel, y+5, w-kazanLabel-kazanCount-8, kazanH-10, 12, packMiddle)
	cx := x + w - kazanCount/2 - 8
	d.printf(`<circle cx="%d" cy="%d" r="24" fill="#fff8ea" stroke="#7a4a1f" stroke-width="2"/>`+"\n", cx, y+kazanH/2)
	d.printf(`<text x="%d" y="%d" font-size="22" font-weight="bold" fill="%s" text-anchor="middle">%d</text>`+"\n",
		cx, y+kazanH/2+8, colInk, k)
}
