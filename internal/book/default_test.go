package book

import (
	"context"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/shareddata"
)

func TestDefault(t *testing.T) {
	bk, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	info := bk.Info()
	if info.Rules != toguz.Standard() || info.Positions < 100 || len(defaultData) >= 1<<20 {
		t.Fatalf("default book: %+v, %d bytes", info, len(defaultData))
	}
	start := toguz.StartPosition()
	es := bk.Moves(start)
	for _, e := range es {
		t.Logf("start: move %d played %d times, %d-%d-%d, score %.1f%%, eval %d", e.Move, e.Count, e.Wins, e.Draws, e.Losses, 100*e.Score(), e.Eval)
	}
	if m, ok := bk.Pick(start, nil, Best); !ok || m != 7 {
		t.Errorf("Pick(start, Best) = %d, %t; want 7, the masters' move", m, ok)
	}

	// The counts are the masters' games, as a fresh build without the
	// engine check finds them: every embedded move is there with the same
	// counts (the check may only have removed moves).
	games, err := toguz.ParseGames("masters-2018.pgn", shareddata.Read(t, "masters-2018.pgn"), 0)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBuilder(Options{MaxPly: info.MaxPly, MinCount: info.MinCount})
	if err := b.AddRecords(games, 1); err != nil {
		t.Fatal(err)
	}
	fresh, err := b.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	first := map[toguz.Move]uint32{}
	for _, g := range games {
		first[g.Plies[0].Move]++
	}
	for _, e := range es {
		if first[e.Move] != e.Count {
			t.Errorf("start: move %d played %d times in the book, %d in the games", e.Move, e.Count, first[e.Move])
		}
	}
	for p, got := range bk.All() {
		want := fresh.Moves(p)
		for _, e := range got {
			i := 0
			for i < len(want) && want[i].Move != e.Move {
				i++
			}
			if e.Eval == NoEval || i == len(want) {
				t.Fatalf("%s: move %d (eval %d) not in a fresh build %v", p.FEN(), e.Move, e.Eval, want)
			}
			w := want[i]
			w.Eval = e.Eval
			if w != e {
				t.Errorf("%s: %+v, a fresh build has %+v", p.FEN(), e, w)
			}
		}
	}
}

func BenchmarkPick(b *testing.B) {
	bk, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	p := toguz.StartPosition().After(7)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := bk.Pick(p, nil, Best); !ok {
			b.Fatal("out of book")
		}
	}
}
