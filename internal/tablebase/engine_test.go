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
