package fairplay

import (
	"bytes"
	"io"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/toguz/toguz"
)

// TestSetDeep: the deeper search's move is placed among the evidence's
// (a move tied with a better one takes the first place of its tie), and
// never on a move that is not judged or a move the position lacks.
func TestSetDeep(t *testing.T) {
	base := Move{Ply: BookPlies, Played: 3, Order: []toguz.Move{5, 3, 7, 1}, Losses: []float64{0, 0.5, 0.5, 4}, Rank: 1}
	for _, tc := range []struct {
		name     string
		mv       Move
		best     toguz.Move
		has      bool
		rank     int
		agreeing bool
	}{
		{"the played move", base, 3, true, 1, true},
		{"the depth's first", base, 5, true, 0, false},
		{"tied with the second", base, 7, true, 1, false},
		{"the worst", base, 1, true, 3, false},
		{"not a legal move", base, 9, false, 0, false},
		{"a book move", func() Move { m := base; m.Book = true; return m }(), 5, false, 0, false},
		{"no order kept", func() Move { m := base; m.Order = nil; return m }(), 5, false, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mv := tc.mv
			mv.SetDeep(tc.best)
			if mv.HasDeep() != tc.has || mv.DeepRank != tc.rank || mv.DeepAgree() != tc.agreeing {
				t.Errorf("deep %d rank %d agree %t; want has %t rank %d agree %t", mv.Deep, mv.DeepRank, mv.DeepAgree(), tc.has, tc.rank, tc.agreeing)
			}
		})
	}
}

// TestDeepMoments checks the per-move statistic with the deeper term
// against the expectation and variance summed over every move the player
// could have chosen, one by one: the deeper search's move with its bonus
// (the others' probabilities scaled down to make room), the expectation of
// t the human model's without it.
func TestDeepMoments(t *testing.T) {
	m := Default()
	m.DeepWeight, m.DeepSpread, m.DeepBonus, m.DeepBonusOther = 1.5, 1, 0.4, 0.7
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 200 {
		k := 2 + rng.IntN(8)
		mv := Move{Ply: BookPlies, Losses: make([]float64, k), Order: make([]toguz.Move, k)}
		for j := range k {
			mv.Order[j] = toguz.Move(j + 1)
			if j > 0 {
				mv.Losses[j] = min(mv.Losses[j-1]+math.Floor(rng.ExpFloat64()*4)/2, MaxLoss)
			}
		}
		mv.Played = mv.Order[rng.IntN(k)]
		for j, o := range mv.Order {
			if o == mv.Played {
				mv.Rank = j
				for mv.Rank > 0 && mv.Losses[mv.Rank-1] == mv.Losses[j] {
					mv.Rank--
				}
			}
		}
		deep := mv.Order[rng.IntN(k)]
		mv.SetDeep(deep)
		rating := 800 + rng.Float64()*1400
		stat := func(j int) float64 { // the statistic had the player chosen Order[j]
			s := m.moveStat(mv.Losses[j])
			if mv.Order[j] == deep {
				s += m.DeepWeight
			}
			return s
		}
		// The deeper search's move's probability with its bonus; the
		// rest share what is left in their proportions.
		di := 0
		for j, o := range mv.Order {
			if o == deep {
				di = j
			}
		}
		bonus := m.DeepBonus
		if mv.Losses[di] > 0 {
			bonus = m.DeepBonusOther
		}
		pd := m.Prob(mv.Losses, rating, di)
		withBonus := pd * math.Exp(bonus) / (1 - pd + pd*math.Exp(bonus))
		var mean, jointMean, sq float64
		for j := range k {
			p := m.Prob(mv.Losses, rating, j)
			q := p * (1 - withBonus) / (1 - pd)
			if j == di {
				q = withBonus
				mean += m.DeepWeight * q
			} else {
				mean += p * m.moveStat(mv.Losses[j])
			}
			if j == di {
				mean += p * m.moveStat(mv.Losses[j])
			}
			jointMean += q * stat(j)
			sq += q * stat(j) * stat(j)
		}
		played := 0
		for j, o := range mv.Order {
			if o == mv.Played {
				played = j
			}
		}
		obs, gotMean, gotVar := m.deepMoments(mv, rating)
		if math.Abs(obs-stat(played)) > 1e-9 || math.Abs(gotMean-mean) > 1e-9 || math.Abs(gotVar-(sq-jointMean*jointMean)) > 1e-9 {
			t.Fatalf("case %d: %+v at %.0f: got %v %v %v; want %v %v %v", i, mv, rating, obs, gotMean, gotVar, stat(played), mean, sq-jointMean*jointMean)
		}
	}
}

// TestDeepScore: moves drawn from the model at a rating, with a deeper
// search whose move is any of them, score about N(0, 1) with the spread
// taken out; the deeper search's move played every time scores far above
// and is flagged; a side without the deeper evidence is scored without the
// term, as before.
func TestDeepScore(t *testing.T) {
	m := Default()
	// The moves are drawn from the human model without a bonus for the
	// deeper search's move, so the model judging them has none.
	m.DeepWeight, m.DeepSpread, m.Spread, m.DeepBonus, m.DeepBonusOther = 1, 1, 1, 0, 0
	rng := rand.New(rand.NewPCG(5, 6))
	withDeep := func(moves []Move, engine bool) []Move {
		for i := range moves {
			mv := &moves[i]
			mv.Order = make([]toguz.Move, len(mv.Losses))
			for j := range mv.Order {
				mv.Order[j] = toguz.Move(j + 1)
			}
			mv.Played = mv.Order[mv.Rank]
			deep := mv.Order[rng.IntN(min(3, len(mv.Order)))]
			if engine {
				mv.Played = deep
				mv.Rank = 0
				for mv.Losses[mv.Rank] != mv.Losses[int(deep)-1] {
					mv.Rank++
				}
			}
			mv.SetDeep(deep)
		}
		return moves
	}
	var zs []float64
	for range 300 {
		moves := randomMoves(rng, m, 1300, 50)
		plain := m.Judge(moves, 1300, m.Threshold)
		v := m.Judge(withDeep(moves, false), 1300, m.Threshold)
		if v.Deep != v.Moves || plain.Deep != 0 {
			t.Fatalf("%d of %d judged moves with the deeper evidence; %d without it", v.Deep, v.Moves, plain.Deep)
		}
		zs = append(zs, v.Score)
	}
	mean, sd := meanSD(zs)
	if math.Abs(mean) > 0.15 || math.Abs(sd-1) > 0.15 {
		t.Errorf("the model's own moves score mean %.3f, sd %.3f; want about 0 and 1", mean, sd)
	}
	v := m.Judge(withDeep(randomMoves(rng, m, 1300, 50), true), 1300, m.Threshold)
	if !v.Flag || v.AgreeDeep != 1 {
		t.Errorf("the deeper search's move every time: %+v; want flagged, agreeing every time", v)
	}
}

// TestSimulatedRoundTrip: simulated games read back as written, a line
// cut short by an interrupted run left out.
func TestSimulatedRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	want := []Simulated{
		{SimKey: SimKey{Seed: 3, Job: 0, Level: 10, Share: 1}, Side: toguz.Black, Rating: 1250,
			Record: Record{File: "a.pgn", Index: 2, Moves: []Move{{Ply: 8, Played: 4, Losses: []float64{0, 1}, Order: []toguz.Move{4, 2}, Deep: 4}}}},
		{SimKey: SimKey{Seed: 3, Job: 1, Level: 10, Share: 1, Game: 1}, Side: toguz.White, Rating: 1400},
	}
	for _, s := range want {
		if err := WriteSimulated(&buf, s); err != nil {
			t.Fatal(err)
		}
	}
	buf.WriteString(`{"seed":3,"job":2,"lev`)
	got, err := ReadSimulated(&buf)
	if err != nil || len(got) != 2 {
		t.Fatalf("%d games, %v; want 2", len(got), err)
	}
	for _, s := range want {
		g := got[s.SimKey]
		if g.Side != s.Side || g.Rating != s.Rating || len(g.Record.Moves) != len(s.Record.Moves) {
			t.Errorf("%+v: read %+v", s.SimKey, g)
		}
	}
	if g := got[want[0].SimKey].Record.Moves[0]; g.Deep != 4 || len(g.Order) != 2 || g.Order[1] != 2 {
		t.Errorf("the move read back: %+v", g)
	}
}

// TestCalibrateDeep: on sides whose moves are drawn from the model with a
// known bonus for the deeper search's move, the calibration finds the
// bonus again, and the sides' scores with the deeper term come out about
// N(0, 1).
func TestCalibrateDeep(t *testing.T) {
	truth := Default()
	truth.DeepBonus, truth.DeepBonusOther = 0.4, 0.8
	rng := rand.New(rand.NewPCG(7, 8))
	var recs []Record
	for g := range 160 {
		r := Record{Index: g + 1, Ratings: [2]int{900 + rng.IntN(800), 900 + rng.IntN(800)}}
		for ply := range 80 {
			k := 2 + rng.IntN(8)
			mv := Move{Ply: BookPlies + ply, Mover: toguz.Player(ply % 2), Losses: make([]float64, k), Order: make([]toguz.Move, k)}
			for j := range k {
				mv.Order[j] = toguz.Move(j + 1)
				if j > 0 {
					mv.Losses[j] = min(mv.Losses[j-1]+math.Floor(rng.ExpFloat64()*4)/2, MaxLoss)
				}
			}
			di := rng.IntN(min(3, k))
			for di > 0 && mv.Losses[di-1] == mv.Losses[di] {
				di-- // the deeper search's move first of its tie, as the bonus's place is
			}
			mv.Played = mv.Order[0] // judged, any move, until drawn below
			mv.SetDeep(mv.Order[di])
			p := make([]float64, k)
			truth.deepProbs(mv, float64(r.Ratings[ply%2]), p)
			x, i := rng.Float64(), 0
			for ; i < k-1 && x >= p[i]; i++ {
				x -= p[i]
			}
			mv.Played, mv.Rank = mv.Order[i], i
			for mv.Rank > 0 && mv.Losses[mv.Rank-1] == mv.Losses[i] {
				mv.Rank--
			}
			r.Moves = append(r.Moves, mv)
		}
		recs = append(recs, r)
	}
	m, err := CalibrateDeep(Default(), recs, 2, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(m.DeepBonus-0.4) > 0.15 || math.Abs(m.DeepBonusOther-0.8) > 0.15 || math.Abs(m.DeepSpread-1) > 0.15 {
		t.Errorf("bonus %.3f, %.3f (want 0.4, 0.8), spread %.3f (want about 1)", m.DeepBonus, m.DeepBonusOther, m.DeepSpread)
	}
	var zs []float64
	for _, s := range Samples(recs) {
		zs = append(zs, m.Judge(s.Moves, s.Rating, m.Threshold).Score)
	}
	if mean, sd := meanSD(zs); math.Abs(mean) > 0.2 || math.Abs(sd-1) > 0.15 {
		t.Errorf("scores mean %.3f, sd %.3f; want about 0 and 1", mean, sd)
	}
	// Every side has 40 judged moves: one length bin, measured again
	// beside the new score, whose sides then average 0 exactly.
	if m.Lengths[0].From != MinMoves || m.Lengths[1].From != 0 || m.Lengths == Default().Lengths {
		t.Errorf("length bins %+v", m.Lengths)
	}
	if mean, _ := meanSD(zs); math.Abs(mean) > 1e-9 {
		t.Errorf("scores mean %.3g after the length bins; want 0", mean)
	}
}

// TestInterval95 checks the Clopper–Pearson interval against known
// values; the last ones, computed exactly (60-digit decimals) outside, are
// where the product form underflowed (431 of 480 gave 78.8%–78.8%).
func TestInterval95(t *testing.T) {
	for _, tc := range []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 30, 0, 0.1157},
		{30, 30, 0.8843, 1},
		{27, 30, 0.7347, 0.9789},
		{22, 30, 0.5411, 0.8772},
		{255, 280, 0.8710, 0.9414},
		{357, 400, 0.8579, 0.9211},
		{431, 480, 0.8673, 0.9235},
		{1881, 1881, 0.9980, 1},
	} {
		lo, hi := interval95(tc.k, tc.n)
		if math.Abs(lo-tc.lo) > 5e-4 || math.Abs(hi-tc.hi) > 5e-4 {
			t.Errorf("%d of %d: %.4f–%.4f; want %.4f–%.4f", tc.k, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
}
