package fairplay

import (
	"fmt"
	"io"
	"math"
	"slices"
)

// Split returns the records of recs the fit may see and the held-out ones.
func Split(recs []Record) (fit, held []Record) {
	for _, r := range recs {
		if r.HeldOut() {
			held = append(held, r)
		} else {
			fit = append(fit, r)
		}
	}
	return fit, held
}

// Tail is the share of human sides the default threshold aims to flag at
// most: one in a thousand.
const Tail = 0.001

// FitCorpus fits the model on the rated records the split lets it see
// and chooses its default threshold: the score a normal distribution
// exceeds with probability Tail, or the highest score of the fit's own sides
// plus a margin, whichever is higher, so that the fit's sides are never
// flagged. It writes what it did to log.
func FitCorpus(recs []Record, log io.Writer) (Model, error) {
	fit, _ := Split(recs)
	train := Samples(fit)
	const k = 10
	m, err := Fit(train, k, 1)
	if err != nil {
		return m, err
	}
	var zs []float64
	for _, s := range train {
		if v := m.Judge(s.Moves, s.Rating, math.Inf(1)); v.Moves >= MinMoves {
			zs = append(zs, v.Score)
		}
	}
	top := slices.Max(zs)
	m.Threshold = threshold(top)
	site := 0
	for _, r := range fit {
		for _, rating := range r.Ratings {
			if r.File == SiteFile && rating > 0 {
				site++
			}
		}
	}
	fmt.Fprintf(log, "fit on %d sides, %d of them of the site's games (%d judged at least %d moves); highest score %.2f; normal 1/1000 tail %.2f; threshold %.2f\n",
		len(train), site, len(zs), MinMoves, top, -normalQuantile(Tail), m.Threshold)
	return calibrateStrength(m, train, true, log)
}

// calibrateStrength returns m with the strength test: where spread is
// set, its StrengthSpread measured on the sides of train; and the
// threshold of the two scores together, measured on train's sides (those
// with the deeper evidence where the model has the deeper term): a side
// is flagged when either reaches it, so it is the one that the larger of
// two normal scores, correlated as the two are on train, exceeds with
// probability Tail (or the highest of train's sides plus a margin,
// whichever is higher). Before the correlation and the threshold it
// measures the length bins of train's sides (lengthBins), which both
// scores are then taken relative to. It is run again after the deeper
// term's calibration, whose score is the one the strength test then
// stands beside.
func calibrateStrength(m Model, train []Sample, spread bool, log io.Writer) (Model, error) {
	if spread {
		m.StrengthSpread = 1
	}
	m.Lengths = [LengthQuarters]LengthBin{}
	var scores, strengths []float64
	var moves []int
	for _, s := range train {
		v := m.Judge(s.Moves, s.Rating, math.Inf(1))
		if v.Moves < MinMoves || m.DeepWeight > 0 && v.Deep == 0 {
			continue
		}
		scores, strengths = append(scores, v.Score), append(strengths, v.Strength)
		moves = append(moves, v.Moves)
	}
	if len(scores) < 30 {
		return m, fmt.Errorf("fairplay: %d sides to calibrate the strength test on, want at least 30", len(scores))
	}
	mean, sd := meanSD(strengths)
	if spread {
		m.StrengthSpread = sd
		for i := range strengths {
			strengths[i] /= sd
		}
		mean /= sd
	}
	m.Lengths = lengthBins(moves, scores, strengths)
	for i, n := range moves {
		b := m.lengthBin(n)
		scores[i] -= b.Score
		strengths[i] -= b.Strength
	}
	top := max(slices.Max(scores), slices.Max(strengths))
	rho := correlation(scores, strengths)
	tail := unionQuantile(Tail, rho)
	m.Threshold = max(m.Threshold, thresholdAt(tail, top))
	what := "sides"
	if m.DeepWeight > 0 {
		what = "sides with the deeper evidence"
	}
	fit := fmt.Sprintf("%d %s: correlation with the score %.3f, the larger of the two exceeds %.2f with probability %g; highest of the two %.2f",
		len(scores), what, rho, tail, Tail, top)
	fit += "; by judged moves from"
	for _, b := range m.Lengths {
		if b.From == 0 {
			break
		}
		fit += fmt.Sprintf(" %d (mean score %.2f, strength %.2f)", b.From, b.Score, b.Strength)
	}
	if spread {
		m.StrengthFit = fmt.Sprintf("spread on %d sides (mean z %.3f after it); %s", len(scores), mean, fit)
	} else {
		m.StrengthFit += "; " + fit
	}
	fmt.Fprintf(log, "strength test: spread %.3f; %s; threshold %.2f\n", m.StrengthSpread, fit, m.Threshold)
	return m, m.valid()
}

// LengthQuarters is how many ranges of judged moves Model.Lengths has:
// quarters of the fit's sides.
const LengthQuarters = 4

// lengthBins returns the fit sides' mean score and strength test in each
// quarter of them by judged moves (moves[i] the judged moves of the side
// of scores[i] and strengths[i]); the first bin starts at MinMoves.
func lengthBins(moves []int, scores, strengths []float64) [LengthQuarters]LengthBin {
	sorted := slices.Clone(moves)
	slices.Sort(sorted)
	var bins [LengthQuarters]LengthBin
	bins[0].From = MinMoves
	n := 1
	for q := 1; q < LengthQuarters; q++ {
		// A bin holds its From's sides: past the first, From is a side's;
		// the first must not end before its first side.
		if from := sorted[q*len(sorted)/LengthQuarters]; from > max(bins[n-1].From, sorted[0]) {
			bins[n].From = from
			n++
		}
	}
	var counts [LengthQuarters]int
	for i, mv := range moves {
		j := lengthIndex(&bins, mv)
		bins[j].Score += scores[i]
		bins[j].Strength += strengths[i]
		counts[j]++
	}
	for j := range n { // every bin in use holds a side (above)
		bins[j].Score /= float64(counts[j])
		bins[j].Strength /= float64(counts[j])
	}
	return bins
}

// correlation returns Pearson's correlation of xs and ys (of one length).
func correlation(xs, ys []float64) float64 {
	mx, sx := meanSD(xs)
	my, sy := meanSD(ys)
	c := 0.0
	for i := range xs {
		c += (xs[i] - mx) * (ys[i] - my)
	}
	return c / float64(len(xs)) / (sx * sy)
}

// unionQuantile returns t with P(max(Z₁, Z₂) ≥ t) = p for standard normal
// Z₁, Z₂ of correlation rho: P(Z₁ ≥ t) + P(Z₂ ≥ t) − P(both), the last
// ∫ₜ^∞ φ(x)·Q((t − ρx)/√(1 − ρ²)) dx (Q the upper tail) by Simpson's rule,
// t by bisection between the one-score quantile and Bonferroni's.
func unionQuantile(p, rho float64) float64 {
	q := func(x float64) float64 { return math.Erfc(x/math.Sqrt2) / 2 }
	phi := func(x float64) float64 { return math.Exp(-x*x/2) / math.Sqrt(2*math.Pi) }
	rho = min(max(rho, -0.999), 0.999)
	r := math.Sqrt(1 - rho*rho)
	tail := func(t float64) float64 {
		const n, width = 2000, 10.0
		h := width / n
		both := 0.0
		for i := 0; i <= n; i++ {
			x := t + float64(i)*h
			w := 2.0
			switch {
			case i == 0 || i == n:
				w = 1
			case i%2 == 1:
				w = 4
			}
			both += w * phi(x) * q((t-rho*x)/r)
		}
		return 2*q(t) - both*h/3
	}
	lo, hi := -normalQuantile(p), -normalQuantile(p/2)
	for range 60 {
		mid := (lo + hi) / 2
		if tail(mid) > p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// threshold returns the default threshold for a fit whose highest side
// scored top: the score a normal distribution exceeds with probability
// Tail, or top plus a margin, whichever is higher, rounded up to the
// hundredth (to the tenth it would give up a tenth of a z for nothing).
func threshold(top float64) float64 { return thresholdAt(-normalQuantile(Tail), top) }

// thresholdAt returns the higher of tail and top plus a margin, rounded up
// to the hundredth.
func thresholdAt(tail, top float64) float64 {
	return math.Ceil(max(tail, top+0.25)*100) / 100
}

// CalibrateDeep returns m with the deeper term of weight w: its
// DeepSpread measured on fit (records the model was fit on, with the
// deeper evidence: Deepener), and the threshold raised if a fit side's
// score with the term needs it. It writes what it did to log.
func CalibrateDeep(m Model, fit []Record, w float64, log io.Writer) (Model, error) {
	m.DeepWeight, m.DeepSpread = w, 1
	m.Lengths = [LengthQuarters]LengthBin{} // measured again beside the new score (calibrateStrength)
	// The bonus of maximum likelihood of the played moves with the deeper
	// evidence.
	type obs struct {
		mv     Move
		rating float64
	}
	var data []obs
	for _, s := range Samples(fit) {
		for _, mv := range s.Moves {
			if mv.Judged() && mv.HasDeep() {
				data = append(data, obs{mv, s.Rating})
			}
		}
	}
	if len(data) < 100 {
		return m, fmt.Errorf("fairplay: %d judged moves with the deeper evidence to fit on, want at least 100", len(data))
	}
	nll := func(th []float64) float64 {
		e := m
		e.DeepBonus, e.DeepBonusOther = th[0], th[1]
		total := 0.0
		var buf [16]float64
		for _, o := range data {
			p := buf[:len(o.mv.Losses)]
			e.deepProbs(o.mv, o.rating, p)
			// The played move: the deeper search's, or one of its tie's
			// others (they share the tie's probability but the bonus).
			i := o.mv.Rank
			switch {
			case o.mv.DeepAgree():
				i = o.mv.DeepRank
			case i == o.mv.DeepRank:
				i++ // another of the deeper search's move's tie: no bonus
			}
			total -= math.Log(max(p[i], 1e-300))
		}
		return total
	}
	th := nelderMead(nll, []float64{0, 0}, []float64{0.3, 0.2}, 500)
	m.DeepBonus, m.DeepBonusOther = th[0], th[1]
	var zs []float64
	for _, s := range Samples(fit) {
		if v := m.Judge(s.Moves, s.Rating, math.Inf(1)); v.Moves >= MinMoves && v.Deep > 0 {
			zs = append(zs, v.Score)
		}
	}
	if len(zs) < 30 {
		return m, fmt.Errorf("fairplay: %d sides with the deeper evidence to calibrate on, want at least 30", len(zs))
	}
	mean, sd := meanSD(zs)
	m.DeepSpread = sd
	top := slices.Max(zs) / sd
	m.Threshold = max(m.Threshold, threshold(top))
	m.DeepFit = fmt.Sprintf("%d judged moves of %d sides of %d games; mean z %.3f before the spread; highest score %.2f", len(data), len(zs), len(fit), mean, top)
	fmt.Fprintf(log, "deeper term of weight %g: bonus %.3f where it is the first at the evidence's depth, %.3f where not; spread %.3f on %d sides (%d games); highest score %.2f; threshold %.2f\n",
		w, m.DeepBonus, m.DeepBonusOther, sd, len(zs), len(fit), top, m.Threshold)
	if m.StrengthSpread == 0 {
		return m, m.valid()
	}
	// The strength test stands beside the score with its deeper term now:
	// their correlation, and so the threshold of the two, are measured again
	// on the sides with the deeper evidence; its spread stays the one of
	// all the fit's sides (it does not use the deeper evidence).
	return calibrateStrength(m, Samples(fit), false, log)
}

// normalQuantile returns the p-quantile of the standard normal
// distribution (Acklam's rational approximation, about 1e-9 relative).
func normalQuantile(p float64) float64 {
	a := []float64{-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00}
	b := []float64{-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01}
	c := []float64{-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00}
	d := []float64{7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00}
	switch {
	case p < 0.02425:
		q := math.Sqrt(-2 * math.Log(p))
		return (((((c[0]*q+c[1])*q+c[2])*q+c[3])*q+c[4])*q + c[5]) / ((((d[0]*q+d[1])*q+d[2])*q+d[3])*q + 1)
	case p > 1-0.02425:
		return -normalQuantile(1 - p)
	}
	q := p - 0.5
	r := q * q
	return (((((a[0]*r+a[1])*r+a[2])*r+a[3])*r+a[4])*r + a[5]) * q / (((((b[0]*r+b[1])*r+b[2])*r+b[3])*r+b[4])*r + 1)
}
