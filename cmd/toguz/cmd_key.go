package main

import (
	"context"
	"fmt"

	"github.com/toguz/toguz/internal/abacus"
	"github.com/toguz/toguz/internal/i18n"
)

func runKey(ctx context.Context, e env) error {
	fs := newFlags(e, "key", "[-base B] [-lang L] A [OP B]",
		"Calculates on the board with seed 000's key (Тоғыз-құмалақ тақтасының\n"+
			"кілті): A and B are written in base B (2..10), OP is + - * (or x) / ;\n"+
			"each step prints what moved and the boards after it, in the seeds'\n"+
			"diagram style, and the last line is the result (a division's\n"+
			"remainder as the fraction the tuzdik marks). With A alone, shows A\n"+
			"on the board: its units in the first row's hole 1.\n\n"+
			"Example: toguz key --base 8 347 + 56")
	base := fs.Int("base", 10, "the base the numbers are written in, 2..10")
	lang := fs.String("lang", "en", "the language of the steps: en, kk, kk-Latn, ky, ru")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 3 && fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	tag, ok := i18n.Parse(*lang)
	if !ok {
		return fmt.Errorf("-lang %q: want en, kk, kk-Latn, ky or ru", *lang)
	}
	if fs.NArg() == 1 {
		n, err := abacus.Parse(fs.Arg(0), *base)
		if err != nil {
			return err
		}
		l, err := abacus.Show(*base, n)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(e.stdout, "%s%s\n", l.Diagram(), n.Format())
		return err
	}
	op, err := abacus.ParseOp(fs.Arg(1))
	if err != nil {
		return err
	}
	a, err := abacus.Parse(fs.Arg(0), *base)
	if err != nil {
		return err
	}
	b, err := abacus.Parse(fs.Arg(2), *base)
	if err != nil {
		return err
	}
	c, err := abacus.Compute(*base, a, op, b)
	if err != nil {
		return err
	}
	cat := i18n.New()
	for i, s := range c.Steps {
		fmt.Fprintf(e.stdout, "%s. %s\n", cat.T(tag, "key.step.n", i+1, len(c.Steps)), s.Heading(cat, tag, op))
		for _, m := range s.Moves {
			fmt.Fprintf(e.stdout, "  %s\n", m.Text(cat, tag))
		}
		fmt.Fprintf(e.stdout, "%s\n", s.Layout.Diagram())
	}
	_, err = fmt.Fprintln(e.stdout, c.Sentence())
	return err
}
