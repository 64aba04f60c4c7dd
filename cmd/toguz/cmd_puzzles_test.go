package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/puzzle"
	"github.com/toguz/toguz/internal/shareddata"
	"github.com/toguz/toguz/internal/store"
)

// TestPuzzlesMine mines the master games in two runs of two puzzles each:
// the second resumes after the positions the first examined (its state
// file), adds new puzzles, and every line reads back as a puzzle.
func TestPuzzlesMine(t *testing.T) {
	out := filepath.Join(t.TempDir(), "p.txt")
	games := shareddata.Path(t, "masters-2018.pgn")
	for i, n := range []string{"2", "4"} {
		code, _, errs := runRecordCmd(t, "puzzles", "mine", "-o", out, "-n", n, games)
		if code != 0 || !strings.Contains(errs, "puzzles") {
			t.Fatalf("run %d: exit %d: %s", i, code, errs)
		}
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ps, err := puzzle.Read(f)
	if err != nil || len(ps) != 4 {
		t.Fatalf("%d puzzles, %v", len(ps), err)
	}
	seen := map[string]bool{}
	for _, p := range ps {
		if seen[p.ID] || !strings.HasPrefix(p.Source, "masters-2018#") {
			t.Errorf("puzzle %s from %s twice or from elsewhere", p.ID, p.Source)
		}
		seen[p.ID] = true
	}
	if st, err := os.ReadFile(out + ".state"); err != nil || strings.TrimSpace(string(st)) == "0" {
		t.Errorf("state %q, %v", st, err)
	}
	code, stdout, errs := runRecordCmd(t, "puzzles", "verify", "-drop", out)
	if !strings.Contains(stdout, "4 puzzles replayed at depth") {
		t.Errorf("verify: exit %d: %s %s", code, stdout, errs)
	}
	if code, _, errs := runRecordCmd(t, "puzzles", "mine"); code != 2 || !strings.Contains(errs, "Usage") {
		t.Errorf("no -o: exit %d: %s", code, errs)
	}
}

// TestPuzzlesMineStore mines the finished games of a site's store: a
// master game imported into it gives puzzles whose source is the site's
// game.
func TestPuzzlesMineStore(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "site.db")
	ctx := context.Background()
	st, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	games, err := toguz.ParseGames("masters-2018.pgn", shareddata.Read(t, "masters-2018.pgn"), 0)
	if err != nil {
		t.Fatal(err)
	}
	g := games[0]
	if _, err := st.ImportGames(ctx, "test", -1, []store.Import{{Rules: toguz.Standard(), Moves: g.Moves(), Result: g.Result}}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	out := filepath.Join(dir, "p.txt")
	if code, _, errs := runRecordCmd(t, "puzzles", "mine", "-o", out, "-n", "2", "-store", db); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, _ := os.ReadFile(out)
	ps, err := puzzle.Read(strings.NewReader(string(data)))
	if err != nil || len(ps) != 2 || !strings.HasPrefix(ps[0].Source, "site#") {
		t.Fatalf("%d puzzles (%v), %v", len(ps), ps, err)
	}
}

// TestPuzzlesExtend lengthens a file's one-move puzzle (masters-2018 #6,
// ply 18: 6, then after the reply 3 the move 7 alone wins stones again)
// into two judged moves, and leaves one that cannot go on as it was.
func TestPuzzlesExtend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.txt")
	lines := "e132074c2070aafe\t9S,1,5S,6S,5S,17S,4S,5S,t/1S,1S,19S,6S,18S,t,4S,1S,1S 41 19 N 1\tstones\t6 3 7 2 2 5 2 1 8 9\tcapture\t1\t752\tmasters-2018#6:18\n" +
		"x\t2S,2S,2S,2S,2S,2S,2S,2S,3S/2S,2S,2S,2S,2S,2S,2S,2S,1S 78 48 S 1\twin\t9\tcapture\t1\t0\tselfplay#1\n"
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, errs := runRecordCmd(t, "puzzles", "extend", "-max-moves", "2", path)
	if code != 0 || !strings.Contains(stdout, "2 puzzles, 1 made longer") {
		t.Fatalf("extend: exit %d: %s %s", code, stdout, errs)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ps, err := puzzle.Read(f)
	if err != nil || len(ps) != 2 || ps[0].Moves != 2 || ps[0].Solution[2] != 7 || ps[1].Moves != 1 {
		t.Fatalf("after extend: %+v, %v", ps, err)
	}
}
