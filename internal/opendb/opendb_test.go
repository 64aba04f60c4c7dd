package opendb

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/store"
)

// readFile reads a month file back with the rules library.
func readFile(t *testing.T, path string) []*toguz.Game {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	gs, err := toguz.ParseGames(path, data, toguz.FormatToguz)
	if err != nil {
		t.Fatal(err)
	}
	return gs
}

// TestExport: the rated games of two months go to two files, in order,
// with their ratings; unrated and unfinished games stay out; a finished
// month is written once, the current one again.
func TestExport(t *testing.T) {
	ctx := t.Context()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "t.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, _ := st.CreateUser(ctx, "abai", "x")
	b, _ := st.CreateUser(ctx, "bolat", "x")
	blitz := clock.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}
	oct := time.Date(2026, 10, 20, 10, 0, 0, 0, time.UTC)
	nov := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	play := func(created time.Time, rated bool, moves []toguz.Move, res toguz.Result) string {
		g, err := st.CreateGame(ctx, store.Game{Players: [2]store.Side{{UserID: a.ID}, {UserID: b.ID}}, Rules: toguz.Standard(),
			TimeControl: blitz, Rated: rated, Status: store.StatusStarted, Created: created}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range moves {
			if err := st.AppendMove(ctx, g.ID, store.Move{Ply: i + 1, Hole: m}, nil); err != nil {
				t.Fatal(err)
			}
		}
		if res != toguz.NoResult {
			if _, err := st.FinishGame(ctx, g.ID, store.Finish{Status: store.StatusEnded, Result: res, Termination: toguz.ByResignation}); err != nil {
				t.Fatal(err)
			}
		}
		return g.ID
	}
	o1 := play(oct, true, []toguz.Move{7, 3}, toguz.WhiteWins)
	o2 := play(oct.Add(time.Hour), true, []toguz.Move{2}, toguz.BlackWins)
	play(oct.Add(2*time.Hour), false, []toguz.Move{5}, toguz.Draw) // unrated
	n1 := play(nov, true, []toguz.Move{9, 9, 1}, toguz.Draw)
	play(nov.Add(time.Hour), true, []toguz.Move{4}, toguz.NoResult) // still played
	dir := t.TempDir()
	now := time.Date(2026, 11, 15, 0, 0, 0, 0, time.UTC)
	files, err := Export(ctx, st, dir, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].Name != "toguz-rated-2026-10.pgn.gz" || files[0].Games != 2 || files[1].Games != 1 {
		t.Fatalf("files %+v", files)
	}
	octGames := readFile(t, filepath.Join(dir, files[0].Name))
	var ids []string
	for _, g := range octGames {
		ids = append(ids, g.Tag("ID"))
	}
	if !slices.Equal(ids, []string{o1, o2}) || octGames[0].Tag("WhiteElo") != "1500" || octGames[0].Tag("White") != "abai" ||
		!slices.Equal(octGames[0].Moves(), []toguz.Move{7, 3}) || octGames[0].Result != toguz.WhiteWins || octGames[1].Result != toguz.BlackWins {
		t.Errorf("October: %v", octGames)
	}
	if g := readFile(t, filepath.Join(dir, files[1].Name)); len(g) != 1 || g[0].Tag("ID") != n1 || g[0].Result != toguz.Draw {
		t.Errorf("November: %v", g)
	}
	// Again: October is over and stays as written (marked here), November
	// is written again with its new game.
	octPath := filepath.Join(dir, files[0].Name)
	mark := []byte("kept")
	os.WriteFile(octPath, mark, 0o644)
	n2 := play(nov.Add(2*time.Hour), true, []toguz.Move{1}, toguz.WhiteWins)
	files, err = Export(ctx, st, dir, now)
	if err != nil || len(files) != 1 || files[0].Games != 2 {
		t.Fatalf("second export: %+v, %v", files, err)
	}
	if b, _ := os.ReadFile(octPath); !bytes.Equal(b, mark) {
		t.Error("October's file was written again")
	}
	if g := readFile(t, filepath.Join(dir, files[0].Name)); len(g) != 2 || g[1].Tag("ID") != n2 {
		t.Errorf("November again: %v", g)
	}
	list, err := List(dir)
	if err != nil || len(list) != 2 || list[0].Name != "toguz-rated-2026-11.pgn.gz" || list[0].Games != 2 || list[0].Size == 0 {
		t.Errorf("List: %+v, %v", list, err)
	}
}
