package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestTournamentTeamSwiss runs a 5-team Swiss of 2 boards at the arbiter's
// table: teams added, each round paired by C.04.6 (team numbers printed,
// the boards written), the boards' results entered, team standings by
// match points then game points; the checker pairs it again.
func TestTournamentTeamSwiss(t *testing.T) {
	file := filepath.Join(t.TempDir(), "teams.trf")
	tn(t, "new", "-name", "Team Swiss", "-system", "teamswiss", "-rounds", "3", file)
	for i := range 10 {
		tn(t, "add", "-name", fmt.Sprintf("Player %d", i+1), file)
	}
	for i, name := range []string{"Almaty", "Astana", "Bishkek", "Osh", "Shymkent"} {
		tn(t, "team", file, name, fmt.Sprint(2*i+1), fmt.Sprint(2*i+2))
	}
	tn(t, "team", "-colours", "B", file)
	// Round 1: the bye to 5 (the largest TPN); 1-3 with 1 White (odd), 2-4
	// with 2 Black (even).
	if got, want := tn(t, "pair", file), "3\n1 3\n4 2\n5 0\n"; got != want {
		t.Fatalf("round 1: %q, want %q", got, want)
	}
	// Almaty (1, 2) against Bishkek (5, 6): 1-5 and 6-2 on the boards.
	tn(t, "result", file, "1", "1", "1-0")
	tn(t, "result", file, "1", "6", "1/2")
	tn(t, "result", file, "1", "3", "0-1")
	tn(t, "result", file, "1", "8", "1-0")
	st := tn(t, "standings", file)
	lines := strings.Split(strings.TrimSpace(st), "\n")
	// Almaty won 1½-½ (2 MP), Astana 2-0 against Osh (2 MP, 2 GP first),
	// Shymkent the bye (1 MP, 1 GP).
	if len(lines) != 6 || strings.Join(strings.Fields(lines[1]), " ") != "1 2 Astana 1 2 2.0" || strings.Join(strings.Fields(lines[3]), " ") != "3 5 Shymkent 1 1 1.0" {
		t.Fatalf("standings:\n%s", st)
	}
	round2 := tn(t, "pair", "-dry-run", file)
	if !strings.HasPrefix(round2, "3\n") || strings.Contains(round2, "5 0\n") {
		t.Fatalf("round 2: %q (Shymkent may not have a second bye)", round2)
	}
	if out := tn(t, "check", file); !strings.Contains(out, "1 of 1 rounds paired as the file has them") {
		t.Fatalf("check: %s", out)
	}
	code, _, errs := runRecordCmd(t, "tournament", "team", file, "Taraz", "99")
	if code == 0 || !strings.Contains(errs, "99") {
		t.Fatalf("a team of an unknown player: exit %d, %q", code, errs)
	}
}
