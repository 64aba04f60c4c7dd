package main

import (
	"context"
	"fmt"
)

func runShow(ctx context.Context, e env) error {
	fs := newFlags(e, "show", "FEN", "Prints the board diagram of a position string (FEN; quote it, or pass its\n"+
		"fields as separate arguments).")
	rules := rulesetFlag(fs)
	p, err := positionFromArgs(fs, e.args, rules)
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(e.stdout, p.Diagram())
	return err
}
