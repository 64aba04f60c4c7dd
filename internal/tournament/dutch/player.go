package dutch

import "sort"

// Strength of a colour preference (1.6 / A.6).
const (
	prefNone = iota
	prefMild
	prefStrong
	prefAbsolute
)

// pl is a player ready for pairing, ranked by 1.2: score, then pairing number.
type pl struct {
	id       int
	score    int
	hist     []Colour // per round, None where not played
	cd       int      // colour difference: whites minus blacks
	pref     Colour   // None when no preference
	strength int
	f1, f2   Float // float of the previous round and of two rounds before
	top      bool  // topscorer (1.7), only when pairing the last round
	byeOK    bool  // may get the bye (C2)
	unplayed int   // rounds without a game (C9)
	tpn      int   // the pairing number E.5 uses
}

type engine struct {
	in     Input
	ps     []pl     // sorted by rank
	compat [][]bool // absolute criteria C1 and C3 between two players
	k      int      // histogram width for score differences
	st     *Stats
	memoC  map[string]bool
	// c7Work is what is left of the round's budget for the matchings of
	// C7/C8 within complete pairings, in vertices cubed (their cost's order).
	c7Work int64
	// nodeWork is the same budget for the bounds of nodeC7.
	nodeWork int64
	// exhaustive turns the pruning off (tests compare both searches).
	exhaustive bool
	// noNodeBound turns nodeC7's bounds off (tests compare with and without).
	noNodeBound bool
	// assignAfter is the count of a bracket search's nodes after which
	// the remainder's nodes are bounded by an assignment (assign.go).
	assignAfter int
	// assignWork is what is left of the round's budget for those
	// assignments (assignWorkBudget).
	assignWork int64
	// byeScore is the score of the pairing-allocated bye's receiver (the
	// lowest score that completes the round, restrictBye), -1 when none.
	byeScore int
}

func newEngine(in Input) *engine {
	e := &engine{in: in, memoC: map[string]bool{}, c7Work: c7WorkBudget, nodeWork: nodeWorkBudget, assignAfter: assignAfterNodes, assignWork: assignWorkBudget, byeScore: -1}
	var src []Player
	for _, p := range in.Players {
		if !p.Absent {
			src = append(src, p)
		}
	}
	// E.5's numbers: the rank by ID among the players paired now or before.
	tpn := map[int]int{}
	{
		var ids []int
		for _, p := range in.Players {
			if !p.Absent || p.PairedBefore {
				ids = append(ids, p.ID)
			}
		}
		sort.Ints(ids)
		for i, id := range ids {
			tpn[id] = i + 1
		}
	}
	sort.SliceStable(src, func(i, j int) bool {
		if src[i].Score != src[j].Score {
			return src[i].Score > src[j].Score
		}
		return src[i].ID < src[j].ID
	})
	last := in.Rounds > 0 && in.Round >= in.Rounds
	maxScore := 2 * (in.Round - 1)
	e.ps = make([]pl, len(src))
	idx := map[int]int{}
	for i, p := range src {
		q := pl{id: p.ID, score: p.Score, hist: p.Colours, byeOK: !p.ByeReceived, tpn: tpn[p.ID]}
		q.cd, q.pref, q.strength = preference(p.Colours)
		if n := len(p.Floats); n >= 1 {
			q.f1 = p.Floats[n-1]
			if n >= 2 {
				q.f2 = p.Floats[n-2]
			}
		}
		// 1.7: topscorers are over 50% of the maximum possible score when
		// the final round is paired.
		q.top = last && 2*p.Score > maxScore
		played := 0
		for _, c := range p.Colours {
			if c != None {
				played++
			}
		}
		q.unplayed = in.Round - 1 - played
		e.ps[i] = q
		idx[p.ID] = i
	}
	n := len(src)
	e.compat = make([][]bool, n)
	for i := range e.compat {
		e.compat[i] = make([]bool, n)
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			ok := true
			a, b := &e.ps[i], &e.ps[j]
			// C3: non-topscorers with the same absolute colour preference
			// shall not meet.
			if a.strength == prefAbsolute && b.strength == prefAbsolute && a.pref == b.pref && !a.top && !b.top {
				ok = false
			}
			e.compat[i][j], e.compat[j][i] = ok, ok
		}
	}
	// C1: no rematch.
	for _, p := range src {
		i := idx[p.ID]
		for _, o := range p.Opponents {
			if j, ok := idx[o]; ok {
				e.compat[i][j], e.compat[j][i] = false, false
			}
		}
	}
	e.k = 2*in.Round + 4
	return e
}

// preference computes the colour difference and preference of 1.6 (A.6):
// absolute when |CD| > 1 or the last two games had the same colour; strong
// when |CD| = 1; mild (alternate the last colour) when CD = 0; none for a
// player who has not played yet.
func preference(h []Colour) (cd int, pref Colour, strength int) {
	var played []Colour
	for _, c := range h {
		switch c {
		case White:
			cd++
			played = append(played, c)
		case Black:
			cd--
			played = append(played, c)
		}
	}
	n := len(played)
	switch {
	case n == 0:
		return 0, None, prefNone
	case cd > 1:
		return cd, Black, prefAbsolute
	case cd < -1:
		return cd, White, prefAbsolute
	case n >= 2 && played[n-1] == played[n-2]:
		return cd, played[n-1].opposite(), prefAbsolute
	case cd == 1:
		return cd, Black, prefStrong
	case cd == -1:
		return cd, White, prefStrong
	}
	return cd, played[n-1].opposite(), prefMild
}

// higher reports whether player a is ranked above b (1.2).
func (e *engine) higher(a, b int) bool { return a < b }

// allocate gives the colours of a pair by E.1-E.5 and returns (white, black).
func (e *engine) allocate(a, b int) (int, int) {
	if !e.higher(a, b) {
		a, b = b, a
	}
	pa, pb := &e.ps[a], &e.ps[b]
	give := func(c Colour) (int, int) { // colour c to the higher-ranked a
		if c == White {
			return a, b
		}
		return b, a
	}
	// E.1: grant both preferences.
	if pa.pref != pb.pref || pa.pref == None {
		switch {
		case pa.pref != None:
			return give(pa.pref)
		case pb.pref != None:
			return give(pb.pref.opposite())
		}
	} else {
		// E.2: grant the stronger preference; both absolute (topscorers):
		// the wider colour difference.
		if pa.strength != pb.strength {
			if pa.strength > pb.strength {
				return give(pa.pref)
			}
			return give(pb.pref.opposite())
		}
		if pa.strength == prefAbsolute && abs(pa.cd) != abs(pb.cd) {
			if abs(pa.cd) > abs(pb.cd) {
				return give(pa.pref)
			}
			return give(pb.pref.opposite())
		}
		// E.3: alternate the colours to the most recent time in which one
		// had white and the other black. Unplayed rounds do not count
		// (C.04.2): the two players' games are compared from the latest one
		// back, each skipping his own unplayed rounds.
		ga, gb := pa.games(), pb.games()
		for i := 1; i <= min(len(ga), len(gb)); i++ {
			if ca, cb := ga[len(ga)-i], gb[len(gb)-i]; ca != cb {
				return give(ca.opposite())
			}
		}
		// E.4: grant the higher-ranked player's preference.
		if pa.pref != None {
			return give(pa.pref)
		}
	}
	// E.5: the higher-ranked player gets the initial colour when his
	// pairing number is odd, the other colour when even (tpn: see
	// Player.PairedBefore).
	ic := e.in.InitialColour
	if ic == None {
		ic = White
	}
	if pa.tpn%2 == 1 {
		return give(ic)
	}
	return give(ic.opposite())
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// games lists the colours of the games played, oldest first.
func (p *pl) games() []Colour {
	var g []Colour
	for _, c := range p.hist {
		if c != None {
			g = append(g, c)
		}
	}
	return g
}

// afterGame reports the player's colour difference after playing c and
// whether c makes three in a row (C10, C11).
func (p *pl) afterGame(c Colour) (cd int, three bool) {
	cd = p.cd
	if c == White {
		cd++
	} else {
		cd--
	}
	var last []Colour
	for i := len(p.hist) - 1; i >= 0 && len(last) < 2; i-- {
		if p.hist[i] != None {
			last = append(last, p.hist[i])
		}
	}
	three = len(last) == 2 && last[0] == c && last[1] == c
	return cd, three
}
