package main

import (
	"context"
	"fmt"
	"strings"
)

func runShow(ctx context.Context, e env) error {
	fs := newFlags(e, "show", "FEN", "Prints the board diagram of a position string (FEN; quote it, or pass its\n"+
		"fields as separate arguments).")
	rules := rulesetFlag(fs)
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errUsage
	}
	p, _, err := position(*rules, strings.Join(fs.Args(), " "), "")
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(e.stdout, p.Diagram())
	return err
}
