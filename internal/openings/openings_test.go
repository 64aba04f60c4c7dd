package openings

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/shareddata"
)

var update = flag.Bool("update", false, "rewrite openings.txt from the master games")

// TestDefaultFile rebuilds the embedded suite from the master games and
// compares it with openings.txt (go test -run DefaultFile -update writes it).
func TestDefaultFile(t *testing.T) {
	const mastersFile = "masters-2018.pgn"
	games, err := ReadGames(mastersFile, shareddata.Read(t, mastersFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 742 {
		t.Errorf("read %d games, want 742", len(games))
	}
	suite := Build(games, MinPly, MaxPly, MaxKazanGap)
	var b bytes.Buffer
	if err := Format(&b, suite); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("openings.txt", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if b.String() != Default {
		t.Errorf("openings.txt is not the suite built from %s; run go test -run DefaultFile -update", mastersFile)
	}
	ps, err := Parse(strings.NewReader(Default), toguz.Standard())
	if err != nil {
		t.Fatal(err)
	}
	// After 4 to 8 plies from the start the move number is 3 to 5
	// (docs/rules.md §6: one more after each of Black's plies).
	first, last := toguz.FullMove(toguz.White, 1, MinPly), toguz.FullMove(toguz.White, 1, MaxPly)
	for i, o := range ps {
		p := o.Position
		if d := p.Kazan(toguz.White) - p.Kazan(toguz.Black); d > MaxKazanGap || d < -MaxKazanGap {
			t.Errorf("opening %d: kazans %d–%d", i+1, p.Kazan(toguz.White), p.Kazan(toguz.Black))
		}
		if o.FullMove < first || o.FullMove > last {
			t.Errorf("opening %d: %s, want move %d to %d", i+1, o.FEN(), first, last)
		}
	}
	t.Logf("%d openings from %d games", len(ps), len(games))
}

func TestReadGamesErrors(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"landing", "[Result \"1-0\"]\n\n1. 77 98\n1-0\n", "ply 1"},
		{"illegal", "[Result \"*\"]\n\n1. 76 61\n*\n", "ply 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadGames("x.pgn", []byte(tt.text))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

// TestTree counts the positions after a few plies of small games, and
// checks the filters on them.
func TestTree(t *testing.T) {
	for _, tt := range []struct {
		rules         toguz.Rules
		minPly, plies int
		gap           int
		want          int
	}{
		{toguz.Bestemshe(), 1, 1, 50, 5},
		{toguz.Bestemshe(), 3, 3, 50, 91},  // as docs/engine-testing.md says
		{toguz.Bestemshe(), 4, 4, 50, 407}, // likewise
		{toguz.Bestemshe(), 5, 5, 4, 957},  // the suite of the Bestemshe weights' SPRT
		{toguz.Standard(), 1, 1, 50, 9},
	} {
		suite, err := Tree(tt.rules, tt.minPly, tt.plies, tt.gap)
		if err != nil {
			t.Fatal(err)
		}
		if len(suite) != tt.want {
			t.Errorf("%s, plies %d..%d, gap %d: %d positions, want %d", tt.rules, tt.minPly, tt.plies, tt.gap, len(suite), tt.want)
		}
		seen := map[toguz.Position]bool{}
		for _, o := range suite {
			gap := o.Position.Kazan(toguz.White) - o.Position.Kazan(toguz.Black)
			if seen[o.Position] || o.Position.IsOver() || gap > tt.gap || gap < -tt.gap || o.Position.Rules() != tt.rules {
				t.Errorf("%s: %s repeated, over, off its ruleset or unbalanced", tt.rules, o.FEN())
			}
			seen[o.Position] = true
		}
	}
	if _, err := Tree(toguz.Rules{Holes: 1}, 1, 1, 0); err == nil {
		t.Error("no error for an invalid ruleset")
	}
}
