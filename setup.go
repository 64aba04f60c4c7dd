package toguz

import (
	"errors"
	"fmt"
)

// Setup is an editable description of a position: what a position editor
// fills in and what the position notations read. Setup.Position checks it.
type Setup struct {
	Rules Rules
	// Board[pl][h-1] is the number of stones in pl's hole h. Each row has
	// Rules.Holes entries.
	Board [2][]int
	// Kazan holds the stones each player has captured.
	Kazan [2]int
	// Tuzdik[pl] is the number of the opponent's hole that pl owns, or 0.
	Tuzdik [2]int
	Turn   Player
}

// ErrPosition is wrapped by every error about an impossible position.
var ErrPosition = errors.New("impossible position")

// Position checks the setup and returns the position it describes. The
// error names the first thing that is wrong.
func (s Setup) Position() (Position, error) {
	r := s.Rules
	if err := r.Validate(); err != nil {
		return Position{}, err
	}
	bad := func(format string, args ...any) (Position, error) {
		return Position{}, fmt.Errorf("%w: %s", ErrPosition, fmt.Sprintf(format, args...))
	}
	if s.Turn != White && s.Turn != Black {
		return bad("no such player to move: %d", s.Turn)
	}
	p := emptyPosition(r)
	p.setTurn(s.Turn)
	total := 0
	for pl := White; pl <= Black; pl++ {
		if len(s.Board[pl]) != r.Holes {
			return bad("%s has %d holes, want %d", pl, len(s.Board[pl]), r.Holes)
		}
		for h, n := range s.Board[pl] {
			if n < 0 || n > 255 {
				return bad("%s hole %d holds %d stones", pl, h+1, n)
			}
			p.setHole(p.ring(pl, h+1), n)
			total += n
		}
		if s.Kazan[pl] < 0 || s.Kazan[pl] > r.Total() {
			return bad("%s kazan holds %d stones", pl, s.Kazan[pl])
		}
		p.setKazan(pl, s.Kazan[pl])
		total += s.Kazan[pl]
	}
	if total != r.Total() {
		return bad("%d stones in all, want %d", total, r.Total())
	}
	for pl := White; pl <= Black; pl++ {
		t := s.Tuzdik[pl]
		if t == 0 {
			continue
		}
		opp := pl.Other()
		switch {
		case !r.Tuzdik:
			return bad("%s has a tuzdik but the ruleset %s has none", pl, r)
		case t < 0 || t > r.Holes:
			return bad("%s's tuzdik is on hole %d, which does not exist", pl, t)
		case t == r.Holes:
			return bad("%s's tuzdik is on %s's hole %d, the last hole, which can never be a tuzdik", pl, opp, t)
		case s.Tuzdik[opp] == t:
			return bad("both tuzdiks are on hole %d", t)
		case s.Board[opp][t-1] != 0:
			return bad("%s's tuzdik, %s's hole %d, holds %d stones", pl, opp, t, s.Board[opp][t-1])
		case s.Kazan[pl] < 3:
			return bad("%s has a tuzdik but only %d stones in his kazan", pl, s.Kazan[pl])
		}
		p.setTuzdikRing(pl, uint8(p.ring(opp, t)))
	}
	return p, nil
}

// Setup returns the editable description of p.
func (p Position) Setup() Setup {
	s := Setup{Rules: p.Rules(), Turn: p.Turn()}
	for pl := White; pl <= Black; pl++ {
		s.Board[pl] = make([]int, p.Holes())
		for h := range s.Board[pl] {
			s.Board[pl][h] = p.Stones(pl, h+1)
		}
		s.Kazan[pl] = p.Kazan(pl)
		s.Tuzdik[pl] = p.Tuzdik(pl)
	}
	return s
}
