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
	// (RULES.md §6: one more after each of Black's plies).
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
