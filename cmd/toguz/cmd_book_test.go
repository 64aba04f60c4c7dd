package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBook(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.book")
	checked := filepath.Join(dir, "checked.book")
	games := "../../testdata/games.toguz"
	tests := []struct {
		args []string
		code int
		want string
	}{
		// 5 games: 7 (0-1), 8 (0-1), 7 (*), one from a position (two more
		// positions), one Bestemshe (skipped).
		{[]string{"book", "build", "-o", small, "--games", games, "--min-count", "1", "--max-ply", "2"}, 0,
			"5 positions, 7 moves"},
		{[]string{"book", "show", "--book", small}, 0,
			"   7      2      0      0      1   0.0%      -  best\n   8      1      0      0      1   0.0%      -\n"},
		{[]string{"book", "show", "--book", small, "9S,9S,9S,1,10S,10S,10S,10S,10S/9S,9S,9S,9S,9S,9S,1S,10S,10S 10 0 N 1"}, 0,
			"   7      1      0      0      0  50.0%      -\n   9      1      1      0      0 100.0%      -  best\n"},
		{[]string{"book", "show", "--book", small, "9S,9S,9S,9S,9S,9S,9S,9S,9S/1S,10S,10S,10S,10S,10S,10S,10S,10S 0 0 N 1"}, 0,
			"not in the book"},
		{[]string{"book", "build", "-o", checked, "--games", games + "@3", "--min-count", "1", "--max-ply", "2",
			"--check-depth", "2", "--selfplay", "2", "--selfplay-depth", "1", "--selfplay-level", "5"}, 0, "positions"},
		{[]string{"book", "show", "--book", checked}, 0, "check depth 2 margin 1000"},
		{[]string{"book", "show"}, 0, "masters-2018.pgn@1"},
		{[]string{"book"}, 2, "Usage: toguz book build"},
		{[]string{"book", "build", "--games", games}, 2, "Usage: toguz book build"},
		{[]string{"book", "build", "-o", small, "--games", games + "@0"}, 2, "weight"},
		{[]string{"book", "build", "-o", small, "--games", filepath.Join(dir, "missing.pgn")}, 1, "no such file"},
		{[]string{"book", "show", "--book", filepath.Join(dir, "missing.book")}, 1, "no such file"},
		{[]string{"book", "show", "--book", games}, 1, "corrupt opening book"},
		{[]string{"book", "show", "x"}, 1, "position string"},
		// A variant's book by self-play, and the embedded ones.
		{[]string{"book", "build", "-ruleset", "bestemshe", "-o", small, "--selfplay", "4", "--selfplay-depth", "2", "--min-count", "1", "--max-ply", "4"}, 0,
			"from 4 games (0 skipped for their rules)"},
		{[]string{"book", "show", "-ruleset", "bestemshe", "--book", small}, 0, "selfplay 4@1 (depth 2, level 8, seed 1)"},
		{[]string{"book", "build", "-ruleset", "bestemshe", "-o", small, "--games", games, "--min-count", "1"}, 0, "from 1 games (4 skipped for their rules)"},
		{[]string{"book", "show", "-ruleset", "bestemshe"}, 0, "selfplay 2000@1 (depth 10, level 9, seed 1)"},
		{[]string{"book", "show", "-ruleset", "seven"}, 0, "selfplay 800@1 (depth 10, level 9, seed 1)"},
		{[]string{"book", "show", "-ruleset", "pre1949"}, 1, "no embedded book of the ruleset pre1949"},
	}
	for _, tt := range tests {
		code, out, errs := runRecordCmd(t, tt.args...)
		if code != tt.code || !strings.Contains(out+errs, tt.want) {
			t.Errorf("%q: exit %d, %q %q; want %d and %q", tt.args, code, out, errs, tt.code, tt.want)
		}
	}
	if _, err := os.Stat(small); err != nil {
		t.Error(err)
	}
}
