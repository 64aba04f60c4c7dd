package main

import (
	"context"
	"fmt"
)

func runShow(ctx context.Context, e env) error {
	fs := newFlags(e, "show", "FEN | -record FILE [-game N] [-ply N] | -diagram FILE",
		"Prints the board diagram of a position string (FEN; quote it, or pass its\n"+
			"fields as separate arguments), of the position after a ply of a game record,\n"+
			"or of a text diagram as the seeds draw it; with -names, the holes'\n"+
			"traditional names under it.\n\n"+
			"Example: toguz show -names kk -record game.tgn -ply 20")
	rules := rulesetFlag(fs)
	lang := holeNamesFlag(fs)
	b, err := positionFromArgs(fs, e, rules)
	if err != nil {
		return err
	}
	names, glosses, err := holeNames(*lang, b.pos.Holes())
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(e.stdout, b.pos.DiagramNamed(names, glosses))
	return err
}
