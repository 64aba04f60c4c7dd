package dutch

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/toguz/toguz/internal/tournament"
)

// Colour is the colour a player had (or gets) in one round.
type Colour int8

const (
	// None: the player did not play that round (bye, absence, forfeit).
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

// Float is the float a player received in one round (C.04.3 1.4).
type Float int8

const (
	NoFloat Float = iota
	Down
	Up
)

// Player is one entrant as the pairing sees it. The adapter of the
// tournament package fills it from its own records.
type Player struct {
	// ID is the pairing number (TPN, C.04.2 initial order), > 0.
	ID int
	// Rating is carried for the adapter's initial ranking; the Dutch rules
	// themselves only use the pairing number (C.04.3 1.2).
	Rating int
	// Score so far, in half points (a win is 2, a draw 1).
	Score int
	// Colours has one entry per past round (index 0 is round 1): the colour
	// played, or None when the player did not play a game that round.
	Colours []Colour
	// Floats has one entry per past round: the float received (1.4.2, and
	// 1.4.3: an unplayed round scoring more than a loss is a downfloat).
	Floats []Float
	// Opponents are the IDs of the players met over the board (C1).
	Opponents []int
	// ByeReceived: the player already had a pairing-allocated bye, or a
	// win's points in a round without playing (a forfeit win, a full-point
	// bye), so may not get the bye (C2, C.04.1 art. 4).
	ByeReceived bool
	// Absent players (withdrawn, or with a requested H/Z bye for this round)
	// are not paired.
	Absent bool
	// PairedBefore: the player was paired in an earlier round (a game,
	// played or forfeited, or the pairing-allocated bye). E.5 counts the
	// pairing numbers among the players paired now or before, as the
	// endorsed programs do: a late entry who has not yet played and is not
	// paired now does not shift the numbers of the players below him.
	PairedBefore bool
}

// Input is one round to pair.
type Input struct {
	Round  int // the round to pair, from 1
	Rounds int // the event's number of rounds (topscorers, 1.7)
	// InitialColour is the colour drawn by lot before round 1 (E.5): what
	// the higher-ranked player of a pair gets when his pairing number is odd.
	InitialColour Colour
	Players       []Player
	// MaxNodes bounds the candidates explored per bracket attempt; 0 means
	// DefaultMaxNodes.
	MaxNodes int
}

// DefaultMaxNodes is the search budget per bracket attempt.
const DefaultMaxNodes = 2_000_000

// Pair is one board: the players' IDs.
type Pair struct{ White, Black int }

// Pairing is a round's result: the boards in order and the bye (0 if none).
type Pairing struct {
	Pairs []Pair
	Bye   int
}

// ErrNoPairing: no pairing of the round satisfies the absolute criteria.
var ErrNoPairing = fmt.Errorf("dutch: %w C1-C3", tournament.ErrUnpairable)

// Format writes a pairing the way the FIDE-endorsed programs print it with
// -p: the number of pairs (the bye counting as one) on the first line, then
// "white black" a line, "id 0" for the bye.
func Format(p Pairing) string {
	var b strings.Builder
	n := len(p.Pairs)
	if p.Bye != 0 {
		n++
	}
	b.WriteString(strconv.Itoa(n))
	b.WriteByte('\n')
	for _, pr := range p.Pairs {
		fmt.Fprintf(&b, "%d %d\n", pr.White, pr.Black)
	}
	if p.Bye != 0 {
		fmt.Fprintf(&b, "%d 0\n", p.Bye)
	}
	return b.String()
}

// ParseFormat reads what Format writes.
func ParseFormat(s string) (Pairing, error) {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	n, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	if err != nil {
		return Pairing{}, fmt.Errorf("dutch: line 1: number of pairs: %w", err)
	}
	if n != len(lines)-1 {
		return Pairing{}, fmt.Errorf("dutch: line 1 says %d pairs, %d follow", n, len(lines)-1)
	}
	var p Pairing
	for i, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) != 2 {
			return Pairing{}, fmt.Errorf("dutch: line %d: want two numbers", i+2)
		}
		w, err1 := strconv.Atoi(f[0])
		bl, err2 := strconv.Atoi(f[1])
		if err := errors.Join(err1, err2); err != nil {
			return Pairing{}, fmt.Errorf("dutch: line %d: %w", i+2, err)
		}
		if bl == 0 {
			if p.Bye != 0 {
				return Pairing{}, fmt.Errorf("dutch: line %d: a second bye", i+2)
			}
			p.Bye = w
			continue
		}
		p.Pairs = append(p.Pairs, Pair{w, bl})
	}
	return p, nil
}

// Stats says how the search went (for tests and the docs' figures).
type Stats struct {
	Brackets    int
	Nodes       int
	BudgetHits  int // bracket attempts cut by MaxNodes: result may not be optimal
	Collapsed   int // last brackets paired as the collapsed last bracket
	Completions int // completion (C4) checks run
	// ExactC7 counts the downfloater sets whose C7/C8 needed the
	// maximum-weight matching over the rest of the round.
	ExactC7 int
	// C7Approx counts the downfloater sets whose C7/C8 kept the next
	// bracket's own values because the round's budget for those matchings
	// was spent (or their weights did not fit): there the pairing may not
	// be the rules' choice.
	C7Approx int
	// BestC7 counts the searches bounded by the best C7/C8 of all their
	// candidates (one maximum-weight matching each).
	BestC7 int
	// NodeC7 counts the nodes of a search bounded by a maximum-weight
	// matching of the players they leave (nodeC7).
	NodeC7 int
	// Assign counts the nodes bounded by an assignment problem (assign.go).
	Assign int
}

// PairRound pairs one round by the Dutch system.
func PairRound(in Input) (Pairing, error) {
	p, _, err := pairRound(in)
	return p, err
}

// PairRoundStats is PairRound that also reports the search statistics.
func PairRoundStats(in Input) (Pairing, Stats, error) { return pairRound(in) }

func pairRound(in Input) (Pairing, Stats, error) {
	var st Stats
	if in.Round < 1 {
		return Pairing{}, st, fmt.Errorf("dutch: round %d", in.Round)
	}
	seen := map[int]bool{}
	for _, p := range in.Players {
		if p.ID <= 0 {
			return Pairing{}, st, fmt.Errorf("dutch: player ID %d: must be > 0", p.ID)
		}
		if seen[p.ID] {
			return Pairing{}, st, fmt.Errorf("dutch: player ID %d twice", p.ID)
		}
		seen[p.ID] = true
	}
	e := newEngine(in)
	e.st = &st
	if len(e.ps) == 0 {
		return Pairing{}, st, nil
	}
	all := make([]int, len(e.ps))
	for i := range all {
		all[i] = i
	}
	if !e.completable(all) {
		return Pairing{}, st, ErrNoPairing
	}
	e.restrictBye(all)
	pairs, bye, err := e.run()
	if err != nil {
		return Pairing{}, st, err
	}
	out := Pairing{Bye: 0}
	if bye >= 0 {
		out.Bye = e.ps[bye].id
	}
	out.Pairs = e.boards(pairs)
	return out, st, nil
}

// boards allocates colours (E.1-E.5) and orders the boards (C.04.2: the
// higher score of the pair, then the sum of scores, then the rank of the
// higher-ranked player).
func (e *engine) boards(pairs [][2]int) []Pair {
	sort.SliceStable(pairs, func(i, j int) bool {
		a, b := pairs[i], pairs[j]
		ma, mb := max(e.ps[a[0]].score, e.ps[a[1]].score), max(e.ps[b[0]].score, e.ps[b[1]].score)
		if ma != mb {
			return ma > mb
		}
		sa, sb := e.ps[a[0]].score+e.ps[a[1]].score, e.ps[b[0]].score+e.ps[b[1]].score
		if sa != sb {
			return sa > sb
		}
		return min(a[0], a[1]) < min(b[0], b[1])
	})
	out := make([]Pair, len(pairs))
	for i, pr := range pairs {
		w, b := e.allocate(pr[0], pr[1])
		out[i] = Pair{e.ps[w].id, e.ps[b].id}
	}
	return out
}
