package lessons

import (
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/i18n"
)

// Cell is one hole of a lesson's board.
type Cell struct {
	Side     string // white or black
	Hole     int
	Stones   int
	Dots     []struct{} // the stones drawn, at most maxDots
	More     int        // the stones not drawn
	Tuzdik   bool
	Label    string // what a screen reader says of it
	Name     string // the hole's traditional name, when the board shows them
	Playable bool   // a hole of the side to move, in an exercise: a button
	Mark     string // from or to: the demo's emptied and landing holes
}

// Board is a lesson's board, drawn by the server as the seeds'
// diagrams lay it out: Black's row on top from hole 9 down to 1, White's
// below from 1 up (as the score sheet numbers them). The puzzles draw theirs with it too
// (the template learn-board of internal/web).
type Board struct {
	Top, Bottom   []Cell
	KazanW        int
	KazanB        int
	KazanLabelW   string
	KazanLabelB   string
	ToMove        string
	RowTop, RowBt string // the rows' labels
}

// maxDots is the most stones a hole draws; its count is written anyway.
const maxDots = 24

// DrawBoard returns p as a lesson's board in lang: with the holes'
// traditional names when names, the legal moves of the side to move
// buttons when playable, and the holes from and to (a player and a hole)
// marked where not nil.
func DrawBoard(cat *i18n.Catalog, lang string, p toguz.Position, names, playable bool, from, to *[2]int) *Board {
	holes := i18n.Holes(lang)
	side := func(pl toguz.Player) string { return cat.T(lang, "game."+pl.String()) }
	cell := func(pl toguz.Player, h int) Cell {
		c := Cell{Side: pl.String(), Hole: h, Stones: p.Stones(pl, h), Tuzdik: p.IsTuzdik(pl, h)}
		name := holes[h-1].Name // as the game's board says it
		if names {
			c.Name = name
		}
		if c.Tuzdik {
			c.Label = cat.T(lang, "game.tuzdiklabel", h, name, side(pl.Other()))
		} else {
			c.Label = cat.N(lang, "game.holelabel", c.Stones, h, name, c.Stones)
			c.Dots = make([]struct{}, min(c.Stones, maxDots))
			c.More = c.Stones - len(c.Dots)
		}
		c.Playable = playable && pl == p.Turn() && p.LegalMoves().Has(toguz.Move(h))
		if from != nil && from[0] == int(pl) && from[1] == h {
			c.Mark = "from"
		}
		if to != nil && to[0] == int(pl) && to[1] == h {
			c.Mark = "to"
		}
		return c
	}
	b := &Board{KazanW: p.Kazan(toguz.White), KazanB: p.Kazan(toguz.Black),
		ToMove: cat.T(lang, "game.tomove", side(p.Turn())), RowTop: side(toguz.Black), RowBt: side(toguz.White)}
	b.KazanLabelW = cat.N(lang, "game.kazanlabel", b.KazanW, side(toguz.White), b.KazanW)
	b.KazanLabelB = cat.N(lang, "game.kazanlabel", b.KazanB, side(toguz.Black), b.KazanB)
	for h := p.Holes(); h >= 1; h-- {
		b.Top = append(b.Top, cell(toguz.Black, h))
	}
	for h := 1; h <= p.Holes(); h++ {
		b.Bottom = append(b.Bottom, cell(toguz.White, h))
	}
	return b
}

// diagram is the seeds' text diagram of p (Position.Diagram), its last
// line, the side to move, in the page's language.
func diagram(cat *i18n.Catalog, lang string, p toguz.Position) string {
	d := strings.TrimRight(p.Diagram(), "\n")
	if i := strings.LastIndexByte(d, '\n'); i >= 0 {
		d = d[:i+1]
	}
	return d + cat.T(lang, "game.tomove", cat.T(lang, "game."+p.Turn().String()))
}
