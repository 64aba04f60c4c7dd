package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTournamentDubov: `generate -system dubov` writes XXY dubov and the
// checker pairs every round again as the file has it (with the file's
// system), and not all of them with the Dutch system; `new -system dubov`
// and `pair` pair a fresh event by it.
func TestTournamentDubov(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "d.trf")
	tn(t, "generate", "-system", "dubov", "-players", "23", "-rounds", "6", "-forfeits", "0.05", "-byes", "0.05", "-late", "0.1", "-seed", "3", "-o", f)
	b, _ := os.ReadFile(f)
	if !strings.Contains(string(b), "XXY dubov") {
		t.Fatal("the generated file does not name the Dubov system")
	}
	if out := tn(t, "check", f); !strings.Contains(out, "6 of 6 rounds paired as the file has them (dubov)") {
		t.Errorf("check: %s", out)
	}
	if code, out, _ := runRecordCmd(t, "tournament", "check", "-q", "-system", "dutch", f); code != 1 || strings.Contains(out, "6 of 6") {
		t.Errorf("the Dutch system checks the Dubov file: exit %d: %s", code, out)
	}
	// A fresh event at the arbiter's table.
	ev := filepath.Join(dir, "open.trf")
	tn(t, "new", "-name", "Open", "-system", "dubov", "-rounds", "5", ev)
	for i := range 5 {
		tn(t, "add", "-name", fmt.Sprintf("Player %d", i+1), "-rating", fmt.Sprint(2200-50*i), ev)
	}
	// Round 1: the first half against the second, 1 White (odd), the bye
	// to the last (3.1: the largest TPN).
	if out := tn(t, "pair", ev); out != "3\n1 3\n4 2\n5 0\n" {
		t.Errorf("round 1: %q", out)
	}
}
