package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/toguz/toguz"
)

func runShow(ctx context.Context, e env) error {
	fs := newFlags(e, "show", "FEN", "Prints the board diagram of a position string (FEN; quote it, or pass its\n"+
		"fields as separate arguments).")
	rules := fs.String("ruleset", "standard", "ruleset name (standard, bestemshe, seven, pre1949, or parameters)")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errUsage
	}
	r, err := toguz.ParseRules(*rules)
	if err != nil {
		return err
	}
	p, _, err := toguz.ParseFEN(strings.Join(fs.Args(), " "), r)
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(e.stdout, p.Diagram())
	return err
}
