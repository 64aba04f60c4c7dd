package rating

import (
	"math"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/clock"
)

func TestGlickmanExample(t *testing.T) {
	// Glickman, "Example of the Glicko-2 system" (2013), tau 0.5. The paper
	// rounds its intermediate values (mu' = -0.2069), so its 1464.06 is
	// 1464.05 computed exactly; the tolerance is 0.01 on rating and RD.
	player := Rating{1500, 200, 0.06}
	results := []Result{
		{Rating{1400, 30, 0.06}, 1},
		{Rating{1550, 100, 0.06}, 0},
		{Rating{1700, 300, 0.06}, 0},
	}
	got := Glickman(0.5).Update(player, results, 1)
	want := Rating{1464.06, 151.52, 0.05999}
	if math.Abs(got.Rating-want.Rating) > 0.01 || math.Abs(got.RD-want.RD) > 0.01 || math.Abs(got.Volatility-want.Volatility) > 0.00001 {
		t.Errorf("Update = %.4f / %.4f / %.6f, want %.2f / %.2f / %.5f", got.Rating, got.RD, got.Volatility, want.Rating, want.RD, want.Volatility)
	}
}

func TestNoGamesGrowsDeviation(t *testing.T) {
	r := Rating{1600, 100, 0.06}
	got := Glickman(0.5).Update(r, nil, 1)
	// phi* = sqrt(phi^2 + sigma^2) on the Glicko-2 scale.
	want := scale * math.Sqrt(math.Pow(100/scale, 2)+0.06*0.06)
	if got.Rating != 1600 || math.Abs(got.RD-want) > 1e-9 || got.Volatility != 0.06 {
		t.Errorf("Update(no games) = %+v, want RD %.4f and the rest unchanged", got, want)
	}
}

func TestLichessBounds(t *testing.T) {
	s := Lichess()
	tests := []struct {
		name  string
		r     Rating
		res   []Result
		per   float64
		check func(Rating) bool
	}{
		{"RD never below 45", Rating{2000, 45, 0.06}, []Result{{Rating{2000, 45, 0.06}, 1}}, 0, func(r Rating) bool { return r.RD == MinRD }},
		{"RD never above 500", Default(), nil, 1000, func(r Rating) bool { return r.RD == MaxRD }},
		{"rating never below 400", Rating{420, 350, 0.09}, []Result{{Rating{400, 50, 0.06}, 0}}, 1, func(r Rating) bool { return r.Rating == MinRating }},
		{"volatility at most 0.1", Rating{1500, 60, 0.1}, []Result{{Rating{2900, 50, 0.06}, 1}}, 1, func(r Rating) bool { return r.Volatility <= MaxVolatility }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.Update(tt.r, tt.res, tt.per); !tt.check(got) {
				t.Errorf("Update = %+v", got)
			}
		})
	}
}

func TestGame(t *testing.T) {
	s := Lichess()
	w, b := s.Game(Default(), Default(), 1, [2]float64{1, 1})
	if !(w.Rating > 1500 && b.Rating < 1500) {
		t.Fatalf("after a win: white %v black %v", w, b)
	}
	if math.Abs((w.Rating-1500)-(1500-b.Rating)) > 1e-9 {
		t.Errorf("equal players should move symmetrically: %+v %+v", w, b)
	}
	if !w.Provisional() || Default().Rankable() {
		t.Errorf("a new player's rating must be provisional and not rankable")
	}
	dw, db := s.Game(Default(), Default(), 0.5, [2]float64{1, 1})
	if dw.Rating != 1500 || db.Rating != 1500 {
		t.Errorf("draw between equals changed ratings: %v %v", dw, db)
	}
	// Many games against equal opposition bring the RD down, and the rating stops being provisional.
	r := Default()
	for i := range 30 {
		r, _ = s.Game(r, Rating{1500, 60, 0.06}, float64(i%2), [2]float64{0.01, 0.01})
	}
	if r.Provisional() {
		t.Errorf("after 30 games RD is still %.1f", r.RD)
	}
}

func TestPeriods(t *testing.T) {
	now := time.Date(2026, 1, 10, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		last time.Time
		want float64
	}{
		{time.Time{}, 1},
		{now, 0},
		{now.Add(-24 * time.Hour), RatingPeriodsPerDay},
		{now.Add(-10 * 24 * time.Hour), 10 * RatingPeriodsPerDay},
		{now.Add(time.Hour), 1},
	}
	for _, tt := range tests {
		if got := Periods(tt.last, now); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Periods(%v) = %v, want %v", tt.last, got, tt.want)
		}
	}
}

func TestCategorize(t *testing.T) {
	m, s := time.Minute, time.Second
	tests := []struct {
		base, inc time.Duration
		want      Category
	}{
		{15 * s, 0, Bullet},
		{1 * m, 0, Bullet},
		{2 * m, 1 * s, Bullet}, // 2:40
		{3 * m, 0, Blitz},
		{3 * m, 2 * s, Blitz}, // 4:20
		{5 * m, 3 * s, Blitz}, // 7:00
		{5 * m, 5 * s, Rapid}, // 8:20
		{7 * m, 1 * s, Blitz}, // 7:40
		{10 * m, 0, Rapid},
		{15 * m, 10 * s, Rapid}, // 21:40
		{25 * m, 0, Classical},
		{30 * m, 20 * s, Classical},
	}
	for _, tt := range tests {
		if got := Categorize(tt.base, tt.inc); got != tt.want {
			t.Errorf("Categorize(%v, %v) = %v, want %v", tt.base, tt.inc, got, tt.want)
		}
	}
	for _, c := range Categories {
		if p, err := ParseCategory(c.String()); err != nil || p != c {
			t.Errorf("ParseCategory(%q) = %v, %v", c, p, err)
		}
	}
	if _, err := ParseCategory("hyper"); err == nil {
		t.Error("ParseCategory(hyper) did not fail")
	}
}

func TestForTimeControl(t *testing.T) {
	tests := []struct {
		tc   string
		want Category
		ok   bool
	}{
		{"-", 0, false},
		{"1+0", Bullet, true},
		{"3+2", Blitz, true},
		{"10+0", Rapid, true},
		{"30+20", Classical, true},
		{"3d", Correspondence, true},
	}
	for _, tt := range tests {
		tc, err := clock.ParseTimeControl(tt.tc)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := ForTimeControl(tc); got != tt.want || ok != tt.ok {
			t.Errorf("ForTimeControl(%s) = %v, %v, want %v, %v", tt.tc, got, ok, tt.want, tt.ok)
		}
	}
}
