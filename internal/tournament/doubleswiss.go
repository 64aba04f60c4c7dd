package tournament

import (
	"errors"
	"fmt"
	"slices"

	"github.com/toguz/toguz/internal/tournament/doubleswiss"
)

// DoubleSwiss is FIDE's Double-Swiss system (C.04.5, from 2026): every
// pairing is a match of two games with the colours swapped. In the event
// (and its TRF file) match k is two rounds, 2k-1 (the first game) and 2k
// (the second): the same opponents, the colours reversed, a bye or an
// absence in both. Rounds (XXR) counts the file's rounds, two a match.
const DoubleSwiss System = "doubleswiss"

// DoubleSwissPAB is the pairing-allocated bye of a Double-Swiss match, a
// game won and a game drawn (C.04.5 1.4): 0.75 in each of its two rounds
// with FIDE's 1/½/0.
const DoubleSwissPAB = 0.75

// DoubleSwissPairer pairs an event by the Double-Swiss system: it
// implements Pairer. An odd round of the file (a match's first game) is a
// new pairing by package doubleswiss; an even round is the match's second
// game, the first's pairs with the colours reversed and its bye again.
//
// How the event becomes the pairing's input, match by match:
//   - the pairing number is the start number; the score is every round's
//     points (XXS), so a match counts its two games;
//   - a match was forfeited when a player forfeited both games: then it is
//     not a meeting ([C1]) and not a match played (3.4); a match won so is
//     a forfeit win, and so is a full-point bye: no pairing-allocated bye
//     after it ([C2]), nor after a pairing-allocated bye;
//   - the colour of a match is its first game's where at least one of its
//     games was played over the board (1.6);
//   - a floater of the previous match was paired against a different score
//     (1.5), the scores before that match;
//   - the last match (e.Rounds/2, when XXR is set) leaves out [C7] and [C8];
//   - the initial colour is XXC's (black1 is Black, else White).
type DoubleSwissPairer struct{}

var _ Pairer = DoubleSwissPairer{}

// Pair implements Pairer.
func (DoubleSwissPairer) Pair(e *Event) ([]Pair, error) {
	r := e.Played() + 1
	if r%2 == 0 {
		return e.secondGame(r), nil
	}
	k := (r + 1) / 2
	if r > 1 && !e.Complete(r-1) {
		return nil, fmt.Errorf("round %d still has games without a result", r-1)
	}
	in := doubleswiss.Input{Initial: doubleswiss.White}
	if e.Colour == "black1" {
		in.Initial = doubleswiss.Black
	}
	if e.Rounds > 0 && k >= (e.Rounds+1)/2 {
		in.LastRound = true
	}
	for _, s := range e.Available(r) {
		in.Players = append(in.Players, e.matchHistory(e.Player(s), k))
	}
	pairs, err := doubleswiss.Round(in)
	if errors.Is(err, doubleswiss.ErrUnpairable) {
		return nil, fmt.Errorf("match %d (round %d): %w", k, r, ErrUnpairable)
	}
	if err != nil {
		return nil, fmt.Errorf("match %d (round %d): %w", k, r, err)
	}
	out := make([]Pair, len(pairs))
	for i, p := range pairs {
		out[i] = Pair{White: p.White, Black: p.Black}
	}
	return out, nil
}

// secondGame returns the pairs of round r, a match's second game: round
// r-1's with the colours reversed, and its bye. A player who withdrew
// after the first game is paired all the same and loses the second by
// forfeit (Apply, secondGameAvailable).
func (e *Event) secondGame(r int) []Pair {
	var out []Pair
	for _, p := range e.entered(r - 1) {
		if p.Black == 0 {
			out = append(out, p)
			continue
		}
		out = append(out, Pair{White: p.Black, Black: p.White})
	}
	// Byes last, as the pairers return them.
	slices.SortStableFunc(out, func(a, b Pair) int { return boolCmp(a.Black == 0, b.Black == 0) })
	return out
}

// secondGameAvailable adds to avail, in a Double-Swiss match's second game
// (an even round r), the players who withdrew: a match once begun is
// played out, their games lost by forfeit. It reports whether r is such a
// round.
func (e *Event) secondGameAvailable(r int, avail map[int]bool) bool {
	if e.System != DoubleSwiss || r%2 == 1 {
		return false
	}
	for _, s := range e.Withdrawn {
		avail[s] = true
	}
	return true
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// matchHistory is player p's input for match k from the matches before it.
func (e *Event) matchHistory(p *Player, k int) doubleswiss.Player {
	dp := doubleswiss.Player{TPN: p.Start, Score: e.Score(p, 2*(k-1))}
	bothLost := func(q *Player, j int) bool {
		return q.Entry(2*j-1).Code == ForfeitLoss && q.Entry(2*j).Code == ForfeitLoss
	}
	for j := 1; j < k; j++ {
		g1, g2 := p.Entry(2*j-1), p.Entry(2*j)
		opp := max(g1.Opponent, g2.Opponent)
		colour := doubleswiss.None
		if g1.Played() || g2.Played() {
			colour = doubleswiss.White
			if g1.Colour == Black || (g1.Colour != White && g2.Colour == White) {
				colour = doubleswiss.Black
			}
		}
		dp.Colours = append(dp.Colours, colour)
		switch {
		case g1.Code == PairingBye || g2.Code == PairingBye || g1.Code == FullBye:
			dp.NoBye = true
		case opp > 0:
			q := e.Player(opp)
			if q == nil {
				continue
			}
			if bothLost(q, j) && !bothLost(p, j) {
				dp.NoBye = true // a match won by forfeit
			}
			if !bothLost(p, j) && !bothLost(q, j) {
				dp.Opponents = append(dp.Opponents, opp)
				dp.Matches++
			}
			if j == k-1 && e.Score(p, 2*(j-1)) != e.Score(q, 2*(j-1)) {
				dp.Floated = true
			}
		}
	}
	return dp
}

// requestMatchBye writes a bye requested for a Double-Swiss match into both
// its rounds: byes are for matches, never for one game (C.04.5, Preface).
func (e *Event) requestMatchBye(p *Player, r int, c Code) error {
	first := r - (1 - r%2) // the match's first game
	for g := first; g <= first+1; g++ {
		if g <= e.Played() {
			return fmt.Errorf("round %d (match %d) is already paired", g, (first+1)/2)
		}
		if !p.Entry(g).None() {
			return fmt.Errorf("player %d already has an entry in round %d", p.Start, g)
		}
	}
	p.setEntry(first, Entry{Colour: NoColor, Code: c})
	p.setEntry(first+1, Entry{Colour: NoColor, Code: c})
	return nil
}

// checkMatches checks what a Double-Swiss file must hold: the two rounds
// of a match have the same opponent with the colours reversed, or the same
// bye.
func (e *Event) checkMatches() error {
	for i := range e.Players {
		p := &e.Players[i]
		for g := 1; g+1 <= len(p.Rounds); g += 2 {
			a, b := p.Entry(g), p.Entry(g+1)
			if b.None() && g+1 > e.Played() {
				continue
			}
			if a.Opponent != b.Opponent {
				return fmt.Errorf("player %d: rounds %d and %d are one match (Double-Swiss) but have opponents %d and %d", p.Start, g, g+1, a.Opponent, b.Opponent)
			}
			if a.Opponent > 0 && a.Colour == b.Colour && a.Colour != NoColor {
				return fmt.Errorf("player %d: rounds %d and %d are one match (Double-Swiss) but both have %c", p.Start, g, g+1, a.Colour)
			}
			if a.Opponent == 0 && a.Code != b.Code && !(a.Code == ForfeitLoss || b.Code == ForfeitLoss) {
				return fmt.Errorf("player %d: rounds %d and %d are one match (Double-Swiss) but have the byes %c and %c", p.Start, g, g+1, a.Code, b.Code)
			}
		}
	}
	return nil
}

// matchesPlayed returns the event as a Double-Swiss's standings and
// tie-breaks see it: a match is forfeited only when a player forfeited
// both games; in every other match a game forfeited is treated as played
// (C.04.5, Preface): a win and a loss, 0-0 where both forfeited it. It is e
// itself when nothing changes (not a Double-Swiss, no such game). Ratings
// never see it.
func (e *Event) matchesPlayed() *Event {
	if e.System != DoubleSwiss {
		return e
	}
	var v *Event
	for i := range e.Players {
		p := &e.Players[i]
		for g := 1; g+1 <= len(p.Rounds); g += 2 {
			a, b := p.Entry(g), p.Entry(g+1)
			q := e.Player(max(a.Opponent, b.Opponent))
			if q == nil || a.Opponent != b.Opponent || !isForfeit(a.Code) && !isForfeit(b.Code) {
				continue
			}
			if (a.Code == ForfeitLoss && b.Code == ForfeitLoss) || (q.Entry(g).Code == ForfeitLoss && q.Entry(g+1).Code == ForfeitLoss) {
				continue // a forfeited match
			}
			if v == nil {
				c := *e
				c.Players = slices.Clone(e.Players)
				for j := range c.Players {
					c.Players[j].Rounds = slices.Clone(c.Players[j].Rounds)
				}
				v = &c
			}
			for _, r := range []int{g, g + 1} {
				en := &v.Players[i].Rounds[r-1]
				switch en.Code {
				case ForfeitWin:
					en.Code = Win
				case ForfeitLoss:
					en.Code = Loss
				}
			}
		}
	}
	if v == nil {
		return e
	}
	return v
}

func isForfeit(c Code) bool { return c == ForfeitWin || c == ForfeitLoss }

// standingsOf is v's standings (v = e.matchesPlayed()) with e's players.
func (v *Event) standingsOf(e *Event, rounds int) []Standing {
	st := v.Standings(rounds)
	for i := range st {
		st[i].Player = e.Player(st[i].Player.Start)
	}
	return st
}
