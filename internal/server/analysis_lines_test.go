package server

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/tablebase"
)

// TestAnalysisEngine asks the engine for three lines of the start: three
// different first moves, each line legal and written in notation, scores
// from White's view; and the bounds.
func TestAnalysisEngine(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	code, m := s.do("POST", "/api/analysis", "", map[string]any{"fen": "", "multipv": 3, "depth": 4})
	info, _ := m["info"].(map[string]any)
	if code != 200 || info == nil || info["depth"] != 4.0 {
		t.Fatalf("analysis of the start: %d %v", code, m)
	}
	lines, _ := info["lines"].([]any)
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3: %v", len(lines), m)
	}
	first := map[string]bool{}
	for _, l := range lines {
		l := l.(map[string]any)
		pv, notation := l["pv"].([]any), l["notation"].([]any)
		if len(pv) == 0 || len(pv) != len(notation) || l["mate"] != nil {
			t.Fatalf("line %v", l)
		}
		p := toguz.StartPosition()
		for i, h := range pv {
			y, q := p.Ply(toguz.Move(h.(float64)))
			if err := p.CheckMove(toguz.Move(h.(float64))); err != nil || y.String() != notation[i] {
				t.Fatalf("line %v: ply %d %v (%v), want %s", l, i, notation[i], err, y)
			}
			p = q
		}
		first[fmt.Sprint(pv[0])] = true
	}
	if len(first) != 3 {
		t.Errorf("the three lines begin with %v", first)
	}
	for _, body := range []map[string]any{
		{"multipv": 10}, {"multipv": -1}, {"depth": -1}, {"movetime": -1},
	} {
		if code, m := s.do("POST", "/api/analysis", "", body); code != 400 || m["error"].(map[string]any)["message"] == "" {
			t.Errorf("%v: %d %v, want 400", body, code, m)
		}
	}
}

// TestAnalysisTablebase: a position with few stones gets the exact result
// and distance of its own ruleset's table, from White's view, and the
// engine's score is that table's; a ruleset without a table gets none.
// The board's page says per ruleset which positions go to the server.
func TestAnalysisTablebase(t *testing.T) {
	standard, err := tablebase.Solve(context.Background(), 4, 4, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	bestemshe, err := tablebase.SolveWith(context.Background(), tablebase.Options{Rules: toguz.Bestemshe(), Stones: 6, DistanceStones: 6, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	set, err := tablebase.NewSet(standard, bestemshe)
	if err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t, serverOpts{tablebase: set})
	row := func(holes int, n ...int) []int {
		r := make([]int, holes)
		copy(r, n)
		return r
	}
	for _, tc := range []struct {
		st toguz.Setup
		tb *tablebase.Tables
	}{
		{toguz.Setup{Rules: toguz.Standard(), Board: [2][]int{row(9, 1, 1), row(9, 0, 1)}, Kazan: [2]int{80, 79}}, standard},
		{toguz.Setup{Rules: toguz.Standard(), Board: [2][]int{row(9, 1, 1), row(9, 0, 1)}, Kazan: [2]int{79, 80}, Turn: toguz.Black}, standard},
		{toguz.Setup{Rules: toguz.Standard(), Board: [2][]int{row(9, 2), row(9, 2)}, Kazan: [2]int{79, 79}}, standard},
		{toguz.Setup{Rules: toguz.Bestemshe(), Board: [2][]int{row(5, 0, 0, 0, 2, 1), row(5, 1, 1, 0, 1)}, Kazan: [2]int{25, 19}}, bestemshe},
		{toguz.Setup{Rules: toguz.Bestemshe(), Board: [2][]int{row(5, 1, 0, 1, 0, 2), row(5, 0, 1, 0, 0, 1)}, Kazan: [2]int{21, 23}, Turn: toguz.Black}, bestemshe},
		// The 2×7 board has no table here: search alone.
		{toguz.Setup{Rules: toguz.Seven(), Board: [2][]int{row(7, 1, 1), row(7, 0, 1)}, Kazan: [2]int{48, 47}}, nil},
	} {
		p, err := tc.st.Position()
		if err != nil {
			t.Fatal(err)
		}
		code, m := s.do("POST", "/api/analysis", "", map[string]any{"fen": p.FEN(), "ruleset": p.Rules().String(), "depth": 2})
		got, _ := m["tablebase"].(map[string]any)
		if tc.tb == nil {
			if code != 200 || got != nil {
				t.Errorf("%s (%s): %d %v, want no tablebase", p.FEN(), p.Rules(), code, m)
			}
			continue
		}
		res, plies, ok := tc.tb.ProbeDTM(p)
		if !ok {
			t.Fatalf("%s is not in the tables", p.FEN())
		}
		winner := p.Turn()
		if res == tablebase.Loss {
			winner = winner.Other()
		}
		want := toguz.WinFor(winner).String()
		if res == tablebase.Draw {
			want = toguz.Draw.String()
		}
		if code != 200 || got == nil || got["result"] != want || got["plies"] != float64(plies) {
			t.Errorf("%s (%s): %d %v, want %s in %d plies", p.FEN(), p.Rules(), code, m, want, plies)
		}
		// The engine's best line scores the table's win (White's view),
		// from a search of the depth asked, which one legal move cuts short.
		if p.LegalMoves().Len() == 1 {
			continue
		}
		score, _ := engine.TablebaseScore(tc.tb, &p)
		wantMate := score.MatePlies()
		if p.Turn() == toguz.Black {
			wantMate = -wantMate
		}
		info, _ := m["info"].(map[string]any)
		lines, _ := info["lines"].([]any)
		var first map[string]any
		if len(lines) > 0 {
			first, _ = lines[0].(map[string]any)
		}
		if mate, ok := first["mate"].(float64); res != tablebase.Draw && (!ok || int(mate) != wantMate) {
			t.Errorf("%s (%s): the engine's line %v, want the table's mate in %d plies", p.FEN(), p.Rules(), first, wantMate)
		}
	}
	code, body := pageAs(t, s, "/analysis?ruleset=bestemshe", "")
	if want := `data-tbstones="{&#34;bestemshe&#34;:6,&#34;standard&#34;:4}"`; code != 200 || !strings.Contains(body, want) {
		t.Errorf("/analysis: %d, no %s", code, want)
	}
	// A position with more stones has no tablebase answer.
	if _, m := s.do("POST", "/api/analysis", "", map[string]any{"depth": 1}); m["tablebase"] != nil {
		t.Errorf("the start: %v", m)
	}
}
