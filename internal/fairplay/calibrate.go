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
	fmt.Fprintf(log, "fit on %d sides (%d judged at least %d moves); highest score %.2f; normal 1/1000 tail %.2f; threshold %.1f\n",
		len(train), len(zs), MinMoves, top, -normalQuantile(Tail), m.Threshold)
	return m, m.valid()
}

// threshold returns the default threshold for a fit whose highest side
// scored top: the score a normal distribution exceeds with probability
// Tail, or top plus a margin, whichever is higher, rounded up.
func threshold(top float64) float64 {
	return math.Ceil(max(-normalQuantile(Tail), top+0.25)*10) / 10
}

// CalibrateDeep returns m with the deeper term of weight w: its
// DeepSpread measured on fit (records the model was fit on, with the
// deeper evidence: Deepener), and the threshold raised if a fit side's
// score with the term needs it. It writes what it did to log.
func CalibrateDeep(m Model, fit []Record, w float64, log io.Writer) (Model, error) {
	m.DeepWeight, m.DeepSpread = w, 1
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
	fmt.Fprintf(log, "deeper term of weight %g: bonus %.3f where it is the first at the evidence's depth, %.3f where not; spread %.3f on %d sides (%d games); highest score %.2f; threshold %.1f\n",
		w, m.DeepBonus, m.DeepBonusOther, sd, len(zs), len(fit), top, m.Threshold)
	return m, m.valid()
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
