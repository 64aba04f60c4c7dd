package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toguz/toguz"
)

func TestShow(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"show", "9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 N 1"}, 0,
			"   9   8   7   6   5   4   3   2   1\n   9   9   9   9   –  10  10  10  10  (0)\n" +
				"   9   9   9   9   9   1  10  10  10  (10)\n   1   2   3   4   5   6   7   8   9\nBlack to move\n"},
		{[]string{"show", "9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S", "10", "0", "N", "1"}, 0, "Black to move"},
		{[]string{"show", "--ruleset", "bestemshe", "5S,5S,5S,5S,5S/5S,5S,5S,5S,5S 0 0 S 1"}, 0, "   5   4   3   2   1\n"},
		{[]string{"show", "-names", "kk", afterSeven}, 0, "Black to move\n   1 арт             4 атсыратар       7 қандықақпан\n"},
		{[]string{"show", "-names", "en", afterSeven}, 0, "   7 qandyqaqpan — bloody trap\n"},
		{[]string{"show", "-names", "RU", afterSeven}, 0, "   1 арт — зад "},
		{[]string{"show", "-names", "ky", afterSeven}, 0, "   9 ооз\n"},
		{[]string{"show", "-names", "de", afterSeven}, 1, `-names "de": want one of en, kk, kk-Latn, ky, ru`},
		{[]string{"show", "--ruleset", "bestemshe", "-names", "kk", "5S,5S,5S,5S,5S/5S,5S,5S,5S,5S 0 0 S 1"}, 1, "traditional names are those of the 9 holes"},
		{[]string{"show", "9S 0 0 S 1"}, 1, "must be two rows"},
		{[]string{"show", "--ruleset", "chess", "x"}, 1, "unknown ruleset"},
		{[]string{"show"}, 2, "Usage"},
	}
	for _, tt := range tests {
		code, out, errs := runRecordCmd(t, tt.args...)
		if code != tt.code || !strings.Contains(out+errs, tt.want) {
			t.Errorf("%q: exit %d, %q %q; want %d and %q", tt.args, code, out, errs, tt.code, tt.want)
		}
	}
}

// TestShowSources takes the position from a record at a ply, from a game
// of a many-game file, and from a text diagram.
func TestShowSources(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	games := write("games.tgn", "[Result \"*\"]\n\n1. 76(10) 98\n2. 66 87\n*\n\n"+
		"[Ruleset \"bestemshe\"]\n[Result \"*\"]\n\n1. 3 *\n")
	show := func(args ...string) string {
		t.Helper()
		code, out, errs := runRecordCmd(t, append([]string{"show"}, args...)...)
		if code != 0 {
			t.Fatalf("show %q: exit %d: %s", args, code, errs)
		}
		return out
	}
	start, afterSeven := show("9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1"), show(afterSeven)
	_, p, err := toguz.ParsePlies(toguz.StartPosition(), "76 98 66 87")
	if err != nil {
		t.Fatal(err)
	}
	final := p.Diagram()
	r, err := toguz.ParseRules("bestemshe")
	if err != nil {
		t.Fatal(err)
	}
	p, err = toguz.NewPosition(r)
	if err != nil {
		t.Fatal(err)
	}
	bestemshe := p.After(3).Diagram()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-record", games, "-ply", "0"}, start},
		{[]string{"-record", games, "-ply", "1"}, afterSeven},
		{[]string{"-record", games}, final},
		{[]string{"-record", games, "-game", "2"}, bestemshe},
		{[]string{"-diagram", write("seven.txt", afterSeven)}, afterSeven},
	} {
		if got := show(tt.args...); got != tt.want {
			t.Errorf("show %q:\n%s\nwant\n%s", tt.args, got, tt.want)
		}
	}
	var out, errs bytes.Buffer
	code := run(context.Background(), env{args: []string{"show", "-diagram", "-"}, stdin: strings.NewReader(afterSeven), stdout: &out, stderr: &errs})
	if code != 0 || out.String() != afterSeven {
		t.Errorf("-diagram -: exit %d, %q %q", code, out.String(), errs.String())
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-record", games, "-ply", "5"}, "-ply 5: game 1 of " + games + " has 4 plies"},
		{[]string{"-record", games, "-game", "3"}, "-game 3: " + games + " holds 2 games"},
		{[]string{"-record", games, afterSeven}, "give one position"},
		{[]string{"-ply", "3", afterSeven}, "need -record"},
		{[]string{"-record", games, "-ruleset", "seven"}, "names its own ruleset"},
		{[]string{"-record", filepath.Join(dir, "none.tgn")}, "none.tgn"},
		{[]string{"-diagram", write("bad.txt", "9 9 (0)\n")}, "-diagram " + filepath.Join(dir, "bad.txt")},
	} {
		code, _, errs := runRecordCmd(t, append([]string{"show"}, tt.args...)...)
		if code != 1 || !strings.Contains(errs, tt.want) {
			t.Errorf("show %q: exit %d, %q; want 1 and %q", tt.args, code, errs, tt.want)
		}
	}
}
