package teamswiss

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toguz/toguz/internal/tournament"
)

// Colour is the colour a team had in a match: its first board's colour
// (1.6.1), None when it played no match that round.
type Colour int8

const (
	None Colour = iota
	White
	Black
)

func (c Colour) opposite() Colour {
	switch c {
	case White:
		return Black
	case Black:
		return White
	}
	return None
}

// PreferenceType is the competition's choice of colour preferences (1.7).
type PreferenceType int8

const (
	// TypeA, the simple preference, applies unless the rules say otherwise.
	TypeA PreferenceType = iota
	// TypeB distinguishes strong and mild preferences ([C9], 4.3.4).
	TypeB
	// NoPreferences: the competition uses no colour preferences.
	NoPreferences
)

// Team is one team as the pairing sees it.
type Team struct {
	// ID is the team's pairing number (TPN, 1.1), > 0.
	ID int
	// Primary is the pairing score (1.2: match points unless the rules
	// say game points); Secondary the other one, used by 4.2.2. Any unit
	// will do as long as all teams use the same (the adapter uses half
	// points: a match won is 4 (2 MP), a game won 2).
	Primary, Secondary int
	// Colours has one entry per past round: the colour of the team's first
	// board in a match actually played, None otherwise (1.6.1).
	Colours []Colour
	// Opponents are the teams met in matches actually played ([C1]; a
	// match forfeited as a whole is no meeting, C.04.2).
	Opponents []int
	// ByeBarred: the team had the pairing-allocated bye or won a match by
	// forfeit ([C2]).
	ByeBarred bool
	// Matches is the number of matches the team played (3.4.3).
	Matches int
	// Floated: the team was a floater in the previous round (1.5: it
	// played an opponent with a different score) ([C7], [C10]).
	Floated bool
	// Absent teams (withdrawn, or not paired this round) are left out.
	Absent bool
	// PairedBefore: the team was paired in an earlier round; 4.3.1's
	// parity counts the teams paired now or before (C.04.2 2.4: a late
	// entry has no number until it arrives).
	PairedBefore bool
}

// Input is one round to pair.
type Input struct {
	Round, Rounds int
	// InitialColour is drawn by lot before round 1 (4.1).
	InitialColour Colour
	Preferences   PreferenceType
	// NoSecondary: the rules do not use the secondary score for colours
	// (4.2.2).
	NoSecondary bool
	Teams       []Team
	// MaxNodes bounds the search of one bracket (3.6) and of the upfloater
	// sets (3.5); 0 means DefaultMaxNodes.
	MaxNodes int
}

// DefaultMaxNodes is the search budget of one bracket.
const DefaultMaxNodes = 100_000

// Match is one pairing of two teams: the team with White on the first
// board first.
type Match struct{ White, Black int }

// Pairing is a round: the matches in order and the team with the
// pairing-allocated bye (0 if none).
type Pairing struct {
	Matches []Match
	Bye     int
	// BudgetHit reports that a search stopped at MaxNodes and returned the
	// best it had found.
	BudgetHit bool
}

// ErrNoPairing: no pairing of the round complies with [C1] and [C2]
// (3.3.3: the chief arbiter decides).
var ErrNoPairing = fmt.Errorf("teamswiss: %w [C1], [C2]", tournament.ErrUnpairable)

// Format writes a pairing as the pairing programs print one: the number of
// pairs (the bye counting as one), then "white black" a line, "id 0" for
// the bye.
func Format(p Pairing) string {
	pairs := make([]tournament.Pair, 0, len(p.Matches)+1)
	for _, m := range p.Matches {
		pairs = append(pairs, tournament.Pair{White: m.White, Black: m.Black})
	}
	if p.Bye != 0 {
		pairs = append(pairs, tournament.Pair{White: p.Bye})
	}
	var b strings.Builder
	tournament.WritePairs(&b, pairs) // a strings.Builder never fails
	return b.String()
}

// team is a team in the engine: its input and what the rules derive.
type team struct {
	Team
	idx    int    // index in engine.teams
	pref   Colour // the colour preference (1.7), None for none
	strong bool   // Type B: the preference is strong
	cd     int    // colour difference (1.6.2)
	played bool   // at least one match played
	met    map[int]bool
}

type engine struct {
	in      Input
	teams   []*team // by TPN
	byID    map[int]*team
	lastTwo bool // the last two rounds: [C7] and [C10] do not apply
	budget  int
	nodes   int
	hit     bool
}

func validate(in Input) error {
	if in.Round < 1 {
		return fmt.Errorf("teamswiss: round %d: rounds count from 1", in.Round)
	}
	seen := map[int]bool{}
	for _, t := range in.Teams {
		if t.ID <= 0 {
			return fmt.Errorf("teamswiss: team number %d: pairing numbers start at 1", t.ID)
		}
		if seen[t.ID] {
			return fmt.Errorf("teamswiss: team %d given twice", t.ID)
		}
		seen[t.ID] = true
		if len(t.Colours) >= in.Round {
			return fmt.Errorf("teamswiss: team %d has %d rounds of colours before round %d", t.ID, len(t.Colours), in.Round)
		}
	}
	return nil
}

// PairRound pairs one round by C.04.6: the bye (3.4), then bracket after
// bracket from the top scoregroup down (3.3.2, 3.5, 3.6), then the colours
// (Article 4).
func PairRound(in Input) (Pairing, error) {
	if err := validate(in); err != nil {
		return Pairing{}, err
	}
	e := newEngine(in)
	var rest []*team
	for _, t := range e.teams {
		if !t.Absent {
			rest = append(rest, t)
		}
	}
	var out Pairing
	if len(rest)%2 == 1 {
		bye := e.pab(rest)
		if bye == nil {
			return Pairing{}, ErrNoPairing
		}
		out.Bye = bye.ID
		rest = remove(rest, bye)
	}
	if !e.legal(rest) {
		return Pairing{}, ErrNoPairing
	}
	var pairs [][2]*team
	for len(rest) > 0 {
		top, ups := e.upfloaters(rest)
		bracket := append(slices.Clone(top), ups...)
		sortTPN(bracket)
		bp := e.pairBracket(bracket, ups)
		if bp == nil { // cannot happen: the set was chosen pairable
			return Pairing{}, ErrNoPairing
		}
		pairs = append(pairs, bp...)
		for _, t := range bracket {
			rest = remove(rest, t)
		}
	}
	paired := map[int]bool{}
	for _, pr := range pairs {
		paired[pr[0].ID], paired[pr[1].ID] = true, true
	}
	if out.Bye != 0 {
		paired[out.Bye] = true
	}
	for _, pr := range e.order(pairs) {
		w, b := e.allocate(pr[0], pr[1], paired)
		out.Matches = append(out.Matches, Match{White: w.ID, Black: b.ID})
	}
	out.BudgetHit = e.hit
	return out, nil
}

func newEngine(in Input) *engine {
	e := &engine{in: in, byID: map[int]*team{}, budget: in.MaxNodes}
	if e.budget <= 0 {
		e.budget = DefaultMaxNodes
	}
	e.lastTwo = in.Rounds > 0 && in.Round >= in.Rounds-1
	for _, t := range in.Teams {
		tt := &team{Team: t, met: map[int]bool{}}
		for _, o := range t.Opponents {
			tt.met[o] = true
		}
		tt.pref, tt.strong, tt.cd, tt.played = preference(t.Colours, in.Preferences, in.Rounds > 0 && in.Round == in.Rounds)
		e.teams = append(e.teams, tt)
	}
	sortTPN(e.teams)
	for i, t := range e.teams {
		t.idx = i
		e.byID[t.ID] = t
	}
	return e
}

// preference computes 1.6 and 1.7: the colour difference over the matches
// played, and the preference of the competition's type.
func preference(cols []Colour, typ PreferenceType, lastRound bool) (pref Colour, strong bool, cd int, played bool) {
	var last, prev Colour
	for _, c := range cols {
		switch c {
		case White:
			cd++
		case Black:
			cd--
		default:
			continue
		}
		played = true
		prev, last = last, c
	}
	if typ == NoPreferences || !played {
		return None, false, cd, played
	}
	sameTwice := prev != None && prev == last
	switch {
	case cd < -1 || (cd == 0 || cd == -1) && sameTwice && last == Black:
		return White, true, cd, played
	case cd > 1 || (cd == 0 || cd == 1) && sameTwice && last == White:
		return Black, true, cd, played
	}
	if typ == TypeA {
		return None, false, cd, played
	}
	switch {
	case cd == -1:
		return White, false, cd, played
	case cd == 1:
		return Black, false, cd, played
	case cd == 0 && !lastRound:
		return last.opposite(), false, cd, played
	}
	return None, false, cd, played
}

func sortTPN(ts []*team) { slices.SortFunc(ts, func(a, b *team) int { return a.ID - b.ID }) }

func remove(ts []*team, t *team) []*team {
	out := make([]*team, 0, len(ts))
	for _, x := range ts {
		if x != t {
			out = append(out, x)
		}
	}
	return out
}

// compatible is [C1]: the two teams have not met.
func compatible(a, b *team) bool { return a != b && !a.met[b.ID] }

// legal reports whether the teams can all be paired complying with [C1]
// (3.1; [C3] for the teams not yet paired).
func (e *engine) legal(ts []*team) bool {
	return perfect(len(ts), func(i, j int) bool { return compatible(ts[i], ts[j]) })
}

// pab chooses the team that gets the pairing-allocated bye (3.4): of the
// teams [C2] allows, the one that leaves a legal pairing for the others
// (3.4.1), with the lowest score (3.4.2), the most matches played (3.4.3),
// the largest TPN (3.4.4).
func (e *engine) pab(ts []*team) *team {
	cand := slices.Clone(ts)
	slices.SortFunc(cand, func(a, b *team) int {
		if a.Primary != b.Primary {
			return a.Primary - b.Primary
		}
		if a.Matches != b.Matches {
			return b.Matches - a.Matches
		}
		return b.ID - a.ID
	})
	for _, t := range cand {
		if !t.ByeBarred && e.legal(remove(ts, t)) {
			return t
		}
	}
	return nil
}
