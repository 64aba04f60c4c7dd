package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/tournament"
)

// tn runs `toguz tournament ARGS` in-process and fails on a non-zero exit.
func tn(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errs := runRecordCmd(t, append([]string{"tournament"}, args...)...)
	if code != 0 {
		t.Fatalf("tournament %s: exit %d: %s", strings.Join(args, " "), code, errs)
	}
	return out
}

// TestTournamentRoundRobin runs a 4-player round robin at the arbiter's
// table: create, add, pair each round (Berger), enter results, standings,
// print, export.
func TestTournamentRoundRobin(t *testing.T) {
	file := filepath.Join(t.TempDir(), "club.trf")
	tn(t, "new", "-name", "Club championship", "-system", "roundrobin", "-tiebreaks", "DE SB KS", file)
	for i, name := range []string{"Abenov, Arman", "Bekova, Dana", "Sadykov, Erlan", "Tokaeva, Gulnar"} {
		if out := tn(t, "add", "-name", name, "-rating", "2000", "-fed", "KAZ", file); !strings.HasPrefix(out, string(rune('1'+i))+" ") {
			t.Errorf("add %s: %q", name, out)
		}
	}
	want := []string{"2\n1 4\n2 3\n", "2\n4 3\n1 2\n", "2\n2 4\n3 1\n"}
	results := [][2][]string{{{"1", "1-0"}, {"2", "1/2"}}, {{"4", "0-1"}, {"1", "0-1"}}, {{"2", "1/2"}, {"3", "1/2"}}}
	for r := range 3 {
		if got := tn(t, "pair", file); got != want[r] {
			t.Errorf("round %d: %q, want %q", r+1, got, want[r])
		}
		for _, res := range results[r] {
			tn(t, "result", file, string(rune('1'+r)), res[0], res[1])
		}
	}
	st := tn(t, "standings", file)
	lines := strings.Split(strings.TrimSpace(st), "\n")
	// Bekova and Sadykov drew their game: DE does not separate them, and
	// its cell is empty.
	if len(lines) != 5 || !strings.Contains(lines[0], "SB") || strings.Join(strings.Fields(lines[1]), " ") != "1 2 Bekova, Dana KAZ 2000 2.0 2.75 1.5" {
		t.Errorf("standings:\n%s", st)
	}
	html := tn(t, "print", file)
	for _, w := range []string{"<h2>Round 3</h2>", `<td translate="no">Bekova, Dana</td>`, "Standings after round 3", "<th>KS</th>"} {
		if !strings.Contains(html, w) {
			t.Errorf("no %q in the page", w)
		}
	}
	if got := tn(t, "print", "-csv", "pairings", "-round", "1", file); !strings.Contains(got, "1,1,1,\"Abenov, Arman\",1-0,4,\"Tokaeva, Gulnar\"") {
		t.Errorf("pairings csv:\n%s", got)
	}
	trf := tn(t, "export", file)
	data, _ := os.ReadFile(file)
	if trf != string(data) || !strings.Contains(trf, "XXY roundrobin\n") || !strings.Contains(trf, "XXB DE SB KS\n") {
		t.Errorf("export:\n%s", trf)
	}
	if got := tn(t, "export", "-rating", file); !strings.Contains(got, "start,name,federation") {
		t.Errorf("rating csv:\n%s", got)
	}
	code, _, errs := runRecordCmd(t, "tournament", "pair", file)
	if code != 1 || !strings.Contains(errs, "all 3 rounds of the round robin are paired") {
		t.Errorf("a fourth round: exit %d %s", code, errs)
	}
}

// TestTournamentDutchPairs: -system dutch pairs by the Dutch system, and a
// bad file names its line.
func TestTournamentDutchPairs(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "open.trf")
	tn(t, "new", "-rounds", "5", file)
	tn(t, "add", "-name", "A", file)
	tn(t, "add", "-name", "B", file)
	if got := tn(t, "pair", "-system", "dutch", "-dry-run", file); got != "1\n1 2\n" {
		t.Errorf("two players: %q", got)
	}
	tn(t, "bye", file, "2", "1", "H")
	if data, _ := os.ReadFile(file); !strings.Contains(string(data), "  0000 - H") {
		t.Errorf("requested bye not written:\n%s", data)
	}
	// 2 is not to be paired in round 1: 1 alone has the pairing-allocated bye.
	if got := tn(t, "pair", "-system", "dutch", "-dry-run", file); got != "1\n1 0\n" {
		t.Errorf("with 2's requested bye: %q", got)
	}
	bad := filepath.Join(dir, "bad.trf")
	os.WriteFile(bad, []byte("012 X\n001    1 m    A                                 21O0\n"), 0o644)
	code, _, errs := runRecordCmd(t, "tournament", "standings", bad)
	if code != 1 || !strings.Contains(errs, "line 2, column 49 (rating)") {
		t.Errorf("exit %d: %s", code, errs)
	}
	if code, _, _ := runRecordCmd(t, "tournament", "new", "-rounds", "5", file); code != 1 {
		t.Error("new overwrote an existing file")
	}
}

// TestTournamentKnockout: a 2-player match of 2 games and an armageddon.
func TestTournamentKnockout(t *testing.T) {
	file := filepath.Join(t.TempDir(), "ko.trf")
	tn(t, "new", "-system", "knockout", "-knockout", "2 armageddon", file)
	tn(t, "add", "-name", "A", file)
	tn(t, "add", "-name", "B", file)
	if got := tn(t, "pair", file); got != "1\n1 2\n" {
		t.Errorf("game 1: %q", got)
	}
	tn(t, "result", file, "1", "1", "1-0")
	if got := tn(t, "pair", file); got != "1\n2 1\n" {
		t.Errorf("game 2: %q", got)
	}
	tn(t, "result", file, "2", "1", "1-0")
	if got := tn(t, "pair", file); got != "1\n1 2\n" {
		t.Errorf("armageddon: %q", got)
	}
	tn(t, "result", file, "3", "1", "D-D")
	code, _, errs := runRecordCmd(t, "tournament", "pair", file)
	if code != 1 || !strings.Contains(errs, "player 2 won it") {
		t.Errorf("after the armageddon's draw (Black's): exit %d %s", code, errs)
	}
}

// TestTournamentDutchFixtures pairs the Dutch package's TRF fixtures
// through the command: the real reader, the adapter, -p's output, the
// pairs worked by hand (internal/tournament/dutch/trf_test.go says how).
func TestTournamentDutchFixtures(t *testing.T) {
	for file, want := range map[string]string{
		"after-round-1.trf":         "3\n5 1\n2 3\n4 0\n",
		"byes-forfeits-round-7.trf": "5\n7 1\n4 6\n8 2\n5 9\n3 0\n",
	} {
		data, err := os.ReadFile(filepath.Join("..", "..", "internal", "tournament", "dutch", "testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(t.TempDir(), file)
		os.WriteFile(name, data, 0o644)
		if got := tn(t, "pair", "-system", "dutch", "-dry-run", name); got != want {
			t.Errorf("%s: got\n%swant\n%s", file, got, want)
		}
		if after, _ := os.ReadFile(name); string(after) != string(data) {
			t.Errorf("%s: -dry-run changed the file", file)
		}
	}
}

// TestTournamentSwiss runs a 9-player, 5-round Swiss at the arbiter's table:
// pair with -system dutch, enter results (a forfeit, a requested bye, a
// withdrawal among them), pair again; every round the pairing printed is
// the one written into the file and holds the absolute criteria.
func TestTournamentSwiss(t *testing.T) {
	file := filepath.Join(t.TempDir(), "open.trf")
	tn(t, "new", "-name", "Open", "-rounds", "5", "-colour", "white1", file)
	for i := range 9 {
		tn(t, "add", "-name", fmt.Sprintf("Player %d", i+1), "-rating", fmt.Sprint(2200-20*i), file)
	}
	for r := 1; r <= 5; r++ {
		switch r {
		case 3:
			tn(t, "bye", file, "4", "3", "H")
		case 4:
			tn(t, "withdraw", file, "9")
		}
		before, err := loadEvent(file)
		if err != nil {
			t.Fatal(err)
		}
		out := tn(t, "pair", "-system", "dutch", file)
		if r == 1 && out != "5\n1 5\n6 2\n3 7\n8 4\n9 0\n" {
			// Round 1 (C.04.3): top half against bottom half, the colour
			// drawn (white1) to 1 and alternating down the boards (E.5),
			// the bye to the lowest, 9.
			t.Errorf("round 1:\n%s", out)
		}
		pairs, err := tournament.ReadPairs(strings.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		ev, err := loadEvent(file)
		if err != nil {
			t.Fatal(err)
		}
		if got := ev.Pairs(r); !samePairs(got, pairs) {
			t.Errorf("round %d: printed %v, written %v", r, pairs, got)
		}
		checkSwissRound(t, before, r, pairs)
		if code, _, errs := runRecordCmd(t, "tournament", "pair", file); r < 5 && (code != 1 || !strings.Contains(errs, "without a result")) {
			t.Errorf("round %d paired again before its results: exit %d %s", r, code, errs)
		}
		for i, pr := range pairs {
			if pr.Black == 0 {
				continue
			}
			res := []string{"1-0", "0-1", "1/2"}[(i+r)%3]
			if r == 2 && i == 1 {
				res = "+-"
			}
			tn(t, "result", file, fmt.Sprint(r), fmt.Sprint(pr.White), res)
		}
	}
	ev, _ := loadEvent(file)
	if ev.Played() != 5 {
		t.Errorf("%d rounds played", ev.Played())
	}
	if e := ev.Player(4).Entry(3); e.Code != tournament.HalfBye {
		t.Errorf("player 4's requested bye: %+v", e)
	}
	for r := 4; r <= 5; r++ {
		if e := ev.Player(9).Entry(r); e.Opponent != 0 || e.Code != tournament.ForfeitLoss {
			t.Errorf("withdrawn player 9 in round %d: %+v", r, e)
		}
	}
}

func samePairs(a, b []tournament.Pair) bool {
	set := map[tournament.Pair]bool{}
	for _, p := range a {
		set[p] = true
	}
	for _, p := range b {
		if !set[p] {
			return false
		}
	}
	return len(a) == len(b)
}

// checkSwissRound checks round r's pairs against the event before it was
// paired: everyone to be paired paired once or the one bye, no rematch of a
// game played (C.04.1 art. 2), no bye to a player who had a win's points
// without playing (art. 4), colour difference within ±2 and no colour three
// times running counting the new round (art. 6, 7), not the last round.
func checkSwissRound(t *testing.T, ev *tournament.Event, r int, pairs []tournament.Pair) {
	t.Helper()
	avail := ev.Available(r)
	seen := map[int]bool{}
	byes := 0
	colours := func(s int, c tournament.Colour) []tournament.Colour {
		var seq []tournament.Colour
		for k := 1; k < r; k++ {
			if en := ev.Player(s).Entry(k); en.Played() {
				seq = append(seq, en.Colour)
			}
		}
		return append(seq, c)
	}
	for _, pr := range pairs {
		seen[pr.White] = true
		if pr.Black == 0 {
			byes++
			for k := 1; k < r; k++ {
				if en := ev.Player(pr.White).Entry(k); en.Code == tournament.PairingBye || !en.Played() && ev.Scoring.Points(en) >= ev.Scoring.Win {
					t.Errorf("round %d: the bye to %d, who had %c in round %d", r, pr.White, en.Code, k)
				}
			}
			continue
		}
		seen[pr.Black] = true
		for k := 1; k < r; k++ {
			if en := ev.Player(pr.White).Entry(k); en.Played() && en.Opponent == pr.Black {
				t.Errorf("round %d: %d and %d met in round %d", r, pr.White, pr.Black, k)
			}
		}
		if r == ev.Rounds {
			continue // topscorers may break the colour limits in the last round
		}
		for s, c := range map[int]tournament.Colour{pr.White: tournament.White, pr.Black: tournament.Black} {
			seq := colours(s, c)
			cd := 0
			for _, x := range seq {
				if x == tournament.White {
					cd++
				} else {
					cd--
				}
			}
			n := len(seq)
			if cd > 2 || cd < -2 || n >= 3 && seq[n-1] == seq[n-2] && seq[n-2] == seq[n-3] {
				t.Errorf("round %d: player %d's colours %c", r, s, seq)
			}
		}
	}
	if len(seen) != len(avail) || byes != len(avail)%2 {
		t.Errorf("round %d: %d players paired of %d, %d byes", r, len(seen), len(avail), byes)
	}
}
