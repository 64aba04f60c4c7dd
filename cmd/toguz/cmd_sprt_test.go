package main

import (
	"strings"
	"testing"
)

func TestSPRTCommand(t *testing.T) {
	bounds := []string{"sprt", "elo0=0", "elo1=30", "alpha=0.05", "beta=0.05"}
	tests := []struct {
		args []string
		code int
		want string
	}{
		// The Aspiration runs of docs/engine-testing.md: the 514-game run
		// alone continues; with the first and third it accepts H1.
		{append(bounds, "47/6/137/8/59"), 0, "LLR 0.39 (-2.94, 2.94): continue"},
		{append(bounds, "47/6/137/8/59", "6/0/27/1/16", "31/5/109/1/54"), 0,
			"[84 11 273 10 129], 1014 games, score 0.544, Elo +30.6\nSPRT: elo0 0 elo1 30 alpha 0.05 beta 0.05: LLR 4.57 (-2.94, 2.94): H1 accepted"},
		{append(bounds, "47/3/108/3/40"), 0, "LLR -3.04 (-2.94, 2.94): H0 accepted"},
		{append(bounds, "0/0/0/0/5"), 0, "score 1.000, Elo n/a"},
		{bounds, 2, "Usage"},
		{append(bounds, "1/2/3"), 1, `pairs "1/2/3": want five counts`},
		{append(bounds, "1/2/x/4/5"), 1, `count "x" is not a whole number`},
		{append(bounds, "0/0/0/0/0"), 1, "no pairs"},
		{[]string{"sprt", "elo0=0", "elo1=30", "alpha=0.05", "1/1/1/1/1"}, 1, "beta= is missing"},
		{[]string{"sprt", "elo0=30", "elo1=0", "alpha=0.05", "beta=0.05", "1/1/1/1/1"}, 1, "elo"},
	}
	for _, tt := range tests {
		code, out, errs := runRecordCmd(t, tt.args...)
		if code != tt.code || !strings.Contains(out+errs, tt.want) {
			t.Errorf("%q: exit %d, %q %q; want %d and %q", tt.args, code, out, errs, tt.code, tt.want)
		}
	}
}
