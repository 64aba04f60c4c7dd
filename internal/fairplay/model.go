package fairplay

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sync"
)

// Model is the statistical model of the moves a human of a given rating
// chooses, after Regan and Haworth's: in a position whose legal moves lose
// δ₁ = 0 ≤ δ₂ ≤ … stones against the best, a player of rating R chooses
// move i with probability
//
//	pᵢ ∝ exp(−(δᵢ/s(R))^c(R)),  log s(R) = A + B·x,  c(R) = C + D·x,  x = (R − 1500)/400
//
// s is the sensitivity (how many stones a player notices) and c the
// consistency. Each judged move then has an expected agreement with the
// engine's first move, an expected loss, and their variances; summed over
// a game's moves they give the expected play of a side and the z-score of
// what was observed (Judge).
type Model struct {
	A, B, C, D float64
	// LossWeight is k of the per-move statistic t = [best] − δ/k: a move
	// that loses k stones weighs as much against as agreeing with the
	// engine weighs for.
	LossWeight float64
	// Spread is the standard deviation of the per-game z-scores on the
	// games the model was fit on (over-dispersion: real players vary more
	// from game to game than the model's moves do); Score divides by it so
	// that human games score about N(0, 1).
	Spread float64
	// Threshold is the default flag: a side with Score at least Threshold
	// (and MinMoves judged moves) is flagged. It is chosen on held-out games
	// (docs/fairplay.md).
	Threshold float64
	// Fit records what the parameters were fit on, for people.
	Fit string `json:",omitempty"`
	// DeepWeight is W of the per-move statistic's deeper term: a move with
	// the deeper evidence (Move.Deep) counts t + W·[the played move is the
	// deeper search's best]. Its expectation for the rating is W times the
	// chance the model gives the player of choosing that move. 0: the
	// deeper evidence is not used.
	DeepWeight float64 `json:",omitempty"`
	// DeepBonus and DeepBonusOther give people their due for the deeper
	// search: a player chooses the deeper search's best move with
	// probability ∝ pᵢ·exp(β), β = DeepBonus where it is also the first
	// at Depth and DeepBonusOther where it is not: the move a deeper
	// search prefers is chosen more often than its loss at Depth alone
	// says. Fit by CalibrateDeep on the fit's games, so that the deeper
	// term of an honest side is expected right.
	DeepBonus, DeepBonusOther float64 `json:",omitempty"`
	// DeepSpread is the Spread of the score with the deeper term, measured
	// on the fit's games with the deeper evidence. A side whose moves have
	// no deeper evidence (a review at another depth) is scored without
	// the term, by Spread.
	DeepSpread float64 `json:",omitempty"`
	// DeepFit records what DeepSpread was measured on, for people.
	DeepFit string `json:",omitempty"`
	// StrengthSpread is the Spread of the strength test (Verdict.Strength),
	// measured on the fit's sides. 0: the model has no strength test.
	StrengthSpread float64 `json:",omitempty"`
	// StrengthFit records what StrengthSpread and the threshold of the
	// two scores together were measured on, for people.
	StrengthFit string `json:",omitempty"`
	// Lengths corrects both scores for the side's number of judged moves:
	// an honest side of a short game scores lower than one of a long game
	// (a game ends early because someone blundered), so each score is
	// taken relative to the mean of the fit's sides of about its length.
	// Set with the strength test (lengthBins); none: no correction. An
	// array, so that a Model stays comparable.
	Lengths [LengthQuarters]LengthBin `json:",omitzero"`
}

// LengthBin is one range of judged moves of Model.Lengths: from From to the
// next bin's From, the fit's sides' mean Score and Strength before the
// correction. A bin with From 0 is unused.
type LengthBin struct {
	From            int
	Score, Strength float64
}

// lengthBin returns the bin of a side with n judged moves (the zero bin
// when the model has none).
func (m Model) lengthBin(n int) LengthBin {
	if i := lengthIndex(&m.Lengths, n); i >= 0 {
		return m.Lengths[i]
	}
	return LengthBin{}
}

// lengthIndex returns the index of the bin of bins in use (From > 0) that
// holds n judged moves; -1 for none.
func lengthIndex(bins *[LengthQuarters]LengthBin, n int) int {
	i := -1
	for j, l := range bins {
		if l.From == 0 || n < l.From {
			break
		}
		i = j
	}
	return i
}

// UnratedRating is the rating a player without one is judged at: the
// site's starting rating.
const UnratedRating = 1500

// MinMoves is the fewest judged moves a side needs to be flagged.
const MinMoves = 15

// Rating bounds of the IPR.
const (
	MinRating = 0
	MaxRating = 3500
)

//go:embed model.json
var modelJSON []byte

var embedded = sync.OnceValues(func() (Model, error) {
	var m Model
	if err := json.Unmarshal(modelJSON, &m); err != nil {
		return m, fmt.Errorf("fairplay: the embedded model: %w", err)
	}
	return m, m.valid()
})

// Default returns the embedded model, fit by `toguz fairplay fit`.
func Default() Model {
	m, err := embedded()
	if err != nil {
		panic(err) // the embedded file is checked by the tests
	}
	return m
}

func (m Model) valid() error {
	if !(m.LossWeight > 0 && m.Spread > 0 && m.Threshold > 0) || math.IsNaN(m.A+m.B+m.C+m.D) ||
		m.DeepWeight < 0 || m.DeepWeight > 0 && !(m.DeepSpread > 0) || !(m.StrengthSpread >= 0) {
		return fmt.Errorf("fairplay: model %+v out of bounds", m)
	}
	return nil
}

func x(rating float64) float64 { return (rating - 1500) / 400 }

// probs fills p with the probabilities of the moves of losses at rating.
func (m Model) probs(losses []float64, rating float64, p []float64) {
	s := math.Exp(m.A + m.B*x(rating))
	c := min(max(m.C+m.D*x(rating), 0.2), 5)
	sum := 0.0
	for i, d := range losses {
		p[i] = math.Exp(-math.Pow(d/s, c))
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
}

// deepProbs fills p with the probabilities of mv's moves at rating, the
// deeper search's best move (at DeepRank: tied moves are alike) given its
// bonus where mv has it.
func (m Model) deepProbs(mv Move, rating float64, p []float64) {
	m.probs(mv.Losses, rating, p)
	if !mv.HasDeep() {
		return
	}
	b := math.Exp(m.DeepBonus)
	if mv.DeepRank > 0 {
		b = math.Exp(m.DeepBonusOther)
	}
	d := p[mv.DeepRank]
	sum := 1 - d + d*b
	for i := range p {
		p[i] /= sum
	}
	p[mv.DeepRank] *= b
}

// deepMoments returns the per-move statistic with the deeper term of the
// played move of mv, t + W·[played = deep], and its expectation and
// variance for a player of rating (the covariance of the two terms
// included). A move without the deeper evidence counts t alone.
func (m Model) deepMoments(mv Move, rating float64) (obs, mean, variance float64) {
	var buf, base [16]float64
	p, p0 := buf[:len(mv.Losses)], base[:len(mv.Losses)]
	m.deepProbs(mv, rating, p)
	m.probs(mv.Losses, rating, p0)
	// Each term's expectation is its own model's: t's the human model's
	// (fit on t's ingredients, the choices by their losses), D's with the
	// deeper search's bonus (fit on D); the variance is the joint model's.
	var mean0, sq float64
	for i, d := range mv.Losses {
		t := m.moveStat(d)
		mean0 += p0[i] * t
		mean += p[i] * t
		sq += p[i] * t * t
	}
	obs = m.moveStat(mv.Loss())
	if mv.HasDeep() {
		w, pd, td := m.DeepWeight, p[mv.DeepRank], m.moveStat(mv.Losses[mv.DeepRank])
		// stat = t + w·D with D = [the deep move], E[D] = pd, E[tD] = td·pd.
		mean += w * pd
		mean0 += w * pd
		sq += 2*w*td*pd + w*w*pd
		if mv.DeepAgree() {
			obs += w
		}
	}
	return obs, mean0, max(sq-mean*mean, 0)
}

// strengthStep is the step, in rating points, of strengthMoments'
// numerical derivative.
const strengthStep = 25.0

// strengthMoments returns the strength test's statistic of the played
// move of mv and its variance for a player of rating. The statistic is
// the score function of the rating, g = ∂ log p(played | R)/∂x (x the
// rating in units of 400 points), centred on its expectation: Rao's
// score test of "this player plays like a stronger one", the locally
// most powerful test against a small rise of the rating. An engine held
// far below its own strength, as the weaker levels are, still plays like
// a much stronger human; this test sees that where the score (t, with
// its deeper term) is built to see the engine's first choices. Its
// expectation is 0 for a player of rating; its variance is the Fisher
// information of the move.
func (m Model) strengthMoments(mv Move, rating float64) (obs, variance float64) {
	var a, b, c [16]float64
	n := len(mv.Losses)
	up, down, p := a[:n], b[:n], c[:n]
	m.probs(mv.Losses, rating+strengthStep, up)
	m.probs(mv.Losses, rating-strengthStep, down)
	m.probs(mv.Losses, rating, p)
	var mean, sq, played float64
	for i := range n {
		g := (math.Log(up[i]) - math.Log(down[i])) / (2 * strengthStep / 400)
		mean += p[i] * g
		sq += p[i] * g * g
		if i == mv.Rank {
			played = g
		}
	}
	return played - mean, max(sq-mean*mean, 0)
}

// Prob returns the probability that a player of rating chooses the move of
// rank i of losses.
func (m Model) Prob(losses []float64, rating float64, i int) float64 {
	var buf [16]float64
	p := buf[:len(losses)]
	m.probs(losses, rating, p)
	return p[i]
}

// moveStat returns the per-move statistic t = [best] − δ/k of a move that
// lost d stones.
func (m Model) moveStat(d float64) float64 {
	t := -d / m.LossWeight
	if d == 0 {
		t++
	}
	return t
}

// Expect returns the expected per-move statistic of the move and its
// variance, for a player of rating, with the probability that the player
// agrees with the engine's first move and the expected loss.
func (m Model) Expect(mv Move, rating float64) (mean, variance, agree, loss float64) {
	var buf [16]float64
	p := buf[:len(mv.Losses)]
	m.probs(mv.Losses, rating, p)
	sq := 0.0
	for i, d := range mv.Losses {
		t := m.moveStat(d)
		mean += p[i] * t
		sq += p[i] * t * t
		loss += p[i] * d
		if d == 0 {
			agree += p[i]
		}
	}
	return mean, max(sq-mean*mean, 0), agree, loss
}

// Verdict is the model's judgement of one side of a game (or of a set of
// sides: an event).
type Verdict struct {
	Moves    int     // judged moves
	Agree1   float64 // share agreeing with the engine's first move
	Agree3   float64 // share among its first three
	MeanLoss float64 // stones lost per judged move
	// Expected agreement and loss per move for the rating.
	ExpAgree1, ExpLoss float64
	// Deep is how many judged moves have the deeper evidence, AgreeDeep
	// the share of those agreeing with the deeper search's best move.
	Deep      int
	AgreeDeep float64
	// Score is the z-score against the expected for the rating (relative to
	// honest sides of about as many judged moves: Model.Lengths); 0
	// without judged moves.
	Score float64
	// Strength is the z-score of the strength test: whether the side
	// played like a stronger player than its rating, by the model's own
	// choice probabilities (strengthMoments), relative to honest sides of
	// about as many judged moves as Score; 0 where the model has no
	// StrengthSpread or without judged moves.
	Strength float64
	IPR      int // the rating whose expected play matches the observed
	// Flag: at least MinMoves judged moves, and Score or Strength reached
	// the threshold (the default one is set for the two together).
	Flag bool
	// Timed is how many judged moves have a time; TimeCorr is the rank
	// correlation of the time spent with the position's difficulty (0
	// without three timed moves; difficulty is the chance the model gives the
	// player of missing the engine's first move): people think longer where the position is
	// hard, a relayed engine's times do not follow it.
	Timed    int
	TimeCorr float64
}

// Judge returns the verdict about moves (the judged ones count; several
// games' moves may be passed together: the verdict of an event) for a
// player of rating, flagged at threshold.
func (m Model) Judge(moves []Move, rating, threshold float64) Verdict {
	var v Verdict
	var obs float64
	judged := make([]Move, 0, len(moves))
	for _, mv := range moves {
		if !mv.Judged() {
			continue
		}
		judged = append(judged, mv)
		d := mv.Loss()
		obs += m.moveStat(d)
		v.MeanLoss += d
		if mv.Top1() {
			v.Agree1++
		}
		if mv.Top3() {
			v.Agree3++
		}
	}
	v.Moves = len(judged)
	if v.Moves == 0 {
		v.IPR = int(math.Round(rating))
		return v
	}
	n := float64(v.Moves)
	v.Agree1, v.Agree3, v.MeanLoss = v.Agree1/n, v.Agree3/n, v.MeanLoss/n
	z := func(r float64) (float64, float64, float64) {
		var mean, variance, agree, loss float64
		for _, mv := range judged {
			a, b, c, d := m.Expect(mv, r)
			mean, variance, agree, loss = mean+a, variance+b, agree+c, loss+d
		}
		return (obs - mean) / math.Sqrt(max(variance, 1e-9)) / m.Spread, agree / n, loss / n
	}
	v.Score, v.ExpAgree1, v.ExpLoss = z(rating)
	if m.DeepWeight > 0 && slices.ContainsFunc(judged, Move.HasDeep) {
		var o, mean, variance float64
		for _, mv := range judged {
			a, b, c := m.deepMoments(mv, rating)
			o, mean, variance = o+a, mean+b, variance+c
			if mv.DeepAgree() {
				v.AgreeDeep++
			}
			if mv.HasDeep() {
				v.Deep++
			}
		}
		v.Score = (o - mean) / math.Sqrt(max(variance, 1e-9)) / m.DeepSpread
		v.AgreeDeep /= float64(max(v.Deep, 1))
	}
	if m.StrengthSpread > 0 {
		var u, variance float64
		for _, mv := range judged {
			a, b := m.strengthMoments(mv, rating)
			u, variance = u+a, variance+b
		}
		v.Strength = u / math.Sqrt(max(variance, 1e-9)) / m.StrengthSpread
	}
	b := m.lengthBin(v.Moves)
	v.Score -= b.Score
	v.Strength -= b.Strength
	v.Flag = v.Moves >= MinMoves && max(v.Score, v.Strength) >= threshold
	v.IPR = m.ipr(judged, obs)
	v.Timed, v.TimeCorr = timeCorr(judged, m, rating)
	return v
}

// ipr returns the rating whose expected statistic over moves equals obs,
// by bisection (the expectation rises with the rating), within
// MinRating..MaxRating.
func (m Model) ipr(moves []Move, obs float64) int {
	expect := func(r float64) float64 {
		s := 0.0
		for _, mv := range moves {
			a, _, _, _ := m.Expect(mv, r)
			s += a
		}
		return s
	}
	lo, hi := float64(MinRating), float64(MaxRating)
	if obs <= expect(lo) {
		return MinRating
	}
	if obs >= expect(hi) {
		return MaxRating
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if expect(mid) < obs {
			lo = mid
		} else {
			hi = mid
		}
	}
	return int(math.Round((lo + hi) / 2))
}
