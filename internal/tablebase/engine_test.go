// The tests of the tables as the engine uses them. They are an external
// test package because the engine imports this one.
package tablebase_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/tablebase"
)

// TestEngineProbe checks the engine's scores of the tables' answers
// against ProbeDTM, and that positions beyond the distances are scored
// proven only when drawn.
func TestEngineProbe(t *testing.T) {
	full := tablebase.SolvedTables(t, 4)
	wdlOnly, err := tablebase.Solve(context.Background(), 4, 2, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(13, 14))
	for n := range 2000 {
		k := 1 + rng.IntN(4)
		p := tablebase.RandomPosition(t, rng, k, n%tablebase.NumConfigs, toguz.Player(n%2), 81-k+rng.IntN(k+1))
		res, plies, ok := full.ProbeDTM(p)
		if !ok {
			t.Fatalf("%s: no distance in a 4-stone table", p.FEN())
		}
		want := map[tablebase.WDL]engine.Score{tablebase.Win: engine.MateScore - engine.Score(plies), tablebase.Draw: 0,
			tablebase.Loss: -engine.MateScore + engine.Score(plies)}[res]
		if s, ok := engine.TablebaseScore(full, &p); !ok || s != want || (res != tablebase.Draw) != s.IsMate() || s.MatePlies() != map[tablebase.WDL]int{tablebase.Win: plies, tablebase.Loss: -plies}[res] {
			t.Fatalf("%s: TablebaseScore = %v, %v; want %v (%s in %d)", p.FEN(), s, ok, want, res, plies)
		}
		if k > 2 {
			known := engine.KnownWin - engine.Score(k)
			want = map[tablebase.WDL]engine.Score{tablebase.Win: known, tablebase.Draw: 0, tablebase.Loss: -known}[res]
		}
		if s, ok := engine.TablebaseScore(wdlOnly, &p); !ok || s != want || k > 2 && s.IsMate() {
			t.Fatalf("%s (%d stones): TablebaseScore without distances = %v, %v; want %v (%s)", p.FEN(), k, s, ok, want, res)
		}
	}
	p := tablebase.RandomPosition(t, rng, 4, 40, toguz.Black, 79)
	if n := testing.AllocsPerRun(100, func() { engine.TablebaseScore(wdlOnly, &p) }); n != 0 {
		t.Errorf("TablebaseScore allocates %v times", n)
	}
}

// TestEngineWinsWithoutDistances plays won endings out with tables that
// hold results but no distances, at a depth that does not see the end: the
// engine, on both sides, must bring every win home.
func TestEngineWinsWithoutDistances(t *testing.T) {
	const stones = 5
	full := tablebase.SolvedTables(t, stones)
	results, err := tablebase.Solve(context.Background(), stones, 0, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := engine.DefaultOptions()
	opts.Tablebase, opts.HashMB = results, 1
	eng, err := engine.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(15, 16))
	want := 20
	if testing.Short() {
		want = 5
	}
	games, total, shortest := 0, 0, 0
	for n := 0; games < want; n++ {
		k := 3 + rng.IntN(stones-2)
		// The mover lacks all but one of the stones on the board or more,
		// so a win takes several captures.
		p := tablebase.RandomPosition(t, rng, k, n%tablebase.NumConfigs, toguz.Player(n%2), 81-k+1+rng.IntN(2))
		res, plies, _ := full.ProbeDTM(p)
		if res != tablebase.Win || plies < 6 {
			continue
		}
		games++
		shortest += plies
		winner, start := p.Turn(), p
		eng.NewGame()
		for ply := 0; !p.IsOver(); ply++ {
			if ply == 300 {
				t.Fatalf("%s: won in %d plies, still going after 300: %s", start.FEN(), plies, p.FEN())
			}
			r := eng.Search(context.Background(), p, engine.Limits{Depth: 2}, nil)
			if p, err = p.Play(r.Best); err != nil {
				t.Fatal(err)
			}
			total++
		}
		result := toguz.WhiteWins
		if winner == toguz.Black {
			result = toguz.BlackWins
		}
		if o := p.Outcome(); o.Result != result {
			t.Errorf("%s: a win in %d plies for the mover ended %v", start.FEN(), plies, o.Result)
		}
	}
	t.Logf("%d won endings played out in %d plies; the shortest wins take %d", games, total, shortest)
}

// TestEngineProbesOwnRuleset gives the engine every ruleset's tables at
// once (a Set): a Bestemshe ending is scored exactly from the Bestemshe
// table, at a depth that cannot see its end, and won with a move the
// table says wins; with the other rulesets' tables only, the same search
// neither scores it nor always finds the win, so no other table answered
// for it. Positions of the standard game and the 2×7 board get their own
// tables' scores from the same set.
func TestEngineProbesOwnRuleset(t *testing.T) {
	solve := func(r toguz.Rules, stones int) *tablebase.Tables {
		tb, err := tablebase.SolveWith(context.Background(), tablebase.Options{Rules: r, Stones: stones, DistanceStones: stones, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	standard, bestemshe, seven := tablebase.SolvedTables(t, 4), solve(toguz.Bestemshe(), 8), solve(toguz.Seven(), 4)
	all, err := tablebase.NewSet(standard, bestemshe, seven)
	if err != nil {
		t.Fatal(err)
	}
	others, err := tablebase.NewSet(standard, seven)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tablebase.NewSet(standard, seven, solve(toguz.Seven(), 2)); err == nil {
		t.Error("NewSet took two tables of the 2×7 board")
	}
	newEngine := func(tb engine.Tablebase) *engine.Engine {
		opts := engine.DefaultOptions()
		opts.Tablebase, opts.HashMB = tb, 1
		e, err := engine.New(opts)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	withAll, withOthers := newEngine(all), newEngine(others)
	search := func(e *engine.Engine, p toguz.Position) engine.Result {
		e.NewGame()
		return e.Search(context.Background(), p, engine.Limits{Depth: 2}, nil)
	}
	// wins reports whether m keeps p's win by the table: the opponent then
	// loses.
	wins := func(p toguz.Position, m toguz.Move) bool {
		res, ok := bestemshe.ProbeWDL(p.After(m))
		return ok && res == tablebase.Loss || p.After(m).IsOver() && p.After(m).Outcome().Result == toguz.WinFor(p.Turn())
	}

	rng := rand.New(rand.NewPCG(17, 18))
	const want = 30
	found, misplayed := 0, 0
	for n := 0; found < want; n++ {
		if n == 20000 {
			t.Fatalf("only %d long Bestemshe wins in %d random positions", found, n)
		}
		k := 4 + rng.IntN(5)
		// Bestemshe: 50 stones, 26 win; neither kazan has won yet.
		p := tablebase.RandomPositionOf(t, toguz.Bestemshe(), rng, k, toguz.Player(n%2), 25-k+rng.IntN(k+1))
		if p.IsOver() {
			continue
		}
		res, plies, ok := bestemshe.ProbeDTM(p)
		if !ok {
			t.Fatalf("%s: not in the 8-stone Bestemshe table", p.FEN())
		}
		if res != tablebase.Win || plies < 6 {
			continue
		}
		found++
		got := search(withAll, p)
		if got.Score != engine.MateScore-engine.Score(plies) || !wins(p, got.Best) {
			t.Errorf("%s: with every table, score %v and move %d; the Bestemshe table: a win in %d plies (score %v)",
				p.FEN(), got.Score, got.Best, plies, engine.MateScore-engine.Score(plies))
		}
		alone := search(withOthers, p)
		if alone.Score.IsMate() {
			t.Errorf("%s: with the other rulesets' tables, score %v at depth 2 (a win in %d plies)", p.FEN(), alone.Score, plies)
		}
		if !wins(p, alone.Best) {
			misplayed++
		}
	}
	if misplayed == 0 {
		t.Errorf("the search alone found the win in all %d positions: the test shows nothing", want)
	}
	t.Logf("%d Bestemshe wins of 6 plies or more: the search alone at depth 2 lets %d slip, the table none", want, misplayed)

	for _, tc := range []struct {
		rules toguz.Rules
		tb    *tablebase.Tables
		win   int
	}{{toguz.Standard(), standard, 82}, {toguz.Seven(), seven, 50}} {
		checked := 0
		for n := 0; checked < 20; n++ {
			k := 2 + rng.IntN(3)
			p := tablebase.RandomPositionOf(t, tc.rules, rng, k, toguz.Player(n%2), tc.win-1-k+rng.IntN(k+1))
			if p.IsOver() {
				continue
			}
			want, ok := engine.TablebaseScore(tc.tb, &p)
			if !ok {
				t.Fatalf("%s: not in the %s table", p.FEN(), tc.rules)
			}
			if want == 0 {
				continue // a draw: the search alone may score 0 too
			}
			checked++
			if got := search(withAll, p); got.Score != want {
				t.Errorf("%s (%s): with every table, score %v; its table's %v", p.FEN(), tc.rules, got.Score, want)
			}
		}
	}
	p := tablebase.RandomPositionOf(t, toguz.Bestemshe(), rng, 8, toguz.White, 20)
	if n := testing.AllocsPerRun(100, func() { engine.TablebaseScore(all, &p) }); n != 0 {
		t.Errorf("TablebaseScore of a Set allocates %v times", n)
	}
}
