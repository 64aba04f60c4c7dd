package engine

import "fmt"

// Score is from the side to move's view, in hundredths of a stone (100 = one
// stone ahead). A proven result is ±(MateScore - plies to the end): a win in
// 5 plies is MateScore-5.
type Score int32

// MateScore is the score of a game won on the spot.
const MateScore Score = 30000

// maxPly bounds the search depth in plies.
const maxPly = 128

// maxMatePlies bounds the distance of a proven result: a tablebase may
// prove endings far beyond the search's depth. Static evaluations stay
// below MateScore - maxMatePlies (see maxEval).
const maxMatePlies = 1000

// KnownWin is the score of a win a tablebase proves without its distance
// (one that stores results only). TablebaseScore makes it KnownWin minus
// the stones left on the board: among won positions the search then prefers
// the ones after captures, which bring the end and its proven distance in
// reach, to quiet moves, which can circle for ever. It lies above every
// static evaluation (maxEval) and below every proven distance, and is not
// IsMate.
const KnownWin Score = MateScore - maxMatePlies - 1

// infinity is above every score.
const infinity Score = MateScore + 1

// IsMate reports whether s is a proven win or loss.
func (s Score) IsMate() bool { return s >= MateScore-maxMatePlies || s <= -MateScore+maxMatePlies }

// MatePlies returns the plies to the proven end, negative when losing; 0 when
// not proven.
func (s Score) MatePlies() int {
	switch {
	case s >= MateScore-maxMatePlies:
		return int(MateScore - s)
	case s <= -MateScore+maxMatePlies:
		return -int(MateScore + s)
	}
	return 0
}

// String writes a proven result as "win N"/"loss N" (plies) and any other
// score in stones, "+1.25".
func (s Score) String() string {
	switch n := s.MatePlies(); {
	case n > 0 || s == MateScore:
		return fmt.Sprintf("win %d", n)
	case n < 0 || s == -MateScore:
		return fmt.Sprintf("loss %d", -n)
	}
	return fmt.Sprintf("%+.2f", float64(s)/100)
}

// IsKnownWin reports whether s is a win a tablebase proves without its
// distance (KnownWin less the stones left: above every static evaluation,
// maxEval, and not IsMate); -s for a loss.
func (s Score) IsKnownWin() bool { return s > maxEval && s <= KnownWin }

// winIn returns the score of a win ply plies from the root.
func winIn(ply int) Score { return MateScore - Score(ply) }

// lossIn returns the score of a loss ply plies from the root.
func lossIn(ply int) Score { return -MateScore + Score(ply) }

// toTT converts a score relative to the root into one relative to the node
// ply plies down, for the transposition table; fromTT undoes it.
func toTT(s Score, ply int) Score {
	switch {
	case s >= MateScore-maxMatePlies:
		return s + Score(ply)
	case s <= -MateScore+maxMatePlies:
		return s - Score(ply)
	}
	return s
}

func fromTT(s Score, ply int) Score {
	switch {
	case s >= MateScore-maxMatePlies:
		return s - Score(ply)
	case s <= -MateScore+maxMatePlies:
		return s + Score(ply)
	}
	return s
}
