package burstein

import (
	"sort"

	"github.com/toguz/toguz/internal/tournament/dutch"
)

// boards allocates the colours of each pair (5) and orders the boards
// (5.3): by the score of the pair's higher ranked player (more points,
// then the lower TPN), then the sum of the two scores, then the TPN of the
// higher ranked player; scores without virtual points.
func boards(ps []pl, pairs [][2]int, initial dutch.Colour) []dutch.Pair {
	higher := func(pr [2]int) (hi, lo *pl) {
		a, b := &ps[pr[0]], &ps[pr[1]]
		if b.Points > a.Points || (b.Points == a.Points && b.ID < a.ID) {
			return b, a
		}
		return a, b
	}
	sort.SliceStable(pairs, func(x, y int) bool {
		ha, la := higher(pairs[x])
		hb, lb := higher(pairs[y])
		if ha.Points != hb.Points {
			return ha.Points > hb.Points
		}
		if sa, sb := ha.Points+la.Points, hb.Points+lb.Points; sa != sb {
			return sa > sb
		}
		return ha.ID < hb.ID
	})
	out := make([]dutch.Pair, len(pairs))
	for k, pr := range pairs {
		hi, lo := higher(pr)
		if colourOf(hi, lo, initial) == dutch.White {
			out[k] = dutch.Pair{White: hi.ID, Black: lo.ID}
		} else {
			out[k] = dutch.Pair{White: lo.ID, Black: hi.ID}
		}
	}
	return out
}

// colourOf is the colour 5.2 gives a, paired with b; hi is the higher
// ranked by points, then TPN (5.2.1).
func colourOf(hi, lo *pl, initial dutch.Colour) dutch.Colour {
	// 5.2.1: neither has played a game: the higher ranked gets the
	// initial colour with an odd TPN, the other colour with an even one.
	if len(hi.hist) == 0 && len(lo.hist) == 0 {
		if hi.ID%2 == 1 {
			return initial
		}
		return opposite(initial)
	}
	// 5.2.2: both preferences granted.
	if hi.pref != dutch.None && lo.pref != dutch.None && hi.pref != lo.pref {
		return hi.pref
	}
	// 5.2.3: the stronger preference (a player without games has none).
	if hi.strength != lo.strength {
		if hi.strength > lo.strength {
			return hi.pref
		}
		return opposite(lo.pref)
	}
	// 5.2.4: alternate from the latest game in which they had different
	// colours, counting back over the games each played.
	for i, j := len(hi.hist)-1, len(lo.hist)-1; i >= 0 && j >= 0; i, j = i-1, j-1 {
		if hi.hist[i] != lo.hist[j] {
			return opposite(hi.hist[i])
		}
	}
	// 5.2.5: the preference of the higher ranked by 1.8.
	if ranks(hi, lo) {
		return hi.pref
	}
	return opposite(lo.pref)
}

func opposite(c dutch.Colour) dutch.Colour {
	switch c {
	case dutch.White:
		return dutch.Black
	case dutch.Black:
		return dutch.White
	}
	return dutch.White
}
