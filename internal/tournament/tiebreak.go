package tournament

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// TieBreak is one of FIDE C.07's tie-breaks (the regulations applied from
// 2023 and their 2024 edition) with its modifiers: Cut removes the lowest
// contributions (Cut-1, Cut-2), High the highest; Median-1 is both 1.
type TieBreak struct {
	Kind string // DE, WIN, WON, BPG, BWG, GE, BH, SB, ARO, PS, KS
	Cut  int
	High int
}

// The tie-breaks, by C.07's acronyms.
var tieBreakKinds = map[string]string{
	"DE":  "direct encounter",
	"WIN": "number of wins (forfeits and byes scored as a win included)",
	"WON": "number of games won over the board",
	"BPG": "number of games played with Black",
	"BWG": "number of games won with Black",
	"GE":  "number of games one elected to play",
	"BH":  "Buchholz",
	"SB":  "Sonneborn-Berger",
	"ARO": "average rating of opponents",
	"PS":  "progressive score",
	"KS":  "Koya system",
}

// ParseTieBreak reads "BH", "BH/C1", "BH/C2", "BH/M1" (median), "ARO/C1",
// "PS/C1", "KS".
func ParseTieBreak(s string) (TieBreak, error) {
	kind, mod, _ := strings.Cut(strings.ToUpper(strings.TrimSpace(s)), "/")
	if _, ok := tieBreakKinds[kind]; !ok {
		return TieBreak{}, fmt.Errorf("unknown tie-break %q (DE, WIN, WON, BPG, BWG, GE, BH, SB, ARO, PS, KS, with /C1, /C2, /M1)", s)
	}
	tb := TieBreak{Kind: kind}
	if mod != "" {
		if len(mod) < 2 || (mod[0] != 'C' && mod[0] != 'M') {
			return TieBreak{}, fmt.Errorf("tie-break %q: the modifier is C1, C2 (cut) or M1, M2 (median)", s)
		}
		n, err := strconv.Atoi(mod[1:])
		if err != nil || n < 1 || n > 9 {
			return TieBreak{}, fmt.Errorf("tie-break %q: the modifier is C1, C2 (cut) or M1, M2 (median)", s)
		}
		switch kind {
		case "BH", "SB", "ARO", "PS":
		default:
			return TieBreak{}, fmt.Errorf("tie-break %q: %s takes no modifier", s, kind)
		}
		tb.Cut = n
		if mod[0] == 'M' {
			if kind == "PS" {
				return TieBreak{}, fmt.Errorf("tie-break %q: PS has no median", s)
			}
			tb.High = n
		}
	}
	return tb, nil
}

// ParseTieBreaks reads a list separated by spaces or commas.
func ParseTieBreaks(s string) ([]TieBreak, error) {
	var out []TieBreak
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		tb, err := ParseTieBreak(f)
		if err != nil {
			return nil, err
		}
		out = append(out, tb)
	}
	return out, nil
}

// String writes what ParseTieBreak reads.
func (t TieBreak) String() string {
	switch {
	case t.High > 0:
		return fmt.Sprintf("%s/M%d", t.Kind, t.High)
	case t.Cut > 0:
		return fmt.Sprintf("%s/C%d", t.Kind, t.Cut)
	}
	return t.Kind
}

// Standing is one line of the standings: the player, his rank (tied
// players share it), points and one value per tie-break. A DE value is the
// player's place among those tied with him before it (1 first), or 0 where
// DE does not apply: a player alone on his points, or a group it does not
// separate (they have not all met and no one is out of the others' reach,
// or their games against each other are level).
type Standing struct {
	Player *Player
	Rank   int
	Points float64
	Values []float64
}

// ValueText writes a tie-break's value as the standings show it: exactly
// (a Sonneborn-Berger with draws has quarters), and nothing for a DE that
// does not apply.
func ValueText(k TieBreak, v float64) string {
	if k.Kind == "DE" && v == 0 {
		return ""
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// tb holds what the tie-breaks need, computed once from the rounds.
type tb struct {
	e      *Event
	rounds int  // the rounds counted: the last round with a result
	rr     bool // a round robin: unplayed rounds count nothing (C.07 art. 16)
	pts    map[int]float64
	adj    map[int]float64 // the opponents' adjusted scores (C.07 art. 16.3)
}

func (e *Event) roundRobin() bool { return e.System == RoundRobin || e.System == DoubleRoundRobin }

func newTB(e *Event, rounds int) *tb {
	t := &tb{e: e, rounds: rounds, rr: e.roundRobin(), pts: map[int]float64{}, adj: map[int]float64{}}
	for i := range e.Players {
		p := &e.Players[i]
		t.pts[p.Start] = e.Score(p, rounds)
		// C.07 art. 16.3: for the tie-breaks of his opponents, a player's
		// unplayed rounds after the last round he was present for (a
		// withdrawal, byes at the end) count as draws; every other round
		// counts what he scored. In a round robin they count nothing.
		last := 0
		for r := 1; r <= rounds; r++ {
			if !p.Entry(r).VUR() {
				last = r
			}
		}
		a := 0.0
		for r := 1; r <= rounds; r++ {
			en := p.Entry(r)
			switch {
			case r <= last || en.Opponent > 0:
				a += e.Scoring.Points(en)
			case !t.rr:
				a += e.Scoring.Draw
			}
		}
		t.adj[p.Start] = a
	}
	return t
}

// contribution is one round's value for a Buchholz-like tie-break.
type contribution struct {
	score float64 // the opponent's (adjusted) score, or the dummy's
	value float64 // what the round adds: score for BH, score×result for SB
	vur   bool
}

// buchholz returns BH or SB of player p with C.07's handling of unplayed
// rounds: a played game counts the opponent's adjusted score (art. 16.3);
// in a Swiss a round without a game counts a dummy opponent with the
// player's own score (art. 16.4); in a round robin a forfeit counts the
// opponent, the dummy's round nothing.
// Cuts remove the lowest contributions, a voluntary unplayed round's first
// (art. 14, 16.5), Median also the highest.
func (t *tb) buchholz(p *Player, sb bool, cut, high int) float64 {
	var cs []contribution
	for r := 1; r <= t.rounds; r++ {
		en := p.Entry(r)
		var c contribution
		switch {
		case en.Played(), t.rr && en.Opponent > 0:
			// A round robin's pairings are fixed: a forfeit there counts
			// the opponent as a game would (Held's exercise 14).
			c.score = t.adj[en.Opponent]
		case !t.rr:
			c.score = t.pts[p.Start]
		default:
			continue // a round robin's dummy round is not a game
		}
		c.value = c.score
		if sb {
			c.value = c.score * t.e.Scoring.Points(en)
		}
		c.vur = en.VUR() && !en.Played()
		cs = append(cs, c)
	}
	for ; cut > 0 && len(cs) > 0; cut-- {
		low := slices.MinFunc(cs, func(a, b contribution) int {
			return cmp.Or(cmp.Compare(a.score, b.score), cmp.Compare(a.value, b.value))
		})
		i := slices.Index(cs, low)
		// The voluntary unplayed round with the least value goes first,
		// unless a lower contribution is not one.
		best := -1
		for j, c := range cs {
			if c.vur && (best < 0 || c.value < cs[best].value) {
				best = j
			}
		}
		if best >= 0 && !(low.value > cs[best].value) {
			i = best
		}
		cs = slices.Delete(cs, i, i+1)
	}
	for ; high > 0 && len(cs) > 0; high-- {
		top := slices.MaxFunc(cs, func(a, b contribution) int {
			return cmp.Or(cmp.Compare(a.score, b.score), cmp.Compare(a.value, b.value))
		})
		i := slices.Index(cs, top)
		cs = slices.Delete(cs, i, i+1)
	}
	s := 0.0
	for _, c := range cs {
		s += c.value
	}
	return s
}

// aro is the average rating of the opponents of the games played over the
// board, rounded to the nearest whole number, 0.5 up; unrated opponents do
// not count; a cut removes the lowest (an unrated opponent first).
func (t *tb) aro(p *Player, cut, high int) float64 {
	var ratings []int
	games := 0
	for r := 1; r <= t.rounds; r++ {
		if en := p.Entry(r); en.Played() {
			games++
			if q := t.e.Player(en.Opponent); q.Rating > 0 {
				ratings = append(ratings, q.Rating)
			}
		}
	}
	slices.Sort(ratings)
	for ; cut > 0 && games > 0; cut-- {
		if games == len(ratings) {
			ratings = ratings[1:]
		}
		games--
	}
	for ; high > 0 && games > 0; high-- {
		if games == len(ratings) {
			ratings = ratings[:len(ratings)-1]
		}
		games--
	}
	if len(ratings) == 0 {
		return 0
	}
	sum := 0
	for _, x := range ratings {
		sum += x
	}
	return math.Floor(float64(sum)/float64(len(ratings)) + 0.5)
}

// value computes a tie-break other than DE for player p.
func (t *tb) value(p *Player, k TieBreak) float64 {
	if f := roundTest(k.Kind, t.e.Scoring); f != nil {
		n := 0.0
		for r := 1; r <= t.rounds; r++ {
			if f(p.Entry(r)) {
				n++
			}
		}
		return n
	}
	switch k.Kind {
	case "BH":
		return t.buchholz(p, false, k.Cut, k.High)
	case "SB":
		return t.buchholz(p, true, k.Cut, k.High)
	case "ARO":
		return t.aro(p, k.Cut, k.High)
	case "PS":
		return t.progressive(p, k.Cut)
	case "KS":
		return t.koya(p)
	}
	return 0
}

// roundTest returns, for the tie-breaks that count rounds, the test of a
// round that counts; nil for the others.
func roundTest(kind string, sc Scoring) func(Entry) bool {
	switch kind {
	case "WIN": // C.07 art. 7.1: rounds scored as a win, played or not
		return func(en Entry) bool { return !en.None() && en.Code != Pending && sc.Points(en) == sc.Win }
	case "WON": // art. 7.2: games won over the board
		return func(en Entry) bool { return en.Played() && sc.Points(en) == sc.Win }
	case "BPG": // art. 7.3: games played with Black
		return func(en Entry) bool { return en.Played() && en.Colour == Black }
	case "BWG": // art. 7.4: games won with Black over the board
		return func(en Entry) bool { return en.Played() && en.Colour == Black && sc.Points(en) == sc.Win }
	case "GE": // art. 7.5: rounds played, or scored as a win without playing
		return func(en Entry) bool { return en.Played() || !en.VUR() && sc.Points(en) == sc.Win }
	}
	return nil
}

// progressive is PS: the sum of the running scores after each round; a
// cut drops the first rounds'.
func (t *tb) progressive(p *Player, cut int) float64 {
	sc := t.e.Scoring
	s, run := 0.0, 0.0
	for r := 1; r <= t.rounds; r++ {
		run += sc.Points(p.Entry(r))
		if r > cut {
			s += run
		}
	}
	return s
}

// koya is the points scored against the opponents who finished with at
// least half of the maximum score (the games a player could play: in a
// round robin with a dummy, one fewer a cycle).
func (t *tb) koya(p *Player) float64 {
	games := t.rounds
	if t.rr && len(t.e.Players)%2 == 1 {
		games -= max(1, t.rounds/len(t.e.Players))
	}
	limit := t.e.Scoring.Win * float64(games) / 2
	s := 0.0
	for r := 1; r <= t.rounds; r++ {
		en := p.Entry(r)
		if en.Opponent > 0 && t.pts[en.Opponent] >= limit {
			s += t.e.Scoring.Points(en)
		}
	}
	return s
}

// directEncounter orders a group of tied players by their games against
// each other (C.07 art. 6): the points scored against the group, an
// opponent met more than once counting the average. When every pair of
// the group has met (always in a round robin) the scores rank them; in a
// Swiss where some have not met, a player goes ahead only if his score
// exceeds what any other could have scored, counting the games not played
// as wins. Players still tied are ranked again among themselves. It
// returns each player's place in the group, 1 first.
func (t *tb) directEncounter(group []int) map[int]int {
	place := map[int]int{}
	t.deRank(group, 1, place)
	return place
}

// separates reports whether DE gave a group at least two places: only
// then does it apply (C.07 art. 6); a group it leaves whole, or a player
// alone on his points, has no DE value.
func separates(place map[int]int) bool {
	first := -1
	for _, p := range place {
		if first >= 0 && p != first {
			return true
		}
		first = p
	}
	return false
}

func (t *tb) deRank(group []int, first int, place map[int]int) {
	if len(group) == 1 {
		place[group[0]] = first
		return
	}
	score, most, all := t.groupScores(group)
	sorted := slices.Clone(group)
	slices.SortStableFunc(sorted, func(a, b int) int {
		return cmp.Or(cmp.Compare(score[b], score[a]), cmp.Compare(most[b], most[a]), cmp.Compare(a, b))
	})
	if all {
		t.deRankMet(sorted, first, score, place)
		return
	}
	for i, s := range sorted {
		rest := 0.0
		for _, o := range sorted[i+1:] {
			rest = max(rest, most[o])
		}
		if i == len(sorted)-1 || score[s] > rest {
			place[s] = first + i
			continue
		}
		for _, o := range sorted[i:] {
			place[o] = first + i
		}
		return
	}
}

// groupScores returns each player's points against the rest of the group
// (an opponent met more than once counting the average), the most he could
// have with the games not played as wins, and whether every pair has met.
func (t *tb) groupScores(group []int) (score, most map[int]float64, all bool) {
	in := map[int]bool{}
	for _, s := range group {
		in[s] = true
	}
	score = map[int]float64{}
	most = map[int]float64{}
	all = true
	for _, s := range group {
		p := t.e.Player(s)
		got := map[int][]float64{}
		for r := 1; r <= t.rounds; r++ {
			en := p.Entry(r)
			if in[en.Opponent] && (en.Played() || t.rr && en.Code != Pending && !en.None()) {
				got[en.Opponent] = append(got[en.Opponent], t.e.Scoring.Points(en))
			}
		}
		for _, xs := range got {
			sum := 0.0
			for _, x := range xs {
				sum += x
			}
			score[s] += sum / float64(len(xs))
		}
		most[s] = score[s]
		if !t.rr && len(got) < len(group)-1 {
			all = false
			most[s] += float64(len(group)-1-len(got)) * t.e.Scoring.Win
		}
	}
	return score, most, all
}

// deRankMet places a group sorted by score whose every pair has met: the
// scores rank them, and each set still tied is ranked again among itself
// unless it is the whole group.
func (t *tb) deRankMet(sorted []int, first int, score map[int]float64, place map[int]int) {
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && score[sorted[j]] == score[sorted[i]] {
			j++
		}
		if j-i == len(sorted) {
			for _, s := range sorted {
				place[s] = first
			}
			return
		}
		t.deRank(sorted[i:j], first+i, place)
		i = j
	}
}

// Standings ranks the players after round rounds (all rounds with a
// result when rounds ≤ 0): by points, then by each tie-break in the
// event's order, the next one breaking only the ties the ones before left
// (C.07 art. 4.2). Players tied after the last share a rank and are listed
// by start number: C.07 leaves them to the drawing of lots.
func (e *Event) Standings(rounds int) []Standing {
	if v := e.matchesPlayed(); v != e {
		return v.standingsOf(e, rounds)
	}
	t := newTB(e, e.countedRounds(rounds))
	st := make([]Standing, len(e.Players))
	for i := range e.Players {
		p := &e.Players[i]
		st[i] = Standing{Player: p, Points: t.pts[p.Start], Values: make([]float64, len(e.TieBreaks))}
		for j, k := range e.TieBreaks {
			if k.Kind != "DE" {
				st[i].Values[j] = t.value(p, k)
			}
		}
	}
	slices.SortStableFunc(st, func(a, b Standing) int { return cmp.Or(e.compareStandings(&a, &b, 0), a.Player.Start-b.Player.Start) })
	for j, k := range e.TieBreaks {
		if k.Kind == "DE" {
			t.placeDE(st, j)
		}
		slices.SortStableFunc(st, func(a, b Standing) int { return cmp.Or(e.compareStandings(&a, &b, j+1), a.Player.Start-b.Player.Start) })
	}
	for i := range st {
		st[i].Rank = i + 1
		if i > 0 && e.compareStandings(&st[i-1], &st[i], len(e.TieBreaks)) == 0 {
			st[i].Rank = st[i-1].Rank
		}
	}
	return st
}

// countedRounds returns the rounds Standings counts: rounds, or when it is
// ≤ 0 or past the rounds played, all rounds with a result.
func (e *Event) countedRounds(rounds int) int {
	if rounds <= 0 || rounds > e.Played() {
		rounds = e.Played()
		if rounds > 0 && !e.Complete(rounds) {
			rounds--
		}
	}
	return rounds
}

// compareStandings orders a before b (negative) when it has more points or,
// on equal points, the better of the first upto tie-breaks.
func (e *Event) compareStandings(a, b *Standing, upto int) int {
	if c := cmp.Compare(b.Points, a.Points); c != 0 {
		return c
	}
	for j := 0; j < upto; j++ {
		if c := cmp.Compare(b.Values[j], a.Values[j]); c != 0 {
			if e.TieBreaks[j].Kind == "DE" {
				return -c // a place: the lower the better
			}
			return c
		}
	}
	return 0
}

// placeDE sets tie-break j, a DE, of st, which is sorted by the tie-breaks
// before it: each group tied on those gets its places by direct encounter.
func (t *tb) placeDE(st []Standing, j int) {
	for i := 0; i < len(st); {
		n := i + 1
		for n < len(st) && t.e.compareStandings(&st[i], &st[n], j) == 0 {
			n++
		}
		group := make([]int, 0, n-i)
		for _, s := range st[i:n] {
			group = append(group, s.Player.Start)
		}
		place := t.directEncounter(group)
		if !separates(place) {
			// Alone on his points, or a group DE leaves
			// tied (a pair that drew, players who have not
			// met): DE does not apply, 0 and no place.
			i = n
			continue
		}
		for x := i; x < n; x++ {
			st[x].Values[j] = float64(place[st[x].Player.Start])
		}
		i = n
	}
}
