package opendb

import (
	"compress/gzip"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/puzzle"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/store"
)

// TestExportPuzzles: the puzzle file has the header and one row a puzzle,
// whose solution in score-sheet notation replays to the puzzle's moves
// from its FEN, with the site's rating of a tried puzzle and the starting
// rating of another; List leaves it out, ListPuzzles counts it.
func TestExportPuzzles(t *testing.T) {
	ctx := t.Context()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "t.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	shipped, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	// A one-move puzzle, one of several moves, and one with no theme.
	var ps []puzzle.Puzzle
	for _, want := range []func(puzzle.Puzzle) bool{
		func(p puzzle.Puzzle) bool { return p.Moves <= 1 && len(p.Themes) > 1 },
		func(p puzzle.Puzzle) bool { return p.Moves > 1 },
		func(p puzzle.Puzzle) bool { return len(p.Themes) == 0 && p.Moves <= 1 },
	} {
		i := slices.IndexFunc(shipped, want)
		if i < 0 {
			t.Fatal("no shipped puzzle of the kind")
		}
		ps = append(ps, shipped[i])
	}
	u, _ := st.CreateUser(ctx, "solver", "x")
	initial := rating.Default()
	initial.Rating = ps[1].InitialRating()
	tried, err := st.RecordPuzzle(ctx, u.ID, ps[1].ID, true, initial)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	f, err := ExportPuzzles(ctx, st, dir, ps)
	if err != nil || f.Name != PuzzlesName || f.Puzzles != len(ps) || f.Size == 0 {
		t.Fatalf("ExportPuzzles: %+v, %v", f, err)
	}
	fh, err := os.Open(filepath.Join(dir, PuzzlesName))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(zr).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(ps)+1 || !slices.Equal(rows[0], PuzzleColumns) {
		t.Fatalf("%d rows, header %q", len(rows), rows[0])
	}
	col := func(row []string, name string) string { return row[slices.Index(PuzzleColumns, name)] }
	wantRating := []rating.Rating{{Rating: ps[0].InitialRating(), RD: rating.DefaultRD}, tried.PuzzleAfter, {Rating: ps[2].InitialRating(), RD: rating.DefaultRD}}
	wantAttempts := []string{"0", "1", "0"}
	for i, p := range ps {
		row := rows[i+1]
		start, _, err := toguz.ParseFEN(col(row, "fen"), toguz.Standard())
		if err != nil || start != p.Start {
			t.Errorf("puzzle %s: fen %q: %v", p.ID, col(row, "fen"), err)
			continue
		}
		moves, _, err := toguz.ParsePlies(start, col(row, "solution"))
		if err != nil || !slices.Equal(moves, p.Solution) {
			t.Errorf("puzzle %s: solution %q reads %v, %v; want %v", p.ID, col(row, "solution"), moves, err, p.Solution)
		}
		var themes []string
		for _, th := range p.Themes {
			themes = append(themes, string(th))
		}
		checks := map[string]string{
			"id": p.ID, "goal": p.Goal.String(), "moves": strconv.Itoa(max(p.Moves, 1)), "themes": strings.Join(themes, " "),
			"rating": strconv.Itoa(int(math.Round(wantRating[i].Rating))), "rating_deviation": strconv.Itoa(int(math.Round(wantRating[i].RD))),
			"attempts": wantAttempts[i], "solved": wantAttempts[i], "depth": strconv.Itoa(p.Depth), "margin": strconv.Itoa(p.Margin), "source": p.Source,
		}
		for name, want := range checks {
			if got := col(row, name); got != want {
				t.Errorf("puzzle %s: %s = %q, want %q", p.ID, name, got, want)
			}
		}
	}
	if list, err := List(dir); err != nil || len(list) != 0 {
		t.Errorf("List: %+v, %v", list, err)
	}
	if lf, ok := ListPuzzles(dir); !ok || lf.Puzzles != len(ps) || lf.Size != f.Size {
		t.Errorf("ListPuzzles: %+v, %v", lf, ok)
	}
	if _, ok := ListPuzzles(t.TempDir()); ok {
		t.Error("ListPuzzles found a file in an empty folder")
	}
}

// TestServed: the names the server sends.
func TestServed(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"toguz-rated-2026-10.pgn.gz", true}, {PuzzlesName, true},
		{"toguz-puzzles.csv", false}, {"toguz-puzzles.csv.gz.tmp", false}, {"x/toguz-puzzles.csv.gz", false},
		{"toguz-rated-2026-1.pgn.gz", false}, {"secret.txt", false}, {"", false},
	} {
		if got := Served(tc.name); got != tc.want {
			t.Errorf("Served(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}
