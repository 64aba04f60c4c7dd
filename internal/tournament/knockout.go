package tournament

import (
	"fmt"
	"strconv"
	"strings"
)

// Stage is one part of a knock-out match: its kind ("classical", "rapid",
// "blitz", "armageddon") and its number of games.
type Stage struct {
	Kind  string
	Games int
}

// KnockoutFormat is a knock-out event's match: Games classical games, then,
// while the match is tied, the tie-break stages in order; when they run out
// the last one is played again (an armageddon ends it: a draw wins it for
// Black).
type KnockoutFormat struct {
	Games     int
	TieBreaks []Stage
}

// ParseKnockout reads "2 rapid:2 blitz:2 armageddon": the classical games,
// then the tie-break stages as kind:games (armageddon is one game).
func ParseKnockout(s string) (KnockoutFormat, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return KnockoutFormat{}, fmt.Errorf("a knock-out format needs its number of games")
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || n < 1 || n > 100 {
		return KnockoutFormat{}, fmt.Errorf("knock-out games %q: a number from 1 to 100", f[0])
	}
	k := KnockoutFormat{Games: n}
	for _, st := range f[1:] {
		kind, games, ok := strings.Cut(st, ":")
		g := 1
		if ok {
			if g, err = strconv.Atoi(games); err != nil || g < 1 || g > 100 {
				return KnockoutFormat{}, fmt.Errorf("tie-break stage %q: kind:games, games from 1 to 100", st)
			}
		}
		switch kind {
		case "rapid", "blitz", "classical":
		case "armageddon":
			if g != 1 {
				return KnockoutFormat{}, fmt.Errorf("tie-break stage %q: an armageddon is one game", st)
			}
		default:
			return KnockoutFormat{}, fmt.Errorf("tie-break stage %q: rapid, blitz, classical or armageddon", st)
		}
		k.TieBreaks = append(k.TieBreaks, Stage{kind, g})
	}
	return k, nil
}

// String writes what ParseKnockout reads.
func (k KnockoutFormat) String() string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(max(k.Games, 1)))
	for _, s := range k.TieBreaks {
		if s.Kind == "armageddon" {
			b.WriteString(" armageddon")
		} else {
			fmt.Fprintf(&b, " %s:%d", s.Kind, s.Games)
		}
	}
	return b.String()
}

// stage returns the stage of a match's game i (0-based) and the index of
// its first game.
func (k KnockoutFormat) stage(i int) (Stage, int) {
	first := 0
	st := Stage{"classical", max(k.Games, 1)}
	for j := 0; ; j++ {
		if i < first+st.Games {
			return st, first
		}
		first += st.Games
		switch {
		case j < len(k.TieBreaks):
			st = k.TieBreaks[j]
		case len(k.TieBreaks) == 0:
			// No tie-break configured: more classical games.
		default:
			st = k.TieBreaks[len(k.TieBreaks)-1]
		}
	}
}

// Match is one knock-out match: A is the higher seed, B the lower (0 for a
// bye); Games are A's entries, in order.
type Match struct {
	A, B   int
	Games  []Entry
	Winner int // 0 while undecided
}

// KnockoutRound is one round of the bracket and the event rounds (TRF
// rounds, one a game) it took.
type KnockoutRound struct {
	Matches    []Match
	FirstRound int
}

// seedOrder returns the bracket's lines for a bracket of size b (a power
// of two): 1, b, b/2, b/2+1, … so that seeds 1 and 2 can meet only in the
// final.
func seedOrder(b int) []int {
	s := []int{1}
	for len(s) < b {
		next := make([]int, 0, 2*len(s))
		for _, x := range s {
			next = append(next, x, 2*len(s)+1-x)
		}
		s = next
	}
	return s
}

// Bracket replays the event's rounds through the knock-out: the bracket
// rounds so far, the last one possibly undecided. Seeds are start numbers.
func (e *Event) Bracket() ([]KnockoutRound, error) {
	n := len(e.Players)
	if n < 2 {
		return nil, fmt.Errorf("a knock-out needs 2 players or more, not %d", n)
	}
	cur := firstKnockoutRound(n)
	var rounds []KnockoutRound
	played := e.Played()
	for r := 1; ; r++ {
		cur, rounds = advanceBracket(cur, r, rounds)
		if r > played {
			break
		}
		if err := e.playKnockoutRound(&cur, r); err != nil {
			return nil, err
		}
	}
	if len(cur.Matches) == 1 && cur.Matches[0].Winner == 0 && cur.Matches[0].B == 0 {
		cur.Matches[0].Winner = cur.Matches[0].A
	}
	return append(rounds, cur), nil
}

// firstKnockoutRound returns the first bracket round of n players, in a
// bracket of the next power of two: the lines past n are byes (B 0).
func firstKnockoutRound(n int) KnockoutRound {
	b := 1
	for b < n {
		b *= 2
	}
	order := seedOrder(b)
	cur := KnockoutRound{FirstRound: 1}
	for i := 0; i < b; i += 2 {
		a, c := order[i], order[i+1]
		if c > n {
			c = 0
		}
		cur.Matches = append(cur.Matches, Match{A: a, B: c})
	}
	return cur
}

// advanceBracket decides the byes of cur before event round r and, while
// every match of it is decided and it is not the final, appends it to
// rounds and moves on to the bracket round of its winners.
func advanceBracket(cur KnockoutRound, r int, rounds []KnockoutRound) (KnockoutRound, []KnockoutRound) {
	for {
		done := true
		for i := range cur.Matches {
			m := &cur.Matches[i]
			if m.Winner == 0 && m.B == 0 && r > cur.FirstRound {
				m.Winner = m.A
			}
			if m.Winner == 0 {
				done = false
			}
		}
		if !done || len(cur.Matches) == 1 {
			return cur, rounds
		}
		rounds = append(rounds, cur)
		next := KnockoutRound{FirstRound: r}
		for i := 0; i < len(cur.Matches); i += 2 {
			x, y := cur.Matches[i].Winner, cur.Matches[i+1].Winner
			next.Matches = append(next.Matches, Match{A: min(x, y), B: max(x, y)})
		}
		cur = next
	}
}

// playKnockoutRound adds event round r's games to cur's undecided matches,
// checking that the entries follow the bracket.
func (e *Event) playKnockoutRound(cur *KnockoutRound, r int) error {
	for i := range cur.Matches {
		m := &cur.Matches[i]
		if m.Winner != 0 {
			continue
		}
		en := e.Player(m.A).Entry(r)
		if m.B == 0 {
			if en.Code != PairingBye && !en.None() {
				return fmt.Errorf("round %d: player %d has the bye of the knock-out, not %c", r, m.A, en.Code)
			}
			continue
		}
		if en.Opponent != m.B {
			return fmt.Errorf("round %d: players %d and %d are in a match, but %d's entry has opponent %d", r, m.A, m.B, m.A, en.Opponent)
		}
		m.Games = append(m.Games, en)
		m.Winner = e.Knockout.decide(m)
	}
	return nil
}

// decide returns a match's winner after its games so far, 0 while it goes
// on: a stage ends early when the leader cannot be caught, an armageddon's
// draw is Black's.
func (k KnockoutFormat) decide(m *Match) int {
	if len(m.Games) == 0 || m.Games[len(m.Games)-1].Code == Pending {
		return 0
	}
	last := len(m.Games) - 1
	st, first := k.stage(last)
	score := func(c Code) float64 { return FIDEScoring.Points(Entry{Code: c, Opponent: 1}) }
	if st.Kind == "armageddon" {
		g := m.Games[last]
		switch {
		case g.Code == Draw || g.Code == DrawUnrated:
			if g.Colour == Black {
				return m.A
			}
			return m.B
		case score(g.Code) > 0.5:
			return m.A
		}
		return m.B
	}
	a, played := 0.0, 0
	for _, g := range m.Games[first:] {
		a += score(g.Code)
		played++
	}
	b := float64(played) - a
	left := float64(first + st.Games - len(m.Games))
	switch {
	case a > b+left:
		return m.A
	case b > a+left:
		return m.B
	}
	return 0
}

// KnockoutPairer pairs the next event round of a knock-out: the next game
// of every undecided match; colours alternate in a match, the higher seed
// White in its first game (Black with XXC black1).
type KnockoutPairer struct{}

// Pair implements Pairer.
func (KnockoutPairer) Pair(e *Event) ([]Pair, error) {
	r := e.Played() + 1
	if r > 1 && !e.Complete(r-1) {
		return nil, fmt.Errorf("round %d still has games without a result", r-1)
	}
	br, err := e.Bracket()
	if err != nil {
		return nil, err
	}
	cur := br[len(br)-1]
	var pairs []Pair
	for _, m := range cur.Matches {
		if m.Winner != 0 {
			continue
		}
		if m.B == 0 {
			pairs = append(pairs, Pair{m.A, 0})
			continue
		}
		aWhite := len(m.Games)%2 == 0
		if strings.HasPrefix(e.Colour, "black1") {
			aWhite = !aWhite
		}
		if aWhite {
			pairs = append(pairs, Pair{m.A, m.B})
		} else {
			pairs = append(pairs, Pair{m.B, m.A})
		}
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("the knock-out is over: player %d won it", cur.Matches[0].Winner)
	}
	return pairs, nil
}

// GameKind returns the kind of stage ("classical", "rapid", …) the next
// game of a match is, so that its result is entered as rated (1-0) or not
// (W-L).
func (k KnockoutFormat) GameKind(played int) string {
	st, _ := k.stage(played)
	return st.Kind
}
