package book

import (
	"fmt"
	"math/rand/v2"

	"github.com/toguz/toguz"
)

// Set holds the opening books of several rulesets, at most one each. It
// answers a position from its own ruleset's book only: the engine is given
// every book at once and a variant's position never reaches the standard
// game's book. It is immutable and safe for concurrent use; its lookups do
// not allocate.
type Set struct {
	books []*Book // a scan of a few is cheaper than a map of Rules
}

// NewSet returns the set of the books given (nil ones are left out). Two
// books of one ruleset are an error: which one answers would be a guess.
func NewSet(books ...*Book) (*Set, error) {
	s := &Set{}
	for _, b := range books {
		if b == nil {
			continue
		}
		if s.For(b.info.Rules) != nil {
			return nil, fmt.Errorf("book: two books of the ruleset %s", b.info.Rules)
		}
		s.books = append(s.books, b)
	}
	return s, nil
}

// For returns the book of rules in the set, nil when it has none.
func (s *Set) For(rules toguz.Rules) *Book {
	for _, b := range s.books {
		if b.info.Rules == rules {
			return b
		}
	}
	return nil
}

// All returns the books of the set, in the order they were given.
func (s *Set) All() []*Book { return s.books }

// Moves is Book.Moves in the book of p's ruleset; nil when the set has
// none.
func (s *Set) Moves(p toguz.Position) []Entry {
	if b := s.For(p.Rules()); b != nil {
		return b.Moves(p)
	}
	return nil
}

// Pick is Book.Pick in the book of p's ruleset; false when the set has
// none.
func (s *Set) Pick(p toguz.Position, rng *rand.Rand, policy Policy) (toguz.Move, bool) {
	if b := s.For(p.Rules()); b != nil {
		return b.Pick(p, rng, policy)
	}
	return toguz.NoMove, false
}
