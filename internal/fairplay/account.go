package fairplay

import (
	"math"
	"slices"

	"github.com/toguz/toguz/internal/game"
)

// Account-level constants.
const (
	// NearPerfect is the score from which a game counts as near-perfect
	// for its player's rating: a human game scores that high about once in
	// 160 (one-sided normal tail of 2.5).
	NearPerfect = 2.5
	// JumpGames is the window of recent games whose strength is compared
	// with the account's earlier games.
	JumpGames = 5
)

// AccountEvidence is the engine evidence accumulated over an account's
// judged games (the rows with at least MinMoves judged moves). How a
// moderator reads it:
//
//   - Combined is the Stouffer z of the games' scores (Σ score / √games):
//     for an honest player about N(0, 1) whatever the number of games, so
//     3 is rare and 5 is next to impossible without help. Strength is
//     the same over the games' strength tests (game.FairPlay.Strength).
//     Flag says either reached the model's threshold. Read them first;
//     the queue sorts by the larger.
//   - Run is the longest run of consecutive near-perfect games (score at
//     least NearPerfect); an honest player has a run of 2 about once in
//     25,000 pairs of games.
//   - Jump is the z of the last JumpGames games' scores against the
//     earlier games' (positive: recent play much stronger than before);
//     IPRGain is the same in rating points (mean IPR minus rating, recent
//     minus earlier). A jump with an unchanged rating is a player who
//     started getting help.
//   - RatedGap is the z of the rated games' scores against the casual
//     games' (positive: stronger when it counts); 0 without both kinds.
//   - TimeZ is the combined z of the correlations of move times with
//     difficulty (Fisher's z per game): people think longer in hard
//     positions, so an honest account is positive; a strong account with a
//     TimeZ near zero or below moves at the pace of a relay, not of its
//     thoughts. 0 without timed games. It is not calibrated on human data
//     (the shared games have no clocks): weigh it, never act on it alone.
//
// No single number is a verdict: a moderator reads the games.
type AccountEvidence struct {
	Games    int
	Combined float64
	Strength float64
	Flag     bool
	Run      int
	Jump     float64
	IPRGain  float64
	RatedGap float64
	Timed    int // games with timed moves
	TimeZ    float64
}

// Account returns the evidence of an account's rows (in any order; the
// games are put in the order they were judged), flagged at threshold.
func Account(rows []game.FairPlay, threshold float64) AccountEvidence {
	var g []game.FairPlay
	for _, r := range rows {
		if r.Moves >= MinMoves {
			g = append(g, r)
		}
	}
	slices.SortStableFunc(g, func(a, b game.FairPlay) int { return a.Computed.Compare(b.Computed) })
	var ev AccountEvidence
	ev.Games = len(g)
	if ev.Games == 0 {
		return ev
	}
	scores, strengths := make([]float64, len(g)), make([]float64, len(g))
	run := 0
	var rated, casual []float64
	var timeSum float64
	for i, r := range g {
		scores[i], strengths[i] = r.Score, r.Strength
		if r.Score >= NearPerfect {
			run++
			ev.Run = max(ev.Run, run)
		} else {
			run = 0
		}
		if r.Rated {
			rated = append(rated, r.Score)
		} else {
			casual = append(casual, r.Score)
		}
		if r.Timed > 3 {
			rho := min(max(r.TimeCorr, -0.999), 0.999)
			timeSum += math.Atanh(rho) * math.Sqrt(float64(r.Timed-3))
			ev.Timed++
		}
	}
	ev.Combined, ev.Strength = Stouffer(scores), Stouffer(strengths)
	ev.Flag = max(ev.Combined, ev.Strength) >= threshold
	if n := len(g); n > JumpGames {
		recent, earlier := g[n-JumpGames:], g[:n-JumpGames]
		ev.Jump = gap(scores[n-JumpGames:], scores[:n-JumpGames])
		gain := func(rs []game.FairPlay) float64 {
			s := 0.0
			for _, r := range rs {
				s += float64(r.IPR - r.Rating)
			}
			return s / float64(len(rs))
		}
		ev.IPRGain = gain(recent) - gain(earlier)
	}
	if len(rated) > 0 && len(casual) > 0 {
		ev.RatedGap = gap(rated, casual)
	}
	if ev.Timed > 0 {
		ev.TimeZ = timeSum / math.Sqrt(float64(ev.Timed))
	}
	return ev
}

// Evidence is the account's place in the moderators' queue: the larger of
// its two combined scores.
func (ev AccountEvidence) Evidence() float64 { return max(ev.Combined, ev.Strength) }

// Stouffer returns the combined z of independent z-scores.
func Stouffer(zs []float64) float64 {
	if len(zs) == 0 {
		return 0
	}
	s := 0.0
	for _, z := range zs {
		s += z
	}
	return s / math.Sqrt(float64(len(zs)))
}

// gap returns the z of the difference of the means of two sets of scores
// that are N(0, 1) each under the honest model.
func gap(a, b []float64) float64 {
	mean := func(xs []float64) float64 {
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s / float64(len(xs))
	}
	return (mean(a) - mean(b)) / math.Sqrt(1/float64(len(a))+1/float64(len(b)))
}
