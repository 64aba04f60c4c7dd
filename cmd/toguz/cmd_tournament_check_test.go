package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/tournament"
)

// TestTournamentGenerateAndCheck makes a random tournament with late
// entries, byes, forfeits and withdrawals; the same seed gives the same
// file, and the checker pairs every round of it as the file has it.
func TestTournamentGenerateAndCheck(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.trf"), filepath.Join(dir, "b.trf")
	args := []string{"generate", "-players", "41", "-rounds", "9", "-forfeits", "0.05", "-byes", "0.05", "-withdrawals", "0.02", "-late", "0.1", "-seed", "7"}
	tn(t, append(args, "-o", a)...)
	tn(t, append(args, "-o", b)...)
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if string(da) != string(db) || len(da) == 0 {
		t.Fatal("the same seed gave two files")
	}
	for _, code := range []string{" - Z", " - H", "XXW "} {
		if !strings.Contains(string(da), code) {
			t.Errorf("the generated file has no %q", code)
		}
	}
	out := tn(t, "check", a)
	if !strings.Contains(out, "9 of 9 rounds paired as the file has them") {
		t.Errorf("check: %s", out)
	}
}

// TestTournamentCheckReportsDifference changes one game's colours in the
// file: the checker names the round and the pairs on each side (round 5,
// paired from the changed colours, differs too), and exits 1.
func TestTournamentCheckReportsDifference(t *testing.T) {
	file := filepath.Join(t.TempDir(), "e.trf")
	tn(t, "generate", "-players", "20", "-rounds", "5", "-seed", "3", "-o", file)
	ev, err := loadEvent(file)
	if err != nil {
		t.Fatal(err)
	}
	// Swap White and Black of round 4's first board.
	pr := ev.Pairs(4)[0]
	w, bl := ev.Player(pr.White), ev.Player(pr.Black)
	w.Rounds[3].Colour, bl.Rounds[3].Colour = tournament.Black, tournament.White
	if err := saveEvent(file, ev); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runRecordCmd(t, "tournament", "check", "-q", file)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, errs)
	}
	want := []string{"round 4 differs", "file:", "checker:", "3 of 5 rounds paired as the file has them"}
	for _, s := range want {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	if strings.Contains(out, "round 1: the same") {
		t.Errorf("-q printed the rounds that agree:\n%s", out)
	}
}

// TestTournamentBaku: a Swiss with the Baku acceleration pairs its first
// round with GA's virtual point (GA's top half meets GA's bottom half, GB
// likewise) and checks as generated.
func TestTournamentBaku(t *testing.T) {
	file := filepath.Join(t.TempDir(), "baku.trf")
	tn(t, "generate", "-system", "baku", "-players", "16", "-rounds", "7", "-seed", "4", "-late", "0", "-byes", "0", "-forfeits", "0", "-withdrawals", "0", "-o", file)
	ev, err := loadEvent(file)
	if err != nil {
		t.Fatal(err)
	}
	if ev.System != tournament.DutchBaku || ev.BakuGA() != 8 {
		t.Fatalf("system %s, GA to %d", ev.System, ev.BakuGA())
	}
	for _, p := range ev.Pairs(1) {
		a, b := min(p.White, p.Black), max(p.White, p.Black)
		if (a <= 8) != (b <= 8) || b-a != 4 {
			t.Errorf("round 1 pairs %d-%d across GA and GB", p.White, p.Black)
		}
	}
	if out := tn(t, "check", file); !strings.Contains(out, "7 of 7 rounds paired as the file has them (baku)") {
		t.Errorf("check: %s", out)
	}
}

// TestTournamentBurstein: a Burstein Swiss pairs its seeding rounds as the
// Dutch system does and the rounds after them by the Index, checks as
// generated, and `pair --system burstein` pairs the next round of a file
// that names another system by the Burstein rules.
func TestTournamentBurstein(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "burstein.trf")
	tn(t, "generate", "-system", "burstein", "-players", "24", "-rounds", "8", "-seed", "5", "-o", file)
	if out := tn(t, "check", file); !strings.Contains(out, "8 of 8 rounds paired as the file has them (burstein)") {
		t.Errorf("check: %s", out)
	}
	dutchFile := filepath.Join(dir, "dutch.trf")
	tn(t, "generate", "-system", "dutch", "-players", "24", "-rounds", "8", "-seed", "5", "-o", dutchFile)
	// The first four rounds are the seeding rounds: the same pairs.
	a, _ := loadEvent(file)
	b, _ := loadEvent(dutchFile)
	if tournament.PairsText(a.Pairs(1)) != tournament.PairsText(b.Pairs(1)) {
		t.Errorf("round 1: Burstein %s, Dutch %s", tournament.PairsText(a.Pairs(1)), tournament.PairsText(b.Pairs(1)))
	}
	// Checked as Burstein, the Dutch file's later rounds differ.
	code, out, _ := runRecordCmd(t, "tournament", "check", "-q", "-system", "burstein", dutchFile)
	if code == 0 || !strings.Contains(out, "rounds paired as the file has them (burstein)") {
		t.Errorf("check -system burstein of a Dutch file: exit %d\n%s", code, out)
	}
}
