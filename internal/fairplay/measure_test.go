package fairplay

import (
	"fmt"
	"strings"
	"testing"
)

// TestMeasure runs the measurement on a small corpus: copies of a real
// analysed game under several rounds (so that some are held out) as the
// human games, one simulated cheating account of two games at level 6 on
// every move. It checks the report's shape, not the model's rates (those
// are docs/fairplay.md's, from `toguz fairplay measure`).
func TestMeasure(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates games with the engine")
	}
	a, err := NewAnalyzer()
	if err != nil {
		t.Fatal(err)
	}
	rec, err := a.AnalyzeGame(t.Context(), "games.pgn", 1, testGames(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	var recs []Record
	for i := range 10 {
		r := rec
		r.Round = fmt.Sprint(i)
		r.Names = [2]string{fmt.Sprint("w", i%3), fmt.Sprint("b", i%2)}
		recs = append(recs, r)
	}
	if _, held := Split(recs); len(held) == 0 || len(held) == len(recs) {
		t.Fatalf("%d of %d held out", len(held), len(recs))
	}
	var out strings.Builder
	cfg := MeasureConfig{Levels: []int{6}, Shares: []float64{1}, Accounts: 1, AccountGames: 2, MastersRating: 1500, Seed: 1, Workers: 2}
	if err := Measure(t.Context(), recs, recs[:2], Default(), cfg, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"PlayOK held out:", "masters 2018 at rating 1500: 0 flagged of 4", "human accounts", "6      1.00"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
}
