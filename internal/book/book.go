package book

import (
	"math"
	"math/rand/v2"

	"github.com/toguz/toguz"
)

// NoEval is Entry.Eval when the move was not checked by an engine.
const NoEval = math.MinInt16

// Entry is one book move of a position.
type Entry struct {
	Move toguz.Move
	// Eval is the engine check's value of the position after the move for
	// the player who made it, in hundredths of a stone (the engine's Score
	// scale), or NoEval.
	Eval int16
	// Count is how often the move was played, each game counting its
	// source's weight (1 for every game when no weights were given).
	Count uint32
	// Wins, Draws and Losses are the results of those games for the
	// player who made the move, weighted the same way. Games without a
	// result count in Count only.
	Wins, Draws, Losses uint32
}

// Decided returns the weighted number of games with a result.
func (e Entry) Decided() uint32 { return e.Wins + e.Draws + e.Losses }

// Score returns the mover's score with the move, (wins + draws/2) / games
// with a result, from 0 to 1; 0.5 when no game has a result.
func (e Entry) Score() float64 {
	n := e.Decided()
	if n == 0 {
		return 0.5
	}
	return (float64(e.Wins) + float64(e.Draws)/2) / float64(n)
}

// LowerScore returns a pessimistic score: the lower bound of the Wilson
// interval (95%) around Score. It ranks a move that scored 60% in 300 games
// above one that won its only game.
func (e Entry) LowerScore() float64 {
	n := float64(e.Decided())
	if n == 0 {
		return 0
	}
	const z = 1.96
	p := e.Score()
	return (p + z*z/(2*n) - z*math.Sqrt(p*(1-p)/n+z*z/(4*n*n))) / (1 + z*z/n)
}

// Book is an opening book read from a file. It is immutable and safe for
// concurrent use.
type Book struct {
	info  Info
	nodes []node // sorted by key, then by position bytes
	moves []Entry
}

// node is a book position and its moves, moves[first : first+n].
type node struct {
	key   uint64
	pos   toguz.Position
	first uint32
	n     uint32
}

// Info describes a book: how it was built and its size.
type Info struct {
	Rules     toguz.Rules
	MaxPly    int    // plies from each game's start that were recorded
	MinCount  uint32 // the smallest count a kept move had to reach
	Positions int
	Moves     int
	// Description says what the book was built from, in the builder's
	// words.
	Description string
}

// Info returns what the book's header says, with its size.
func (b *Book) Info() Info { return b.info }

// Moves returns the book moves of p in the order of their move numbers,
// nil when p is not in the book. The slice belongs to the book: callers
// must not modify it. It does not allocate.
func (b *Book) Moves(p toguz.Position) []Entry {
	key := p.Key()
	lo, hi := 0, len(b.nodes)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if b.nodes[mid].key < key {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	// Positions with equal keys sit together; the whole position decides.
	for i := lo; i < len(b.nodes) && b.nodes[i].key == key; i++ {
		if nd := &b.nodes[i]; nd.pos == p {
			return b.moves[nd.first : nd.first+nd.n : nd.first+nd.n]
		}
	}
	return nil
}

// All calls yield with every position of the book and its moves, in key
// order, until yield returns false.
func (b *Book) All() func(yield func(toguz.Position, []Entry) bool) {
	return func(yield func(toguz.Position, []Entry) bool) {
		for i := range b.nodes {
			nd := &b.nodes[i]
			if !yield(nd.pos, b.moves[nd.first:nd.first+nd.n:nd.first+nd.n]) {
				return
			}
		}
	}
}

// Policy is how Pick chooses among the book moves of a position. Both
// consider only the moves played at least a tenth as often as the most
// played one: a move tried once or twice in the games is not an opening.
type Policy uint8

const (
	// Best plays the move with the highest LowerScore, the more played one
	// on a tie. It needs no random source.
	Best Policy = iota
	// Varied plays a random good move, each with a probability
	// proportional to its Count. A move is good when its Score is within
	// VariedMargin of the Best move's: so the engine varies its openings
	// without playing what the masters tried and lost.
	Varied
)

// VariedMargin is how far below the best move's Score a move may score
// and still be played by Varied.
const VariedMargin = 0.10

// Pick returns the book move to play in p under policy, and false when p
// is not in the book. rng is used by Varied only and may be nil for Best;
// with a nil rng Varied plays as Best. It does not allocate.
func (b *Book) Pick(p toguz.Position, rng *rand.Rand, policy Policy) (toguz.Move, bool) {
	es := b.Moves(p)
	if len(es) == 0 {
		return toguz.NoMove, false
	}
	var most uint32
	for _, e := range es {
		most = max(most, e.Count)
	}
	trodden := func(e Entry) bool { return uint64(e.Count)*10 >= uint64(most) }
	best := -1
	for i, e := range es {
		if trodden(e) && (best < 0 || better(e, es[best])) {
			best = i
		}
	}
	if policy != Varied || rng == nil {
		return es[best].Move, true
	}
	floor := es[best].Score() - VariedMargin
	good := func(e Entry) bool { return trodden(e) && e.Score() >= floor }
	var total uint64
	for _, e := range es {
		if good(e) {
			total += uint64(e.Count)
		}
	}
	r := rng.Uint64N(total) // total > 0: the best move is good, and Read rejects count 0
	for _, e := range es {
		if !good(e) {
			continue
		}
		if r < uint64(e.Count) {
			return e.Move, true
		}
		r -= uint64(e.Count)
	}
	return es[best].Move, true // not reached: the counts add up to total
}

// better reports whether a ranks above b for Best.
func better(a, b Entry) bool {
	la, lb := a.LowerScore(), b.LowerScore()
	if la != lb {
		return la > lb
	}
	return a.Count > b.Count
}
