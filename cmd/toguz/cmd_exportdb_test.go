package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/opendb"
	"github.com/toguz/toguz/internal/puzzle"
	"github.com/toguz/toguz/internal/store"
)

// TestExportDB writes a server's rated game into the month's file, and the
// shipped puzzles.
func TestExportDB(t *testing.T) {
	db := filepath.Join(t.TempDir(), "toguz.db")
	ctx := context.Background()
	st, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := st.CreateUser(ctx, "abai", "x")
	b, _ := st.CreateUser(ctx, "bolat", "x")
	g, err := st.CreateGame(ctx, store.Game{Players: [2]game.Seat{{UserID: a.ID}, {UserID: b.ID}}, Rules: toguz.Standard(),
		TimeControl: clock.TimeControl{Base: 5 * time.Minute}, Rated: true, Status: game.Playing}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.FinishGame(ctx, g.ID, store.Finish{Status: game.Ended, Result: toguz.BlackWins, Termination: toguz.ByResignation}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	shipped, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	code, out, errs := runRecordCmd(t, "export-db", "-db", db, "-o", dir)
	name := opendb.FileName(g.Created)
	if code != 0 || !strings.Contains(out, name+"\t1 games") || !strings.Contains(out, fmt.Sprintf("%s\t%d puzzles", opendb.PuzzlesName, len(shipped))) {
		t.Fatalf("exit %d, %q %q", code, out, errs)
	}
	if fs, err := opendb.List(dir); err != nil || len(fs) != 1 || fs[0].Games != 1 {
		t.Errorf("List: %+v, %v", fs, err)
	}
}
