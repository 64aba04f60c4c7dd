package levels

import (
	"math"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func ref(scores map[toguz.Move]engine.Score) Ref {
	var r Ref
	for m, s := range scores {
		r.Scores[m] = s
		r.Legal |= 1 << (m - 1)
	}
	return r
}

func TestStonesAndLoss(t *testing.T) {
	r := ref(map[toguz.Move]engine.Score{1: 250, 2: -150, 3: 250, 4: -3000, 5: -engine.MateScore + 7})
	win := ref(map[toguz.Move]engine.Score{1: engine.MateScore - 9, 2: 1200, 3: 3500})
	tests := []struct {
		name string
		r    Ref
		m    toguz.Move
		want float64
	}{
		{"best", r, 1, 0},
		{"equal to the best", r, 3, 0},
		{"four stones", r, 2, 4},
		{"clamped at -20", r, 4, 22.5},
		{"proven loss counts as -20", r, 5, 22.5},
		{"proven win lost to +12", win, 2, 8},
		{"+35 is +20, as good as a win", win, 3, 0},
	}
	for _, tt := range tests {
		if got := tt.r.Loss(tt.m, 20); !near(got, tt.want) {
			t.Errorf("%s: Loss(%v) = %g, want %g", tt.name, tt.m, got, tt.want)
		}
	}
	if b := r.Best(); b != 1 {
		t.Errorf("Best = %v, want 1 (the lower hole of equals)", b)
	}
}

func TestMeanCI(t *testing.T) {
	tests := []struct {
		name     string
		xs       []obs
		mean, ci float64
	}{
		{"empty", nil, 0, 0},
		{"one cluster has no interval", []obs{{1, 2}, {1, 4}}, 3, 0},
		// Independent: s = √2 (values 1,3,…), SE = s/√n.
		{"one per cluster", []obs{{1, 1}, {2, 3}, {3, 1}, {4, 3}}, 2, 1.96 * math.Sqrt(4.0/3/16*4)},
		// Two clusters of two equal values: the interval of two values, not four.
		{"clustered", []obs{{1, 1}, {1, 1}, {2, 3}, {2, 3}}, 2, 1.96 * math.Sqrt(2.0*(4+4)/16)},
	}
	for _, tt := range tests {
		m, ci := meanCI(tt.xs)
		if !near(m, tt.mean) || !near(ci, tt.ci) {
			t.Errorf("%s: meanCI = %g ± %g, want %g ± %g", tt.name, m, ci, tt.mean, tt.ci)
		}
	}
}

func TestMonotoneAndPlace(t *testing.T) {
	curve := Monotone([]Point{
		{Rating: 1400, Loss: 1.5, Weight: 100},
		{Rating: 1150, Loss: 2.0, Weight: 100},
		{Rating: 1250, Loss: 1.8, Weight: 100},
		// Stronger but loses more: pooled with 1400 into one point.
		{Rating: 1500, Loss: 1.7, Weight: 100},
	})
	want := []Point{{1150, 2.0, 100}, {1250, 1.8, 100}, {1450, 1.6, 200}}
	if len(curve) != len(want) {
		t.Fatalf("Monotone = %v, want %v", curve, want)
	}
	for i := range want {
		if !near(curve[i].Rating, want[i].Rating) || !near(curve[i].Loss, want[i].Loss) || curve[i].Weight != want[i].Weight {
			t.Errorf("Monotone[%d] = %v, want %v", i, curve[i], want[i])
		}
	}
	tests := []struct {
		loss   float64
		rating float64
		bound  Bound
	}{
		{2.5, 1150, Below},
		{2.0, 1150, About},
		{1.9, 1200, About},
		{1.8, 1250, About},
		{1.7, 1350, About},
		{1.6, 1450, About},
		{0.3, 1450, Above},
	}
	for _, tt := range tests {
		r, b := Place(curve, tt.loss)
		if !near(r, tt.rating) || b != tt.bound {
			t.Errorf("Place(%g) = %g %s, want %g %s", tt.loss, r, b, tt.rating, tt.bound)
		}
	}
	for _, c := range []struct {
		in   float64
		want int
	}{{1224, 1200}, {1225, 1250}, {1449.9, 1450}} {
		if got := Round50(c.in); got != c.want {
			t.Errorf("Round50(%g) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestBands(t *testing.T) {
	tests := []struct {
		b    Band
		name string
		in   []int
		out  []int
	}{
		{Band{0, 1200}, "<1200", []int{800, 1199}, []int{1200}},
		{Band{1200, 1300}, "1200–1299", []int{1200, 1299}, []int{1199, 1300}},
		{Band{1500, 0}, "≥1500", []int{1500, 2400}, []int{1499}},
	}
	for _, tt := range tests {
		if tt.b.String() != tt.name {
			t.Errorf("%v.String() = %q, want %q", tt.b, tt.b.String(), tt.name)
		}
		for _, r := range tt.in {
			if !tt.b.Contains(r) {
				t.Errorf("%s does not contain %d", tt.name, r)
			}
		}
		for _, r := range tt.out {
			if tt.b.Contains(r) {
				t.Errorf("%s contains %d", tt.name, r)
			}
		}
	}
}

// TestCompile runs the calibration's arithmetic on a small fixed sample:
// two bands, three positions, known scores and choices.
func TestCompile(t *testing.T) {
	pos := toguz.StartPosition()
	r := ref(map[toguz.Move]engine.Score{1: 300, 2: 100, 3: -100, 4: 300, 5: 0, 6: 0, 7: 0, 8: 0, 9: -400})
	samples := []sample{
		{band: 0, rating: 1100, cluster: 0, game: 0, pos: pos, played: 3}, // loses 4
		{band: 0, rating: 1150, cluster: 1, game: 0, pos: pos, played: 2}, // loses 2
		{band: 1, rating: 1500, cluster: 2, game: 1, pos: pos, played: 1}, // the best
		// The reference group (unrated masters), off the scale.
		{band: 2, cluster: 9, game: 5, pos: pos, played: 4},
	}
	refs := []Ref{r, r, r, r}
	choices := make([][engine.MaxLevel + 1]choice, 4)
	for i := range choices {
		for l := 1; l <= engine.MaxLevel; l++ {
			choices[i][l] = choice{move: 1, depth: l}
		}
	}
	choices[0][1], choices[1][1], choices[2][1] = choice{3, 1}, choice{2, 1}, choice{2, 1}                              // 4, 2, 2: 8/3
	choices[0][2], choices[1][2], choices[2][2] = choice{2, 2}, choice{1, 2}, choice{5, 2}                              // 2, 0, 3: 5/3
	choices[0][3], choices[1][3], choices[2][3], choices[3][3] = choice{3, 3}, choice{3, 3}, choice{3, 3}, choice{3, 3} // 4 each
	choices[0][5] = choice{9, 5}                                                                                        // loses 7: a mistake
	c := Config{Bands: []Band{{0, 1200}, {1200, 0}}, Cap: 20, NPS: 1000, MaxNodes: 500, RefDepth: 14,
		Reference: make([]*toguz.Game, 1), ReferenceName: "masters"}
	tb := c.compile(samples, refs, choices)
	if tb.Positions != 3 || tb.Reference == nil || tb.Reference.Positions != 1 || tb.Reference.Loss != 0 || tb.Reference.Match != 0 {
		t.Fatalf("%d rated positions, reference %+v; want 3 and one position of loss 0, not the deep search's move", tb.Positions, tb.Reference)
	}
	if l := tb.Levels[2]; !near(l.RefLoss, 4) || !near(l.Agree[2], 0) {
		t.Errorf("level 3 on the reference's positions: loss %g, agreement %g; want 4 and 0", l.RefLoss, l.Agree[2])
	}
	if l := tb.Levels[3]; !near(l.RefLoss, 0) || !near(l.Agree[2], 0) {
		t.Errorf("level 4 on the reference's positions: loss %g, agreement %g; want 0 and 0", l.RefLoss, l.Agree[2])
	}

	b0, b1 := tb.Bands[0], tb.Bands[1]
	if b0.Positions != 2 || b0.Games != 1 || b0.Players != 2 || !near(b0.MeanRating, 1125) || !near(b0.Loss, 3) || !near(b0.Match, 0) {
		t.Errorf("band 0 = %+v, want 2 positions of 1 game, 2 players, mean rating 1125, loss 3, match 0", b0)
	}
	if b1.Positions != 1 || !near(b1.Loss, 0) || !near(b1.Match, 1) {
		t.Errorf("band 1 = %+v, want 1 position, loss 0, match 1", b1)
	}
	tests := []struct {
		level          int
		loss, match    float64
		agree0, agree1 float64
		rating         int
		bound          Bound
	}{
		// The curve is (1125, 3) – (1500, 0): loss L sits at 1125 + (3-L)/3·375.
		{1, 8.0 / 3, 0, 1, 0, 1150, About},       // 1166.7
		{2, 5.0 / 3, 1.0 / 3, 0, 0, 1300, About}, // 1291.7
		{3, 4, 0, 0.5, 0, 1150, Below},           // the weakest band's mean, rounded
		{4, 0, 1, 0, 1, 1500, About},
	}
	for _, tt := range tests {
		l := tb.Levels[tt.level-1]
		if l.Level != tt.level || !near(l.Loss, tt.loss) || !near(l.Match, tt.match) ||
			!near(l.Agree[0], tt.agree0) || !near(l.Agree[1], tt.agree1) || l.Rating != tt.rating || l.Bound != tt.bound {
			t.Errorf("level %d = %+v, want loss %g match %g agree %g,%g rating %s %d", tt.level, l, tt.loss, tt.match, tt.agree0, tt.agree1, tt.bound, tt.rating)
		}
	}
	// Level 3 loses 4 everywhere: no interval, below on both ends; level
	// 1's 4,2,2 reach from below the curve to inside it.
	if r := tb.Levels[2].Range; r != [2]Placement{{Rating: 1150, Bound: Below}, {Rating: 1150, Bound: Below}} {
		t.Errorf("level 3 range %v, want below 1150 at both ends", r)
	}
	if r := tb.Levels[0].Range; r[0] != (Placement{Rating: 1150, Bound: Below}) || r[1].Bound != About || r[1].Rating <= 1150 {
		t.Errorf("level 1 range %v, want from below 1150 to a rating above it", r)
	}
	if m := tb.Levels[4].Mistakes; !near(m, 1.0/3) {
		t.Errorf("level 5 mistakes %g, want 1/3", m)
	}
	if m := tb.Bands[0].Mistakes; m != 0 {
		t.Errorf("band 0 mistakes %g, want 0", m)
	}
	// A random move: losses 0,2,4,0,3,3,3,3,7 of the nine moves.
	rnd := tb.Random
	if !near(rnd.Loss, 25.0/9) || !near(rnd.Mistakes, 1.0/9) || !near(rnd.Match, 1.0/9) || !near(rnd.Agree[0], 1.0/9) || !near(rnd.Agree[1], 1.0/9) || !near(rnd.Agree[2], 1.0/9) {
		t.Errorf("random move %+v, want loss 25/9, mistakes, match and agreement 1/9", rnd)
	}
	if n := tb.Levels[0].Nodes; n != 60 { // LevelMoveTime(1) = 60 ms at 1000 nodes/s
		t.Errorf("level 1 budget %d nodes, want 60", n)
	}
	if n := tb.Levels[9].Nodes; n != 500 { // 1050 capped at 500
		t.Errorf("level 10 budget %d nodes, want the cap 500", n)
	}
}
