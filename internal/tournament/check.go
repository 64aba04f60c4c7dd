package tournament

import (
	"fmt"
	"slices"
	"strings"
)

// RoundCheck is one round of a Free Pairings Checker's run (FIDE C.04.A,
// the endorsement's checker): the round as the file has it and as the
// pairer pairs it again from the rounds before it.
type RoundCheck struct {
	Round int
	File  []Pair // the file's pairs, White first, the bye (Black 0) last
	Ours  []Pair // the pairer's, in the same order; nil when Err
	Err   error  // the pairer's error
}

// Same reports whether the pairer paired the round as the file does:
// the same pairs with the same colours and the same bye.
func (c RoundCheck) Same() bool {
	return c.Err == nil && PairsText(c.File) == PairsText(c.Ours)
}

// PairsText writes pairs in a canonical order, "W-B" a pair and "bye N",
// for comparing and reporting.
func PairsText(pairs []Pair) string {
	parts := make([]string, 0, len(pairs))
	byes := []string{}
	for _, p := range pairs {
		if p.Black == 0 {
			byes = append(byes, fmt.Sprintf("bye %d", p.White))
			continue
		}
		parts = append(parts, fmt.Sprintf("%d-%d", p.White, p.Black))
	}
	slices.SortFunc(parts, func(a, b string) int {
		var a1, a2, b1, b2 int
		fmt.Sscanf(a, "%d-%d", &a1, &a2)
		fmt.Sscanf(b, "%d-%d", &b1, &b2)
		if x, y := min(a1, a2), min(b1, b2); x != y {
			return x - y
		}
		return a1 - b1
	})
	return strings.Join(append(parts, byes...), " ")
}

// Check pairs every round of the event again with p from the rounds
// before it and returns each round's comparison, from round 1 to the last
// paired. In round k the players to pair are those the file pairs in
// round k (a game, forfeited or not, or the pairing-allocated bye);
// everyone else is left out as if he had asked for a zero-point bye (an
// absence, a requested bye, a withdrawal, a late entry's missed round),
// which is how the endorsed programs read a TRF. The colour drawn for
// round 1 is the event's XXC, else read from round 1 as the programs
// infer it; a file without XXR has as many rounds as it pairs (the last
// round's topscorers, C.04.3 1.7). e is not changed.
func Check(e *Event, p Pairer) ([]RoundCheck, error) {
	if err := e.Validate(); err != nil {
		return nil, err
	}
	var out []RoundCheck
	for k := 1; k <= e.Played(); k++ {
		rc := RoundCheck{Round: k, File: e.entered(k)}
		ours, err := p.Pair(e.Before(k))
		if err != nil {
			rc.Err = err
		} else {
			rc.Ours = ours
		}
		out = append(out, rc)
	}
	return out, nil
}

// Before returns a copy of the event as it stood before round k was
// paired, k from 1 to e.Played(): the rounds before k, and for round k
// only the players the event does not pair in it, left out as if they had
// asked for a zero-point bye (Check says why); the colour drawn for round
// 1 and the number of rounds filled in as Check does.
func (e *Event) Before(k int) *Event {
	c := *e
	c.Withdrawn = nil
	if c.Colour != "white1" && c.Colour != "black1" {
		c.Colour = inferColour(e)
	}
	if c.Rounds == 0 {
		c.Rounds = e.Played() // without XXR, the file's rounds are all of them
	}
	c.Players = make([]Player, len(e.Players))
	for i, pl := range e.Players {
		en := pl.Entry(k)
		pl.Rounds = slices.Clone(pl.Rounds[:min(len(pl.Rounds), k-1)])
		if en.Opponent == 0 && en.Code != PairingBye {
			code := ZeroBye
			if en.requested() {
				code = en.Code
			}
			pl.setEntry(k, Entry{Colour: NoColor, Code: code})
		}
		c.Players[i] = pl
	}
	return &c
}

// inferColour is the colour drawn for round 1 of a file without XXC, as
// the endorsed programs infer it: in the first round where anyone has a
// colour, the colour of the lowest start number paired in it, or, when he
// had the bye, the next one's reversed, and so on (round 1 alternates
// colours down the board).
func inferColour(e *Event) string {
	for r := 1; r <= e.Played(); r++ {
		var paired []*Player
		for i := range e.Players {
			en := e.Players[i].Entry(r)
			if en.Opponent > 0 || en.Code == PairingBye {
				paired = append(paired, &e.Players[i])
			}
		}
		slices.SortFunc(paired, func(a, b *Player) int { return a.Start - b.Start })
		for i, pl := range paired {
			en := pl.Entry(r)
			if en.Opponent == 0 {
				continue
			}
			white := en.Colour == White
			if i%2 == 1 {
				white = !white
			}
			if white {
				return "white1"
			}
			return "black1"
		}
	}
	return "white1"
}
