package tournament

import (
	"errors"
	"fmt"
)

// Berger returns round r (1-based) of the Berger table for n players (FIDE
// C.05 Annex 1), White first, board 1 first. For an odd n the table is
// that of n+1 and the pair with player n+1, the dummy, is returned with
// Black 0: the bye.
//
// The table is built the way the Annex prints it: round 1 is 1–n, 2–(n−1),
// …; each next round adds n/2 (mod n−1, in 1..n−1) to every player but n,
// who plays board 1 with Black in the odd rounds and with White in the even
// ones. TestBergerTables checks it against the printed tables.
func Berger(n, r int) ([]Pair, error) {
	if n < 2 {
		return nil, fmt.Errorf("a round robin needs 2 players or more, not %d", n)
	}
	odd := n%2 == 1
	if odd {
		n++
	}
	if r < 1 || r > n-1 {
		return nil, fmt.Errorf("a round robin of %d players has rounds 1 to %d, not %d", n, n-1, r)
	}
	m := n - 1
	shift := (r - 1) * (n / 2)
	at := func(k int) int { return (k-1+shift)%m + 1 } // the player at table place k
	pairs := make([]Pair, 0, n/2)
	first := at(1)
	if r%2 == 1 {
		pairs = append(pairs, Pair{first, n})
	} else {
		pairs = append(pairs, Pair{n, first})
	}
	for k := 2; k <= n/2; k++ {
		pairs = append(pairs, Pair{at(k), at(n + 1 - k)})
	}
	if odd {
		for i, p := range pairs {
			switch n {
			case p.White:
				pairs[i] = Pair{p.Black, 0}
			case p.Black:
				pairs[i] = Pair{p.White, 0}
			}
		}
		// The bye goes last, as pairing programs print it.
		pairs = append(append(pairs[:0:0], without(pairs, 0)...), pairs[0])
	}
	return pairs, nil
}

func without(pairs []Pair, i int) []Pair {
	out := make([]Pair, 0, len(pairs)-1)
	out = append(out, pairs[:i]...)
	return append(out, pairs[i+1:]...)
}

// BergerRounds returns the number of rounds of a single round robin of n
// players: n−1, or n when n is odd (everyone has one bye).
func BergerRounds(n int) int {
	if n%2 == 1 {
		return n
	}
	return n - 1
}

// DoubleBerger returns round r of a double round robin of n players. The
// second cycle is the first with the colours reversed. As C.05 Annex 1
// recommends, the last two rounds of the first cycle are played in
// reverse order: without it the players who end the first cycle and
// begin the second with the same colour would have it three times running.
func DoubleBerger(n, r int) ([]Pair, error) {
	k := BergerRounds(n)
	if r < 1 || r > 2*k {
		return nil, fmt.Errorf("a double round robin of %d players has rounds 1 to %d, not %d", n, 2*k, r)
	}
	if r > k {
		pairs, err := Berger(n, r-k)
		for i, p := range pairs {
			if p.Black != 0 {
				pairs[i] = Pair{p.Black, p.White}
			}
		}
		return pairs, err
	}
	if k >= 3 && r >= k-1 {
		r = 2*k - 1 - r // k-1 ↔ k
	}
	return Berger(n, r)
}

// RoundRobinPairer pairs by the Berger tables, single or double.
type RoundRobinPairer struct{ Double bool }

// Pair implements Pairer.
func (rr RoundRobinPairer) Pair(e *Event) ([]Pair, error) {
	n := len(e.Players)
	r := e.Played() + 1
	total := BergerRounds(n)
	if rr.Double {
		total *= 2
	}
	if r > total {
		return nil, fmt.Errorf("all %d rounds of the round robin are paired", total)
	}
	if r > 1 && !e.Complete(r-1) {
		return nil, fmt.Errorf("round %d still has games without a result", r-1)
	}
	var pairs []Pair
	var err error
	if rr.Double {
		pairs, err = DoubleBerger(n, r)
	} else {
		pairs, err = Berger(n, r)
	}
	if err != nil {
		return nil, err
	}
	// A round robin's table is fixed: a player who asked for a bye or
	// withdrew is paired all the same and the arbiter scores the game as a
	// forfeit (SetResult); his pairs are kept so the table stays C.05's.
	return pairs, nil
}

// Pairer pairs the next round of an event. The round to pair is
// e.Played()+1; the players to pair are e.Available of it (those with a
// requested bye already have that round's H or Z entry, as the FIDE pairing
// programs' convention has it). It returns the pairs, White first, with
// Black 0 for the pairing-allocated bye, and must not change e. The Dutch
// system's adapter, dutch.Pairer (package internal/tournament/dutch, which
// imports this one), satisfies it.
type Pairer interface {
	Pair(e *Event) ([]Pair, error)
}

// ErrNoSwiss is returned for the Dutch system while no Swiss pairer is
// connected.
var ErrNoSwiss = errors.New("the Dutch (Swiss) pairing is not available in this build")

// ErrUnpairable is wrapped by a pairer's error when no pairing of the
// round satisfies the system's absolute criteria (a small field with many
// rounds, say).
var ErrUnpairable = errors.New("no pairing satisfies the absolute criteria")

// PairerFor returns the pairer of a system; swiss is the Swiss pairer
// (the Dutch one, which reads the event's system for the acceleration, or a
// BySystem for every Swiss system), nil while none is connected.
func PairerFor(s System, swiss Pairer) (Pairer, error) {
	switch s {
	case RoundRobin:
		return RoundRobinPairer{}, nil
	case DoubleRoundRobin:
		return RoundRobinPairer{Double: true}, nil
	case Knockout:
		return KnockoutPairer{}, nil
	case Dutch, DutchBaku:
		if swiss == nil {
			return nil, ErrNoSwiss
		}
		return swiss, nil
	case TeamSwiss: // swiss pairs teams when the event's system says so (teamswiss.Pairer)
		return swissOrErr(swiss)
	case DoubleSwiss:
		return DoubleSwissPairer{}, nil
	case Dubov: // swiss pairs by the event's system (BySystem)
		return swissOrErr(swiss)
	case Burstein: // swiss pairs by the event's system (BySystem)
		return swissOrErr(swiss)
	}
	return nil, fmt.Errorf("unknown pairing system %q", s)
}

func swissOrErr(swiss Pairer) (Pairer, error) {
	if swiss == nil {
		return nil, ErrNoSwiss
	}
	return swiss, nil
}

// BySystem is a Pairer for every Swiss system a build connects: it pairs
// an event with the pairer of its System. The command and the server give
// PairerFor one, so that the pairing packages (which import this one) plug
// in without this package importing them.
type BySystem map[System]Pairer

// Pair implements Pairer.
func (b BySystem) Pair(e *Event) ([]Pair, error) {
	p, ok := b[e.System]
	if !ok && e.System == "" {
		p, ok = b[Dutch] // a TRF without XXY
	}
	if !ok {
		return nil, fmt.Errorf("%w: no pairer for the system %q", ErrNoSwiss, e.System)
	}
	return p.Pair(e)
}

// PairNext pairs the next round with p and applies it to the event.
func PairNext(e *Event, p Pairer) (int, []Pair, error) {
	r := e.Played() + 1
	if e.Rounds > 0 && r > e.Rounds {
		return 0, nil, fmt.Errorf("the event has %d rounds, all paired", e.Rounds)
	}
	pairs, err := p.Pair(e)
	if err != nil {
		return 0, nil, err
	}
	if err := e.Apply(r, pairs); err != nil {
		return 0, nil, fmt.Errorf("the pairing of round %d: %w", r, err)
	}
	return r, pairs, nil
}
