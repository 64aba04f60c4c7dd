package federation

import (
	"testing"
	"time"

	"github.com/toguz/toguz/internal/tournament"
)

var day = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

const feb = 2026*12 + 1

// TestRatePeriod checks hand-computed cases of FIDE's method: PD from
// table 8.1(b), K by the rules, the 400-point rule, K × n ≤ 700, the
// floor and the initial rating.
func TestRatePeriod(t *testing.T) {
	est := func(r int) Standing { return Standing{Rating: r, Games: 100, Reached: r >= 2400} }
	games := func(w, b string, score float64, n int) []PeriodGame {
		var out []PeriodGame
		for range n {
			out = append(out, PeriodGame{White: w, Black: b, Score: score, Month: feb})
		}
		return out
	}
	tests := []struct {
		name  string
		start map[string]Standing
		birth map[string]int
		games []PeriodGame
		want  map[string]Line // by player; Rating 0: unrated after
	}{
		{
			// D = 100: PD 0.64; 20 × 0.36 = 7.2.
			name:  "established win",
			start: map[string]Standing{"A": est(2000), "B": est(1900)},
			games: games("A", "B", 1, 1),
			want:  map[string]Line{"A": {Rating: 2007, Change: 7, K: 20, Period: 1}, "B": {Rating: 1893, Change: -7, K: 20, Period: 1}},
		},
		{
			// K 40 before 30 games: 40 × 0.36 = 14.4.
			name:  "new to the list",
			start: map[string]Standing{"A": {Rating: 2000, Games: 12}, "B": est(1900)},
			games: games("A", "B", 1, 1),
			want:  map[string]Line{"A": {Rating: 2014, Change: 14, K: 40, Period: 1}, "B": {Rating: 1893, Change: -7, K: 20, Period: 1}},
		},
		{
			// 500 points apart count as 400: PD 0.92; 10 × 0.08 = 0.8 and 20 × −0.08 = −1.6.
			name:  "400-point rule",
			start: map[string]Standing{"A": est(2600), "B": est(2100)},
			games: games("A", "B", 1, 1),
			want:  map[string]Line{"A": {Rating: 2601, Change: 1, K: 10, Period: 1}, "B": {Rating: 2098, Change: -2, K: 20, Period: 1}},
		},
		{
			// A draw at D = 0: PD 0.50, no change.
			name:  "even draw",
			start: map[string]Standing{"A": est(1800), "B": est(1800)},
			games: games("A", "B", 0.5, 1),
			want:  map[string]Line{"A": {Rating: 1800, K: 20, Period: 1}, "B": {Rating: 1800, K: 20, Period: 1}},
		},
		{
			// 20 games at K 40 exceed 700: K 35; 20 draws at D 0 change nothing,
			// 20 wins at D 0 give 35 × 10 = 350.
			name:  "K times n at most 700",
			start: map[string]Standing{"A": {Rating: 1600, Games: 0}, "B": est(1600)},
			games: games("A", "B", 1, 20),
			want:  map[string]Line{"A": {Rating: 1950, Change: 350, K: 35, Period: 20}, "B": {Rating: 1400, Change: -200, K: 20, Period: 20}},
		},
		{
			// Under 18 (born 2010, the period in 2026) and under 2300: K 40.
			name:  "young",
			start: map[string]Standing{"A": est(2000), "B": est(1900)},
			birth: map[string]int{"A": 2010, "B": 1990},
			games: games("A", "B", 1, 1),
			want:  map[string]Line{"A": {Rating: 2014, Change: 14, K: 40, Period: 1}, "B": {Rating: 1893, Change: -7, K: 20, Period: 1}},
		},
		{
			// 1405 loses twice at D 0: −20 gives 1385, under the floor: unrated.
			name:  "floor",
			start: map[string]Standing{"A": est(1405), "B": est(1405)},
			games: games("A", "B", 0, 2),
			want:  map[string]Line{"A": {Rating: 0, Change: -20, K: 20, Period: 2}, "B": {Rating: 1425, Change: 20, K: 20, Period: 2}},
		},
		{
			// Five games against 1600 with 3 points, and two draws against 1800:
			// Ra = 11600 / 7 = 1657.14, p = 4 / 7 = 0.57, dp 50: Ru 1707. The
			// rated opponent's games against him are not rated.
			name:  "initial rating",
			start: map[string]Standing{"B": est(1600)},
			games: append(games("U", "B", 1, 3), games("U", "B", 0, 2)...),
			want:  map[string]Line{"U": {Rating: 1707, Period: 5, Initial: true}, "B": {Rating: 1600}},
		},
		{
			// Four games are not enough: he stays unrated, his games kept.
			name:  "too few for a rating",
			start: map[string]Standing{"B": est(1600)},
			games: games("U", "B", 1, 4),
			want:  map[string]Line{"U": {Period: 4}, "B": {Rating: 1600}},
		},
		{
			// Five losses to 1400: Ra = (7000 + 3600) / 7 = 1514.29, p = 1/7 = 0.14,
			// dp −309: 1205, under the floor: not published.
			name:  "initial rating under the floor",
			start: map[string]Standing{"B": est(1400)},
			games: games("U", "B", 0, 5),
			want:  map[string]Line{"U": {Period: 5}, "B": {Rating: 1400}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, lines := RatePeriod(FIDERules, day, tt.start, tt.birth, tt.games)
			got := map[string]Line{}
			for _, l := range lines {
				id := l.Player
				l.Player = ""
				got[id] = l
			}
			for id, w := range tt.want {
				if got[id] != w {
					t.Errorf("%s: got %+v, want %+v", id, got[id], w)
				}
			}
			if len(got) != len(tt.want) {
				t.Errorf("got %d lines %+v, want %d", len(got), got, len(tt.want))
			}
		})
	}
}

// TestPendingGamesCarry checks that an unrated player's games add up over
// periods and drop out of the 26 months' window.
func TestPendingGamesCarry(t *testing.T) {
	start := map[string]Standing{"B": {Rating: 1600, Games: 100}}
	four := []PeriodGame{{"U", "B", 1, feb}, {"U", "B", 1, feb}, {"U", "B", 0, feb}, {"U", "B", 0, feb}}
	next, _ := RatePeriod(FIDERules, day, start, nil, four)
	if got := len(next["U"].Pending); got != 4 {
		t.Fatalf("pending %d, want 4", got)
	}
	// One more game in March: 5 games, 2.5 points + 1: 3.5/7 = 0.50, Ra 11600/7: 1657.
	apr := day.AddDate(0, 1, 0)
	next2, lines := RatePeriod(FIDERules, apr, next, nil, []PeriodGame{{"B", "U", 0.5, feb + 1}})
	if next2["U"].Rating != 1657 || next2["U"].Games != 5 {
		t.Errorf("after the fifth game: %+v, lines %+v", next2["U"], lines)
	}
	// The same four games, 27 months later, are out of the window.
	late := day.AddDate(0, 27, 0)
	next3, _ := RatePeriod(FIDERules, late, next, nil, []PeriodGame{{"B", "U", 0.5, MonthOf(late) - 1}})
	if got := next3["U"]; got.Rating != 0 || len(got.Pending) != 1 {
		t.Errorf("27 months later: %+v, want unrated with 1 game kept", got)
	}
}

// TestKFactorFIDE checks the configurable K under FIDE's rules against
// the tournament package's FIDE K.
func TestKFactorFIDE(t *testing.T) {
	for _, rating := range []int{1400, 2000, 2299, 2300, 2399, 2400, 2700} {
		for _, games := range []int{0, 29, 30, 200} {
			for _, young := range []bool{false, true} {
				for _, reached := range []bool{false, true} {
					if got, want := FIDERules.KFactor(rating, games, young, reached), tournament.KFactor(rating, games, young, reached); got != want {
						t.Errorf("K(%d, %d, %v, %v) = %d, want %d", rating, games, young, reached, got, want)
					}
				}
			}
		}
	}
}

func TestDP(t *testing.T) {
	for _, tt := range []struct{ p, dp int }{{100, 800}, {99, 677}, {75, 193}, {57, 50}, {50, 0}, {43, -50}, {14, -309}, {0, -800}} {
		if got := DP(tt.p); got != tt.dp {
			t.Errorf("DP(%d) = %d, want %d", tt.p, got, tt.dp)
		}
	}
	// Table 8.1(a) is 8.1(b) read the other way: the PD of dp is p again.
	for p := 50; p <= 99; p++ {
		if got := tournament.ExpectedScore(2000+DP(p), 2000); got != p && p < 92 {
			t.Errorf("PD(dp(%d)) = %d", p, got)
		}
	}
	if got := Performance([]int{1600, 1700, 1800}, 2); got != 1825 {
		t.Errorf("performance %d, want 1700 + dp(0.67) = 1825", got)
	}
}

func TestRulesParse(t *testing.T) {
	r, err := ParseRules(`{"floor": 1000, "k": 24}`)
	if err != nil || r.Floor != 1000 || r.K != 24 || r.KNew != 40 {
		t.Fatalf("ParseRules: %+v, %v", r, err)
	}
	if _, err := ParseRules(`{"max_difference": 500}`); err == nil {
		t.Error("a difference above 400 accepted")
	}
	if _, err := ParseRules(`{"k": "x"}`); err == nil {
		t.Error("a text K accepted")
	}
}
