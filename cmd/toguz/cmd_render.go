package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/svg"
)

func runRender(ctx context.Context, e env) error {
	fs := newFlags(e, "render", "--svg FEN | -record FILE [-game N] [-ply N] | -diagram FILE",
		"Draws the position string FEN (quote it, or pass its fields as separate\n"+
			"arguments), the position after a ply of a game record (with its last move\n"+
			"highlighted) or a text diagram as an SVG diagram, to stdout or to the file\n"+
			"given with -o.\n\n"+
			"Example: toguz render --svg --last 7 --land b6 -o board.svg \\\n"+
			"    '9S,9S,9S,1,10S,10S,10S,10S,10S/9S,9S,9S,9S,9S,9S,1S,10S,10S 10 0 N 1'")
	fs.Bool("svg", true, "write SVG (the only format so far)")
	out := fs.String("o", "", "write to this file instead of stdout")
	rules := rulesetFlag(fs)
	flip := fs.Bool("flip", false, "turn the board round: Black's row at the bottom")
	last := fs.Int("last", 0, "highlight this hole, the one emptied by the last move (of the player not to move); with -record, the last move's holes unless --last or --land is given")
	land := fs.String("land", "", "highlight the hole where the last move's last stone fell: w or b and its number, e.g. b6")
	white := fs.String("white", "", "White's name")
	black := fs.String("black", "", "Black's name")
	width := fs.Int("width", 0, "width in pixels (0: natural size)")
	lang := holeNamesFlag(fs)
	b, err := positionFromArgs(fs, e, rules)
	if err != nil {
		return err
	}
	p := b.pos
	opt := svg.Options{Flip: *flip, White: *white, Black: *black, Width: *width}
	if opt.HoleNames, opt.HoleGlosses, err = holeNames(*lang, p.Holes()); err != nil {
		return err
	}
	if b.last != 0 && *last == 0 && *land == "" {
		opt.From, opt.To = svg.LastMove(b.before, b.last)
	}
	if *last != 0 {
		if *last < 1 || *last > p.Holes() {
			return fmt.Errorf("--last %d: want a hole number 1..%d", *last, p.Holes())
		}
		opt.From = svg.Hole{Side: p.Turn().Other(), Number: *last}
	}
	if *land != "" {
		if opt.To, err = parseHole(*land, p.Holes()); err != nil {
			return fmt.Errorf("--land: %w", err)
		}
	}
	doc, err := svg.Render(p, opt)
	if err != nil {
		return err
	}
	if *out != "" {
		return os.WriteFile(*out, doc, 0o644)
	}
	_, err = e.stdout.Write(doc)
	return err
}

// parseHole reads a hole as w6 or b6 (White's or Black's hole 6).
func parseHole(s string, holes int) (svg.Hole, error) {
	var h svg.Hole
	switch {
	case strings.HasPrefix(s, "w"), strings.HasPrefix(s, "W"):
		h.Side = toguz.White
	case strings.HasPrefix(s, "b"), strings.HasPrefix(s, "B"):
		h.Side = toguz.Black
	default:
		return h, fmt.Errorf("%q: want w or b and a hole number, e.g. b6", s)
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil || n < 1 || n > holes {
		return h, fmt.Errorf("%q: want w or b and a hole number 1..%d, e.g. b6", s, holes)
	}
	h.Number = n
	return h, nil
}
