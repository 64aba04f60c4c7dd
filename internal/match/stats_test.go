package match

import (
	"math"
	"testing"
	"time"
)

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

func TestElo(t *testing.T) {
	tests := []struct {
		score, elo float64
	}{
		{0.5, 0},
		{0.75, 190.848501887865},
		{0.6, 70.43650362227247},
		{0.25, -190.848501887865},
		{10.0 / 11, 400}, // 10:1 odds is 400 Elo by definition
	}
	for _, tt := range tests {
		if got := Elo(tt.score); !near(got, tt.elo, 1e-9) {
			t.Errorf("Elo(%g) = %.9f, want %.9f", tt.score, got, tt.elo)
		}
		if got := ExpectedScore(tt.elo); !near(got, tt.score, 1e-12) {
			t.Errorf("ExpectedScore(%g) = %g, want %g", tt.elo, got, tt.score)
		}
	}
}

func TestEloFromCounts(t *testing.T) {
	// 60 wins, 20 draws, 20 losses: score 0.7, per-game variance
	// 0.6·0.09 + 0.2·0.04 + 0.2·0.49 = 0.16, standard error 0.04; the 95%
	// interval of the score is 0.7 ± 0.0784.
	e := EloFromCounts(Counts{Wins: 60, Draws: 20, Losses: 20})
	if !near(e.Elo, Elo(0.7), 1e-9) {
		t.Errorf("Elo = %g, want %g", e.Elo, Elo(0.7))
	}
	lo, hi := Elo(0.7-z95*0.04), Elo(0.7+z95*0.04)
	if !near(e.Lower, lo, 1e-9) || !near(e.Upper, hi, 1e-9) || !near(e.Margin, (hi-lo)/2, 1e-9) {
		t.Errorf("interval [%g, %g] ± %g, want [%g, %g]", e.Lower, e.Upper, e.Margin, lo, hi)
	}
	if !near(e.Margin, 66.01338122038528, 1e-9) { // computed apart, in Python
		t.Errorf("margin %g, want 66.0134", e.Margin)
	}
	if e := EloFromCounts(Counts{Wins: 6}); !math.IsInf(e.Elo, 1) || !math.IsInf(e.Margin, 1) {
		t.Errorf("all won: %v, want +Inf ± Inf", e)
	}
	if e := EloFromCounts(Counts{}); !math.IsInf(e.Margin, 1) {
		t.Errorf("no games: margin %g, want +Inf", e.Margin)
	}
}

func TestSPRTBounds(t *testing.T) {
	lo, hi := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}.Bounds()
	// log(0.05/0.95) = -2.944…, the bounds every fishtest run shows.
	if !near(lo, -2.9444389791664403, 1e-12) || !near(hi, 2.9444389791664403, 1e-12) {
		t.Errorf("bounds (%g, %g), want ±2.944", lo, hi)
	}
	if err := (SPRT{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05}).Validate(); err == nil {
		t.Error("elo0 > elo1 validated")
	}
}

// The references were computed by maximising the trinomial likelihood with
// the mean fixed, over its one free parameter (the draw rate) by
// golden-section search: an independent route to the same GSPRT.
func TestLLRTrinomial(t *testing.T) {
	tests := []struct {
		w, d, l    int
		elo0, elo1 float64
		want       float64
	}{
		{100, 100, 80, 0, 5, 0.4027878687501243},
		{1000, 1500, 900, 0, 10, 2.6315574328777984},
		{60, 20, 40, -5, 5, 0.6907627114607067},
	}
	for _, tt := range tests {
		s := SPRT{Elo0: tt.elo0, Elo1: tt.elo1, Alpha: 0.05, Beta: 0.05}
		c := Counts{Wins: tt.w, Draws: tt.d, Losses: tt.l}
		if got := s.LLRTrinomial(c); !near(got, tt.want, 1e-6) {
			t.Errorf("LLR(%d/%d/%d, [%g,%g]) = %.9f, want %.9f", tt.w, tt.d, tt.l, tt.elo0, tt.elo1, got, tt.want)
		}
		// The normal approximation agrees to a few percent this close to 0.5.
		n := float64(c.Games())
		m := c.Score()
		v := (float64(tt.w)*(1-m)*(1-m) + float64(tt.d)*(0.5-m)*(0.5-m) + float64(tt.l)*m*m) / n
		approx := LLRNormal(n, m, v, ExpectedScore(tt.elo0), ExpectedScore(tt.elo1))
		if !near(approx, tt.want, 0.03*math.Abs(tt.want)+0.01) {
			t.Errorf("normal approximation %g, GSPRT %g", approx, tt.want)
		}
	}
}

func TestLLRPentanomial(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	c := Counts{Pairs: [5]int{30, 200, 500, 230, 40}}
	a := []float64{0, 0.25, 0.5, 0.75, 1}
	n, mean := 0.0, 0.0
	for i, k := range c.Pairs {
		n += float64(k)
		mean += float64(k) * a[i]
	}
	mean /= n
	v := 0.0
	for i, k := range c.Pairs {
		v += float64(k) * (a[i] - mean) * (a[i] - mean)
	}
	v /= n
	want := LLRNormal(n, mean, v, ExpectedScore(0), ExpectedScore(5))
	got := s.LLRPentanomial(c)
	if !near(got, want, 0.02*math.Abs(want)) {
		t.Errorf("pentanomial LLR %g, normal approximation %g", got, want)
	}
	// Equal results: no evidence either way at the midpoint of the hypotheses.
	if got := s.LLRPentanomial(Counts{}); got != 0 {
		t.Errorf("empty LLR = %g", got)
	}
	if d := s.Decide(3); d != AcceptH1 {
		t.Errorf("Decide(3) = %v", d)
	}
	if d := s.Decide(-3); d != AcceptH0 {
		t.Errorf("Decide(-3) = %v", d)
	}
}

func TestNote(t *testing.T) {
	tests := []struct {
		line string
		want string
	}{
		{"info depth 12 seldepth 20 multipv 1 score cp 125 nodes 100 time 5 pv 1 2", "+1.25/12 0.48s"},
		{"info depth 7 score cp -3 nodes 1", "-0.03/7 0.48s"},
		{"info depth 9 score mate 5 pv 1", "win 5/9 0.48s"},
		{"info depth 9 score mate -4 pv 1", "loss 4/9 0.48s"},
		{"info string hello score cp 5", "0.48s"},
	}
	for _, tt := range tests {
		var si searchInfo
		parseInfo(tt.line, &si)
		if got := si.note(480 * time.Millisecond); got != tt.want {
			t.Errorf("%q: note %q, want %q", tt.line, got, tt.want)
		}
	}
}
