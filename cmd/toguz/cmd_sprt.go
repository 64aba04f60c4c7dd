package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/toguz/toguz/internal/match"
)

const sprtSummary = `Computes the SPRT of pair counts (as 'toguz match' prints them: pairs of games
of one opening with colours swapped that scored 0, ½, 1, 1½, 2 points for the first
engine), summing every PAIRS given: the log-likelihood ratio of the pentanomial
GSPRT that 'toguz match -sprt' uses, and whether it decides. Runs of one test
on different openings add up this way. Example:
  toguz sprt elo0=0 elo1=30 alpha=0.05 beta=0.05 47/6/137/8/59 6/0/27/1/16`

func runSPRT(_ context.Context, e env) error {
	fs := newFlags(e, "sprt", "elo0=E0 elo1=E1 alpha=A beta=B PAIRS...", sprtSummary)
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	var params, pairs []string
	for _, a := range fs.Args() {
		if strings.Contains(a, "=") {
			params = append(params, a)
		} else {
			pairs = append(pairs, a)
		}
	}
	if len(pairs) == 0 {
		fs.Usage()
		return errUsage
	}
	kv, err := keyValues(params, "elo0", "elo1", "alpha", "beta")
	if err != nil {
		return err
	}
	t := match.SPRT{Elo0: kv["elo0"], Elo1: kv["elo1"], Alpha: kv["alpha"], Beta: kv["beta"]}
	if err := t.Validate(); err != nil {
		return err
	}
	var c match.Counts
	for _, p := range pairs {
		f := strings.Split(p, "/")
		if len(f) != 5 {
			return fmt.Errorf("pairs %q: want five counts a/b/c/d/e", p)
		}
		for i, s := range f {
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 {
				return fmt.Errorf("pairs %q: count %q is not a whole number", p, s)
			}
			c.Pairs[i] += n
		}
	}
	n, points := 0, 0
	for i, k := range c.Pairs {
		n += k
		points += i * k
	}
	if n == 0 {
		return fmt.Errorf("no pairs")
	}
	score := float64(points) / float64(4*n)
	elo := "n/a"
	if score > 0 && score < 1 {
		elo = fmt.Sprintf("%+.1f", match.Elo(score))
	}
	fmt.Fprintf(e.stdout, "Pairs (0, ½, 1, 1½, 2 points): %v, %d games, score %.3f, Elo %s\n", c.Pairs, 2*n, score, elo)
	printSPRT(e.stdout, t, t.LLRPentanomial(c))
	return nil
}

// printSPRT writes the line of an SPRT's state, as match and sprt print it.
func printSPRT(w io.Writer, t match.SPRT, llr float64) {
	lo, hi := t.Bounds()
	fmt.Fprintf(w, "SPRT: elo0 %g elo1 %g alpha %g beta %g: LLR %.2f (%.2f, %.2f): %s\n",
		t.Elo0, t.Elo1, t.Alpha, t.Beta, llr, lo, hi, t.Decide(llr))
}
