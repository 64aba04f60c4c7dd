package fairplay

import (
	"context"
	"errors"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/cputime"
)

func testGames(tb testing.TB) []*toguz.Game {
	tb.Helper()
	data, err := os.ReadFile("testdata/games.pgn")
	if err != nil {
		tb.Fatal(err)
	}
	games, err := toguz.ParseGames("testdata/games.pgn", data, 0)
	if err != nil {
		tb.Fatal(err)
	}
	return games
}

// TestAnalyze: every ply of a real game gets its evidence: the opening
// plies as book, an only move as forced, the judged moves with every legal
// move's loss best first, the played move's rank the first of its equals;
// the same game analysed twice gives the same evidence (a fixed depth, one
// thread); an illegal move is refused.
func TestAnalyze(t *testing.T) {
	a, err := NewAnalyzer()
	if err != nil {
		t.Fatal(err)
	}
	g := testGames(t)[0]
	start, _ := g.StartPosition()
	moves := g.Moves()
	ev, err := a.Analyze(t.Context(), start, moves, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ev) != len(moves) {
		t.Fatalf("%d moves of evidence for %d plies", len(ev), len(moves))
	}
	p := start
	judged := 0
	for i, mv := range ev {
		legal := p.LegalMoves()
		switch {
		case mv.Ply != i || mv.Played != moves[i] || mv.Mover != p.Turn():
			t.Errorf("ply %d: %+v", i, mv)
		case i < BookPlies && !mv.Book:
			t.Errorf("ply %d not book", i)
		case legal.Len() == 1 && !mv.Forced:
			t.Errorf("ply %d: an only move not forced", i)
		}
		if mv.Judged() {
			judged++
			if len(mv.Losses) != legal.Len() || mv.Losses[0] != 0 || !slices.IsSorted(mv.Losses) || slices.Max(mv.Losses) > MaxLoss {
				t.Errorf("ply %d: losses %v for %d legal moves", i, mv.Losses, legal.Len())
			}
			if r := mv.Rank; r < 0 || r >= len(mv.Losses) || (r > 0 && mv.Losses[r-1] == mv.Losses[r]) {
				t.Errorf("ply %d: rank %d of %v", i, r, mv.Losses)
			}
			if mv.Top1() != (mv.Loss() == 0) || (mv.Top1() && !mv.Top3()) || mv.Difficulty() < 1 {
				t.Errorf("ply %d: top1 %v top3 %v difficulty %d", i, mv.Top1(), mv.Top3(), mv.Difficulty())
			}
		}
		p = p.After(moves[i])
	}
	if judged < 2*MinMoves {
		t.Errorf("%d moves judged of %d", judged, len(ev))
	}
	again, err := a.Analyze(t.Context(), start, moves, nil)
	if err != nil || !reflect.DeepEqual(again, ev) {
		t.Errorf("a second analysis differs (%v)", err)
	}
	// An empty hole of the position after three plies cannot be played.
	pos := start
	for _, m := range moves[:3] {
		pos = pos.After(m)
	}
	for h := toguz.Move(1); h <= toguz.Move(pos.Rules().Holes); h++ {
		if !pos.LegalMoves().Has(h) {
			bad := append(slices.Clone(moves[:3]), h)
			if _, err := a.Analyze(t.Context(), start, bad, nil); !errors.Is(err, ErrMoves) {
				t.Errorf("hole %d after three plies: %v, want ErrMoves", h, err)
			}
			break
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := a.Analyze(ctx, start, moves, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestSimulate: a simulated game is played by the rules to its end from
// the record's opening, with the evidence of every move; with the engine
// on every move the cheater's side agrees with the engine's first choice
// more often than the model expects of its rating.
func TestSimulate(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game with the engine")
	}
	a, err := NewAnalyzer()
	if err != nil {
		t.Fatal(err)
	}
	g := testGames(t)[0]
	rec, err := a.AnalyzeGame(t.Context(), "games.pgn", 1, g)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := newCheatEngine()
	if err != nil {
		t.Fatal(err)
	}
	rng := newRand(1, 1)
	sim, err := a.Simulate(t.Context(), rec, toguz.White, Cheater{Level: 8, Share: 1}, Default(), eng, nil, rng)
	if err != nil {
		t.Fatal(err)
	}
	p := toguz.StartPosition()
	for i, mv := range sim.Moves {
		if i < BookPlies && mv.Played != rec.Moves[i].Played {
			t.Errorf("ply %d: %d, the record has %d", i, mv.Played, rec.Moves[i].Played)
		}
		if !p.LegalMoves().Has(mv.Played) {
			t.Fatalf("ply %d: illegal %d", i, mv.Played)
		}
		p = p.After(mv.Played)
	}
	if !p.IsOver() && len(sim.Moves) < maxSimPlies {
		t.Errorf("the game stopped after %d plies, not over", len(sim.Moves))
	}
	v := Default().Judge(sim.Side(toguz.White), float64(rec.Ratings[0]), 99)
	if !(v.Agree1 > v.ExpAgree1) {
		t.Errorf("the engine's side: %+v", v)
	}
}

// BenchmarkEvidence: the evidence of a whole game of 90 plies (the cost
// the review workers add per game).
func BenchmarkEvidence(b *testing.B) {
	a, err := NewAnalyzer()
	if err != nil {
		b.Fatal(err)
	}
	g := testGames(b)[0]
	start, _ := g.StartPosition()
	moves := g.Moves()
	cpu := cputime.Process()
	for b.Loop() {
		if _, err := a.Analyze(context.Background(), start, moves, nil); err != nil {
			b.Fatal(err)
		}
	}
	// The process's CPU time: the wall time of a shared machine says little.
	b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(moves)), "plies")
}
