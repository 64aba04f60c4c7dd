package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTournamentDoubleSwiss runs a Double-Swiss event from the command
// line: new with -rounds in matches, pair writes both games of a match,
// results per game, generate and check.
func TestTournamentDoubleSwiss(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "d.trf")
	tn(t, "new", "-system", "doubleswiss", "-rounds", "3", "-name", "Double", file)
	for _, n := range []string{"Abay", "Bolat", "Dana", "Erlan", "Gulnar"} {
		tn(t, "add", "-name", n, file)
	}
	out := tn(t, "pair", file)
	// Match 1: the bye to the largest TPN, 5; then 1-3 and 4-2 (4.3.1:
	// an odd TPN has the initial colour).
	if want := "3\n1 3\n4 2\n5 0\n"; out != want {
		t.Fatalf("pair: %q, want %q", out, want)
	}
	ev, err := loadEvent(file)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Rounds != 6 || ev.Played() != 2 {
		t.Fatalf("XXR %d, %d rounds paired; want 6 and 2", ev.Rounds, ev.Played())
	}
	if p := ev.Pairs(2); len(p) != 3 || p[0].White != 3 || p[0].Black != 1 {
		t.Fatalf("the second game: %v", p)
	}
	for _, g := range [][3]string{{"1", "1", "1-0"}, {"1", "4", "1/2"}, {"2", "3", "0-1"}, {"2", "2", "1/2"}} {
		tn(t, "result", file, g[0], g[1], g[2])
	}
	tn(t, "pair", file)
	out = tn(t, "check", file)
	if !strings.Contains(out, "4 of 4 rounds paired as the file has them (doubleswiss)") {
		t.Fatalf("check: %s", out)
	}

	gen := filepath.Join(dir, "g.trf")
	tn(t, "generate", "-system", "doubleswiss", "-players", "23", "-rounds", "5", "-forfeits", "0.05", "-byes", "0.05", "-seed", "4", "-o", gen)
	out = tn(t, "check", gen)
	if !strings.Contains(out, "10 of 10 rounds paired as the file has them (doubleswiss)") {
		t.Fatalf("check: %s", out)
	}
}
