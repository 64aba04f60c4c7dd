package fairplay

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/game"
)

// TestDefaultModel: the embedded parameters read, and a stronger player
// is expected to agree more and lose less in the same position.
func TestDefaultModel(t *testing.T) {
	m := Default()
	var raw Model
	if err := json.Unmarshal(modelJSON, &raw); err != nil || raw != m {
		t.Fatalf("model.json: %+v, %v", raw, err)
	}
	losses := []float64{0, 0.5, 2, 5, 12, 20}
	prev := Move{Losses: losses}
	lastAgree, lastLoss := 0.0, math.Inf(1)
	for r := 800.0; r <= 2400; r += 200 {
		_, v, agree, loss := m.Expect(prev, r)
		sum := 0.0
		for i := range losses {
			sum += m.Prob(losses, r, i)
		}
		if math.Abs(sum-1) > 1e-9 || v <= 0 {
			t.Errorf("rating %v: probabilities sum to %v, variance %v", r, sum, v)
		}
		if agree <= lastAgree || loss >= lastLoss {
			t.Errorf("rating %v: agreement %.3f, loss %.2f; weaker ratings had %.3f, %.2f", r, agree, loss, lastAgree, lastLoss)
		}
		lastAgree, lastLoss = agree, loss
	}
}

// randomMoves returns n judged moves with random alternatives, the
// played one drawn from m at rating.
func randomMoves(rng *rand.Rand, m Model, rating float64, n int) []Move {
	out := make([]Move, n)
	for i := range out {
		k := 2 + rng.IntN(8)
		losses := make([]float64, k)
		for j := 1; j < k; j++ {
			losses[j] = min(losses[j-1]+rng.ExpFloat64()*3, MaxLoss)
		}
		r, pick := rng.Float64(), 0
		for ; pick < k-1; pick++ {
			p := m.Prob(losses, rating, pick)
			if r < p {
				break
			}
			r -= p
		}
		for pick > 0 && losses[pick-1] == losses[pick] {
			pick--
		}
		out[i] = Move{Ply: BookPlies + i, Losses: losses, Rank: pick}
	}
	return out
}

// TestJudge: moves drawn from the model at a rating score about 0 on
// average with the spread taken out, and their IPR lands near the rating;
// the engine's first choice every time scores far above and is flagged;
// forced, book and too few moves are never judged or flagged.
func TestJudge(t *testing.T) {
	m := Default()
	m.Spread = 1 // the model's own moves have the model's variance
	rng := rand.New(rand.NewPCG(1, 2))
	var sum, iprSum float64
	const games = 200
	for range games {
		v := m.Judge(randomMoves(rng, m, 1400, 60), 1400, m.Threshold)
		sum += v.Score
		iprSum += float64(v.IPR)
	}
	if mean := sum / games; math.Abs(mean) > 0.25 {
		t.Errorf("mean score of the model's own moves %.2f, want about 0", mean)
	}
	if ipr := iprSum / games; math.Abs(ipr-1400) > 100 {
		t.Errorf("mean IPR %.0f, want about 1400", ipr)
	}
	best := randomMoves(rng, m, 1400, 60)
	for i := range best {
		best[i].Rank = 0
	}
	v := m.Judge(best, 1400, m.Threshold)
	if !v.Flag || v.Agree1 != 1 || v.Agree3 != 1 || v.MeanLoss != 0 || v.IPR < 2000 {
		t.Errorf("every move the engine's: %+v", v)
	}
	for name, edit := range map[string]func(*Move){
		"forced": func(m *Move) { m.Forced = true },
		"book":   func(m *Move) { m.Book = true },
	} {
		moves := append([]Move(nil), best...)
		for i := range moves {
			edit(&moves[i])
		}
		if v := m.Judge(moves, 1400, m.Threshold); v.Moves != 0 || v.Flag || v.Score != 0 || v.IPR != 1400 {
			t.Errorf("%s moves judged: %+v", name, v)
		}
	}
	if v := m.Judge(best[:MinMoves-1], 1400, m.Threshold); v.Flag {
		t.Errorf("%d moves flagged: %+v", MinMoves-1, v)
	}
}

// TestStrength: the strength test of moves drawn from the model at the
// player's rating is about N(0, 1) with the spread taken out; moves drawn
// at a rating 600 points higher score far above it, on average past the
// engine-agreement score of the same moves (the strength test is the one
// made for "a stronger player"), and a side whose Strength alone reaches
// the threshold is flagged.
func TestStrength(t *testing.T) {
	m := Default()
	m.Spread, m.StrengthSpread = 1, 1
	m.DeepWeight = 0
	rng := rand.New(rand.NewPCG(7, 8))
	const games = 300
	var own, stronger, score []float64
	for range games {
		own = append(own, m.Judge(randomMoves(rng, m, 1300, 40), 1300, m.Threshold).Strength)
		v := m.Judge(randomMoves(rng, m, 1900, 40), 1300, m.Threshold)
		stronger, score = append(stronger, v.Strength), append(score, v.Score)
	}
	if mean, sd := meanSD(own); math.Abs(mean) > 0.2 || math.Abs(sd-1) > 0.15 {
		t.Errorf("the model's own moves: strength mean %.2f, sd %.2f; want about N(0, 1)", mean, sd)
	}
	ms, _ := meanSD(stronger)
	mt, _ := meanSD(score)
	if ms < 2 || ms <= mt {
		t.Errorf("moves of a player 600 points stronger: strength mean %.2f, score mean %.2f; want the strength above 2 and above the score", ms, mt)
	}
	m.Threshold = 3
	for range 200 {
		v := m.Judge(randomMoves(rng, m, 2100, 60), 1300, m.Threshold)
		if v.Strength >= m.Threshold && v.Score < m.Threshold {
			if !v.Flag {
				t.Fatalf("strength %.2f over the threshold, not flagged: %+v", v.Strength, v)
			}
			return
		}
	}
	t.Error("no side with the strength test alone over the threshold in 200 games")
}

// TestUnionQuantile: the threshold of two scores together is the one
// score's quantile when they are the same score, and the quantile of the
// larger of two independent ones when they are independent.
func TestUnionQuantile(t *testing.T) {
	q := func(x float64) float64 { return math.Erfc(x/math.Sqrt2) / 2 }
	for _, tc := range []struct {
		rho, p    float64
		want, tol float64
	}{
		// Correlated 0.999, the larger exceeds the one's quantile by
		// about a third of their difference's sd, √(2·0.001) = 0.045.
		{0.999, 0.001, -normalQuantile(0.001), 0.02},
		{0, 0.001, -normalQuantile(1 - math.Sqrt(1-0.001)), 0.005},
		{0, 0.05, -normalQuantile(1 - math.Sqrt(1-0.05)), 0.005},
	} {
		got := unionQuantile(tc.p, tc.rho)
		if math.Abs(got-tc.want) > tc.tol {
			t.Errorf("unionQuantile(%g, %g) = %.4f, want %.4f", tc.p, tc.rho, got, tc.want)
		}
	}
	// Correlated in between: between the one score's and Bonferroni's.
	if got := unionQuantile(0.001, 0.9); !(got > -normalQuantile(0.001) && got < -normalQuantile(0.0005) && q(got) < 0.001) {
		t.Errorf("unionQuantile(0.001, 0.9) = %.4f", got)
	}
}

// TestIPR: the IPR is the rating at which the side's score is 0 (the
// expected play matches the observed), and it rises with better moves.
func TestIPR(t *testing.T) {
	m := Default()
	rng := rand.New(rand.NewPCG(3, 4))
	weak := randomMoves(rng, m, 900, 300)
	strong := randomMoves(rng, m, 2000, 300)
	vw, vs := m.Judge(weak, 1500, 99), m.Judge(strong, 1500, 99)
	if !(vw.IPR < vs.IPR) {
		t.Errorf("IPR weak %d, strong %d", vw.IPR, vs.IPR)
	}
	for _, side := range []struct {
		moves []Move
		ipr   int
	}{{weak, vw.IPR}, {strong, vs.IPR}} {
		if at := m.Judge(side.moves, float64(side.ipr), 99); math.Abs(at.Score) > 0.05 {
			t.Errorf("score at the IPR %d: %.3f, want 0", side.ipr, at.Score)
		}
	}
}

// TestFit recovers known parameters from moves drawn from them.
func TestFit(t *testing.T) {
	if testing.Short() {
		t.Skip("fits a model")
	}
	want := Model{A: 1.2, B: -0.4, C: 0.9, D: 0.05, LossWeight: 10, Spread: 1, Threshold: 3}
	rng := rand.New(rand.NewPCG(5, 6))
	var train []Sample
	for i := range 200 {
		r := 900 + float64(i%9)*150
		train = append(train, Sample{Moves: randomMoves(rng, want, r, 60), Rating: r})
	}
	got, err := Fit(train, 10, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		name      string
		got, want float64
	}{{"A", got.A, want.A}, {"B", got.B, want.B}, {"C", got.C, want.C}, {"D", got.D, want.D}} {
		if math.Abs(p.got-p.want) > 0.1 {
			t.Errorf("%s = %.3f, want %.3f", p.name, p.got, p.want)
		}
	}
	if math.Abs(got.Spread-1) > 0.15 {
		t.Errorf("spread %.3f of the model's own games, want about 1", got.Spread)
	}
}

// TestAccount reads the account-level evidence off table rows.
func TestAccount(t *testing.T) {
	row := func(n int, score float64, rated bool) game.FairPlay {
		return game.FairPlay{Moves: 30, Score: score, Rating: 1500, IPR: 1500 + int(score*100), Rated: rated,
			Computed: time.Unix(int64(n), 0)}
	}
	rows := func(scores ...float64) []game.FairPlay {
		var out []game.FairPlay
		for i, s := range scores {
			out = append(out, row(i, s, true))
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		rows  []game.FairPlay
		check func(AccountEvidence) bool
	}{
		{"none", nil, func(e AccountEvidence) bool { return e == AccountEvidence{} }},
		{"too short to count", []game.FairPlay{{Moves: MinMoves - 1, Score: 9}}, func(e AccountEvidence) bool { return e.Games == 0 && !e.Flag }},
		{"honest", rows(0.5, -1, 0.2, 1.1, -0.3, 0, 0.4), func(e AccountEvidence) bool {
			return e.Games == 7 && !e.Flag && e.Run == 0 && math.Abs(e.Combined-0.9/math.Sqrt(7)) < 1e-9
		}},
		{"steadily strong", rows(1.5, 1.2, 1.8, 1.4, 1.6, 1.3, 1.7, 1.5, 1.2, 1.6), func(e AccountEvidence) bool {
			return e.Flag && e.Combined > 4.5 && e.Run == 0
		}},
		{"near-perfect run", rows(0, 3, 2.6, 2.9, -0.5, 2.7), func(e AccountEvidence) bool { return e.Run == 3 }},
		{"jump", rows(-0.5, 0, 0.3, -0.2, 0.1, 0, 2, 2.5, 1.8, 2.2, 2.4), func(e AccountEvidence) bool {
			return e.Jump > 3 && e.IPRGain > 150
		}},
		{"rated only", append(rows(2, 2.5, 1.9), row(10, 0, false), row(11, -0.2, false), row(12, 0.1, false)), func(e AccountEvidence) bool {
			return e.RatedGap > 2
		}},
		{"order does not matter", []game.FairPlay{row(5, 3, true), row(1, 0, true), row(4, 3, true)}, func(e AccountEvidence) bool { return e.Run == 2 }},
		{"stronger than the rating", []game.FairPlay{{Moves: 30, Score: 1, Strength: 2}, {Moves: 30, Score: 1.2, Strength: 2.5}, {Moves: 30, Score: 0.8, Strength: 1.9}},
			func(e AccountEvidence) bool {
				return e.Flag && e.Combined < 3.1 && math.Abs(e.Strength-6.4/math.Sqrt(3)) < 1e-9 && e.Evidence() == e.Strength
			}},
	} {
		if e := Account(tc.rows, 3.1); !tc.check(e) {
			t.Errorf("%s: %+v", tc.name, e)
		}
	}
	// Times that follow difficulty give a positive TimeZ, flat ones none.
	follows := []game.FairPlay{{Moves: 30, Timed: 30, TimeCorr: 0.5}, {Moves: 30, Timed: 30, TimeCorr: 0.4}}
	flat := []game.FairPlay{{Moves: 30, Timed: 30, TimeCorr: 0.02}, {Moves: 30, Timed: 30, TimeCorr: -0.03}}
	if f, g := Account(follows, 3), Account(flat, 3); !(f.TimeZ > 3 && math.Abs(g.TimeZ) < 0.5 && f.Timed == 2) {
		t.Errorf("TimeZ following %+v, flat %+v", f, g)
	}
}

// TestTimeCorr: times that rise with difficulty (the alternatives closer
// to the best move) correlate 1,
// times that fall with it -1; ranks share ties.
func TestTimeCorr(t *testing.T) {
	m := Default()
	var moves []Move
	for i := range 10 {
		d := float64(i)
		moves = append(moves, Move{Losses: []float64{0, 10 - d, 12 - d, 20}, Time: time.Duration(i+1) * time.Second})
	}
	if n, c := timeCorr(moves, m, 1500); n != 10 || math.Abs(c-1) > 1e-9 {
		t.Errorf("rising: %d timed, correlation %v", n, c)
	}
	for i := range moves {
		moves[i].Time = time.Duration(20-i) * time.Second
	}
	if _, c := timeCorr(moves, m, 1500); math.Abs(c+1) > 1e-9 {
		t.Errorf("falling: correlation %v", c)
	}
	if r := ranks([]float64{3, 1, 3, 2}); r[0] != 3.5 || r[1] != 1 || r[2] != 3.5 || r[3] != 2 {
		t.Errorf("ranks %v", r)
	}
}

// TestUpper95 against the closed form for no successes, 1 − 0.05^(1/n),
// and a bound that is at least the observed share.
func TestUpper95(t *testing.T) {
	for _, n := range []int{10, 291, 1881} {
		if got, want := upper95(0, n), 1-math.Pow(0.05, 1/float64(n)); math.Abs(got-want) > 1e-6 {
			t.Errorf("upper95(0, %d) = %v, want %v", n, got, want)
		}
	}
	if u := upper95(9, 10); !(u > 0.9 && u <= 1) {
		t.Errorf("upper95(9, 10) = %v", u)
	}
	if q := normalQuantile(0.001); math.Abs(q+3.0902) > 1e-3 {
		t.Errorf("normalQuantile(0.001) = %v", q)
	}
}

// TestLengthBins: the bins start at MinMoves and at the quarters of the
// sides by judged moves, each with its sides' mean scores; a cut that
// falls where the one before does makes no bin of its own, nor one that
// would leave the first bin without sides; Judge takes
// both scores relative to the bin of the side's judged moves.
func TestLengthBins(t *testing.T) {
	moves := []int{20, 30, 40, 50, 60, 70, 80, 90}
	scores := []float64{-1, -0.5, 0, 0.2, 0.4, 0.6, 1, 1}
	strengths := []float64{-2, -1, 0, 0, 1, 1, 2, 2}
	got := lengthBins(moves, scores, strengths)
	want := [LengthQuarters]LengthBin{{MinMoves, -0.75, -1.5}, {40, 0.1, 0}, {60, 0.5, 1}, {80, 1, 2}}
	for i := range want {
		if got[i].From != want[i].From || math.Abs(got[i].Score-want[i].Score) > 1e-9 || math.Abs(got[i].Strength-want[i].Strength) > 1e-9 {
			t.Errorf("bin %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	m := Model{Lengths: got}
	for _, tc := range []struct{ n, from int }{{MinMoves, MinMoves}, {39, MinMoves}, {40, 40}, {79, 60}, {80, 80}, {500, 80}} {
		if b := m.lengthBin(tc.n); b.From != tc.from {
			t.Errorf("lengthBin(%d) from %d, want %d", tc.n, b.From, tc.from)
		}
	}
	same := lengthBins([]int{20, 30, 30, 30, 30, 30, 30, 70}, make([]float64, 8), make([]float64, 8))
	if same[0].From != MinMoves || same[1].From != 30 || same[2].From != 0 {
		t.Errorf("bins of equal lengths: %+v; want from %d and 30 only", same, MinMoves)
	}
	// No bin without sides: the first ends after its first side.
	if one := lengthBins([]int{40, 40, 40, 40}, make([]float64, 4), make([]float64, 4)); one[1].From != 0 {
		t.Errorf("bins of sides of one length: %+v; want one", one)
	}
	if b := (Model{Lengths: same}).lengthBin(90); b.From != 30 {
		t.Errorf("past the last bin in use: %+v", b)
	}

	def := Default()
	if def.Lengths[0].From != MinMoves {
		t.Fatalf("the embedded model has no length bins: %+v", def.Lengths)
	}
	plain := def
	plain.Lengths = [LengthQuarters]LengthBin{}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{20, 45, 60, 90} {
		mv := randomMoves(rng, def, 1300, n)
		v, w := def.Judge(mv, 1300, def.Threshold), plain.Judge(mv, 1300, def.Threshold)
		b := def.lengthBin(n)
		if math.Abs(v.Score-(w.Score-b.Score)) > 1e-9 || math.Abs(v.Strength-(w.Strength-b.Strength)) > 1e-9 {
			t.Errorf("%d moves: score %.3f, strength %.3f; without the bins %.3f, %.3f, the bin %+v", n, v.Score, v.Strength, w.Score, w.Strength, b)
		}
	}
}
