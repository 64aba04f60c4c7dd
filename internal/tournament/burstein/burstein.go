package burstein

import (
	"errors"
	"fmt"
	"math/bits"
	"sort"

	"github.com/toguz/toguz/internal/tournament"
	"github.com/toguz/toguz/internal/tournament/dutch"
)

// Player is one entrant as the pairing sees it.
type Player struct {
	// ID is the pairing number (TPN, C.04.2 initial order), > 0.
	ID int
	// Score decides the scoregroups, in half points, with any
	// acceleration's virtual points.
	Score int
	// Points is the score without virtual points, in half points: the
	// board order (5.3) uses it.
	Points int
	// Buchholz (1.7.1.1), in half points, and Sonneborn-Berger (1.7.1.2),
	// in quarter points: the Index that ranks the players (1.8).
	Buchholz, SonnebornBerger int
	// Games is the number of games played over the board (3.1.4).
	Games int
	// Colours has one entry per past round: the colour played, or
	// dutch.None when the player did not play a game that round.
	Colours []dutch.Colour
	// Opponents are the IDs of the players met over the board (C1).
	Opponents []int
	// ByeReceived: the player had the pairing-allocated bye, or scored a
	// win's points in one round without playing (C2).
	ByeReceived bool
	// Absent players are not paired this round.
	Absent bool
}

// Input is a round to pair.
type Input struct {
	Round         int // the round to pair, from 1
	InitialColour dutch.Colour
	Players       []Player
}

// ErrNoPairing is returned when no pairing of the round complies with the
// absolute criteria C1-C3 (C4 cannot be met).
var ErrNoPairing = fmt.Errorf("burstein: %w C1-C3", tournament.ErrUnpairable)

// errTooWide: the criteria's weights of one bracket do not fit 58 bits
// (incoming floaters from very many scoregroups at once).
var errTooWide = errors.New("burstein: a bracket's criteria do not fit the matching's weights")

// Strength of a colour preference (1.5).
const (
	prefNone = iota
	prefMild
	prefStrong
	prefAbsolute
)

// pl is a player ready for pairing.
type pl struct {
	Player
	hist     []dutch.Colour // the colours of the games played, in order
	cd       int            // whites minus blacks
	pref     dutch.Colour
	strength int
	met      map[int]bool
}

// ranks reports whether a ranks above b by 1.8: the Index (Buchholz, then
// Sonneborn-Berger, higher first), then the TPN, lower first.
func ranks(a, b *pl) bool {
	if a.Buchholz != b.Buchholz {
		return a.Buchholz > b.Buchholz
	}
	if a.SonnebornBerger != b.SonnebornBerger {
		return a.SonnebornBerger > b.SonnebornBerger
	}
	return a.ID < b.ID
}

func newPl(p Player) pl {
	x := pl{Player: p, met: map[int]bool{}}
	for _, o := range p.Opponents {
		x.met[o] = true
	}
	for _, c := range p.Colours {
		switch c {
		case dutch.White:
			x.cd++
		case dutch.Black:
			x.cd--
		default:
			continue
		}
		x.hist = append(x.hist, c)
	}
	n := len(x.hist)
	if n == 0 {
		return x
	}
	last := x.hist[n-1]
	switch {
	case x.cd > 0:
		x.pref = dutch.Black
	case x.cd < 0:
		x.pref = dutch.White
	case last == dutch.White:
		x.pref = dutch.Black
	default:
		x.pref = dutch.White
	}
	switch {
	case x.cd > 1 || x.cd < -1 || (n >= 2 && x.hist[n-2] == last):
		x.strength = prefAbsolute
	case x.cd != 0:
		x.strength = prefStrong
	default:
		x.strength = prefMild
	}
	return x
}

// compatible is C1 and C3: not met before, not both with the same
// absolute colour preference.
func compatible(a, b *pl) bool {
	if a.met[b.ID] || b.met[a.ID] {
		return false
	}
	return !(a.strength == prefAbsolute && b.strength == prefAbsolute && a.pref == b.pref)
}

// PairRound pairs one round by the Burstein rules after the seeding rounds
// (1.6, which the caller pairs by the Dutch system): the bye first (3.1),
// then the brackets from the highest score down (3.2), each the first
// pairing in the order of 4 that complies best with C5-C8, within complete
// pairings of the round (C4), then the colours (5) and the boards' order.
func PairRound(in Input) (dutch.Pairing, error) {
	if in.Round < 1 {
		return dutch.Pairing{}, fmt.Errorf("burstein: round %d", in.Round)
	}
	seen := map[int]bool{}
	var ps []pl
	for _, p := range in.Players {
		if p.ID <= 0 {
			return dutch.Pairing{}, fmt.Errorf("burstein: player ID %d: must be > 0", p.ID)
		}
		if seen[p.ID] {
			return dutch.Pairing{}, fmt.Errorf("burstein: player ID %d twice", p.ID)
		}
		seen[p.ID] = true
		if !p.Absent {
			ps = append(ps, newPl(p))
		}
	}
	var out dutch.Pairing
	if len(ps) == 0 {
		return out, nil
	}
	// Score first, then 1.8: the brackets come out in this order.
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].Score != ps[j].Score {
			return ps[i].Score > ps[j].Score
		}
		return ranks(&ps[i], &ps[j])
	})
	n := len(ps)
	ok := make([][]bool, n)
	for i := range ok {
		ok[i] = make([]bool, n)
		for j := range ok[i] {
			ok[i][j] = i != j && compatible(&ps[i], &ps[j])
		}
	}
	left := make([]int, n)
	for i := range left {
		left[i] = i
	}
	bye := -1
	if n%2 == 1 {
		bye = chooseBye(ps, ok)
		if bye < 0 {
			return dutch.Pairing{}, ErrNoPairing
		}
		left = remove(left, bye)
		out.Bye = ps[bye].ID
	} else if !perfect(left, ok) {
		return dutch.Pairing{}, ErrNoPairing
	}
	var pairs [][2]int
	for s := -1; len(left) > 0; {
		res, low := brackets(ps, left, s)
		s = ps[res[0]].Score
		for _, i := range res {
			s = min(s, ps[i].Score)
		}
		got, err := pairBracket(ps, ok, left, res, low)
		if err != nil {
			return dutch.Pairing{}, err
		}
		for _, pr := range got {
			pairs = append(pairs, pr)
			left = remove(remove(left, pr[0]), pr[1])
		}
	}
	out.Pairs = boards(ps, pairs, in.InitialColour)
	return out, nil
}

func remove(s []int, x int) []int {
	out := make([]int, 0, len(s))
	for _, v := range s {
		if v != x {
			out = append(out, v)
		}
	}
	return out
}

// perfect reports whether the players can all be paired (C4).
func perfect(set []int, ok [][]bool) bool {
	if len(set)%2 == 1 {
		return false
	}
	var es []dutch.MatchEdge
	for a := range set {
		for b := a + 1; b < len(set); b++ {
			if ok[set[a]][set[b]] {
				es = append(es, dutch.MatchEdge{I: a, J: b, W: 1})
			}
		}
	}
	mate := dutch.MaxWeightMatching(len(set), es, true)
	for _, m := range mate {
		if m < 0 {
			return false
		}
	}
	return true
}

// chooseBye is 3.1: among the players who may get the bye (C2) and leave a
// complete pairing of the others (C4), the lowest score, then the most
// games played, then the lowest ranking (1.8).
func chooseBye(ps []pl, ok [][]bool) int {
	var cand []int
	for i := range ps {
		if !ps[i].ByeReceived {
			cand = append(cand, i)
		}
	}
	sort.Slice(cand, func(x, y int) bool {
		a, b := &ps[cand[x]], &ps[cand[y]]
		if a.Score != b.Score {
			return a.Score < b.Score
		}
		if a.Games != b.Games {
			return a.Games > b.Games
		}
		return ranks(b, a)
	})
	all := make([]int, len(ps))
	for i := range all {
		all[i] = i
	}
	for _, c := range cand {
		if perfect(remove(all, c), ok) {
			return c
		}
	}
	return -1
}

// layout is the criteria's places in an edge's weight: each field's
// lowest bit.
type layout struct {
	// ordW is the width of one resident's field of the order of 4; the
	// fields of group residents at once lie at the bottom, the first
	// resident's highest.
	ordW, group     int
	c8, c7pairs, c5 int
	c7lvl, c6lvl    map[int]int // score -> lowest bit of its field
}

func width(n int) int { return bits.Len(uint(n)) }

// pairBracket pairs the bracket res (its order is 1.8's) and returns its
// pairs; the residents it leaves float to the next bracket, low.
//
// Every edge between two compatible players of left has a weight, each
// criterion a field of bits from C5 (highest) down to the order of 4
// (lowest), and a maximum-weight matching of maximum cardinality is a
// complete pairing of the round (C4) that complies best with C5-C8. The
// order of 4 then decides among the best: resident by resident in the
// bracket's order, the edges to the residents below him get a weight that
// grows with their BSN (a float gets none), the matching is computed again
// and his partner (or float) is fixed.
func pairBracket(ps []pl, ok [][]bool, left, res, low []int) ([][2]int, error) {
	if len(res) == 0 {
		return nil, nil
	}
	lay, err := newLayout(ps, res, low)
	if err != nil {
		return nil, err
	}
	role := map[int]int{} // 2 resident, 1 next bracket
	bsn := map[int]int{}
	for k, i := range res {
		role[i] = 2
		bsn[i] = k + 1
	}
	for _, i := range low {
		role[i] = 1
	}
	base := func(a, b int) int64 {
		pa, pb := &ps[a], &ps[b]
		var w int64
		ra, rb := role[a], role[b]
		if ra == 2 && rb == 2 {
			w |= 1 << lay.c5
			if f, ok := lay.c6lvl[pa.Score]; ok {
				w += 1 << f
			}
			if f, ok := lay.c6lvl[pb.Score]; ok {
				w += 1 << f
			}
			if !(pa.pref != dutch.None && pa.pref == pb.pref) {
				w += 1 << lay.c8
			}
		}
		if ra > 0 && rb > 0 && (ra == 1 || rb == 1) {
			w += 1 << lay.c7pairs
			if ra == 2 {
				w += 1 << lay.c7lvl[pa.Score]
			}
			if rb == 2 {
				w += 1 << lay.c7lvl[pb.Score]
			}
		}
		return w
	}
	alive := map[int]bool{}
	for _, i := range left {
		alive[i] = true
	}
	floats := map[int]bool{} // residents fixed as floaters
	var pairs [][2]int
	for k := 0; k < len(res); {
		// The next group of residents not yet fixed, in BSN order.
		var group []int
		gi := map[int]int{} // resident -> lowest bit of his order field
		for ; k < len(res) && len(group) < lay.group; k++ {
			if i := res[k]; alive[i] && !floats[i] {
				gi[i] = (lay.group - 1 - len(group)) * lay.ordW
				group = append(group, i)
			}
		}
		if len(group) == 0 {
			break
		}
		idx := map[int]int{}
		var verts []int
		for _, v := range left {
			if alive[v] {
				idx[v] = len(verts)
				verts = append(verts, v)
			}
		}
		var es []dutch.MatchEdge
		for x, a := range verts {
			for y := x + 1; y < len(verts); y++ {
				b := verts[y]
				if !ok[a][b] {
					continue
				}
				if (floats[a] && role[b] == 2) || (floats[b] && role[a] == 2) {
					continue // a floater leaves the bracket unpaired
				}
				w := base(a, b)
				if role[a] == 2 && role[b] == 2 {
					hi, lo := a, b
					if bsn[lo] < bsn[hi] {
						hi, lo = lo, hi
					}
					if off, in := gi[hi]; in {
						w += int64(bsn[lo]-bsn[hi]) << off
					}
				}
				es = append(es, dutch.MatchEdge{I: x, J: y, W: w})
			}
		}
		mate := dutch.MaxWeightMatching(len(verts), es, true)
		for _, m := range mate {
			if m < 0 {
				return nil, ErrNoPairing // cannot happen: C4 was checked
			}
		}
		for _, i := range group {
			if !alive[i] {
				continue // paired by a resident above him in the group
			}
			m := verts[mate[idx[i]]]
			if role[m] == 2 {
				pairs = append(pairs, [2]int{i, m})
				delete(alive, i)
				delete(alive, m)
				continue
			}
			floats[i] = true
		}
	}
	return pairs, nil
}

// brackets returns the next bracket after the one of score prev (-1 for
// the first): its residents (1.2: the highest scoregroup left below prev
// and the floaters from above, everyone left above it), in the order of
// 1.8, and the players of the scoregroup after it (C7).
func brackets(ps []pl, left []int, prev int) (res, low []int) {
	s := -1
	for _, i := range left {
		if sc := ps[i].Score; (prev < 0 || sc < prev) && sc > s {
			s = sc
		}
	}
	if s < 0 { // only floaters left: they are the last bracket
		s = prev
	}
	next := -1
	for _, i := range left {
		if sc := ps[i].Score; sc < s && sc > next {
			next = sc
		}
	}
	for _, i := range left {
		switch sc := ps[i].Score; {
		case sc >= s:
			res = append(res, i)
		case sc == next:
			low = append(low, i)
		}
	}
	sort.SliceStable(res, func(x, y int) bool { return ranks(&ps[res[x]], &ps[res[y]]) })
	return res, low
}

// newLayout places the criteria's fields in an edge's weight, lowest
// first: the order of 4 (a BSN difference per resident, for as many
// residents at once as the bits allow), C8 (pairs where both get their
// colour preference), C7 (the next bracket's pairs, then its floaters'
// scores: a field per score of the residents, the highest above), C6 (the
// residents paired, a field per score of the incoming floaters, the
// highest above), C5 (the pairs).
func newLayout(ps []pl, res, low []int) (layout, error) {
	const maxBits = 58
	cnt := map[int]int{}
	for _, i := range res {
		cnt[ps[i].Score]++
	}
	var scores []int
	for s := range cnt {
		scores = append(scores, s)
	}
	sort.Ints(scores)
	l := layout{c7lvl: map[int]int{}, c6lvl: map[int]int{}, ordW: width(len(res))}
	at := 0
	l.c8 = at
	at += width(len(res)/2 + 1)
	for _, s := range scores {
		l.c7lvl[s] = at
		at += width(cnt[s])
	}
	l.c7pairs = at
	at += width(len(low) + 1)
	// The bracket's own score needs no field: with C5's pairs fixed, the
	// residents it pairs are those the other fields leave.
	for _, s := range scores[1:] {
		l.c6lvl[s] = at
		at += width(cnt[s])
	}
	l.c5 = at
	at += width(len(res)/2 + 1)
	if at+l.ordW > maxBits {
		return l, errTooWide
	}
	l.group = max(1, min(len(res), (maxBits-at)/l.ordW))
	// The order's fields go below the others.
	shift := l.group * l.ordW
	l.c8 += shift
	l.c7pairs += shift
	l.c5 += shift
	for s := range l.c7lvl {
		l.c7lvl[s] += shift
	}
	for s := range l.c6lvl {
		l.c6lvl[s] += shift
	}
	return l, nil
}
