package dubov

import (
	"fmt"
	"slices"
)

// Colour is a colour a player had or is to have.
type Colour int8

const (
	None  Colour = 0
	White Colour = 1
	Black Colour = -1
)

func (c Colour) String() string {
	switch c {
	case White:
		return "White"
	case Black:
		return "Black"
	}
	return "none"
}

// Player is what the pairing knows of one player before the round.
type Player struct {
	ID     int // the tournament pairing number (TPN), 1.2: the TRF start number
	Score  int // in half points (1.3); with an acceleration, its virtual points included
	Rating int // 1.1; a provisional one where the arbiter gave it
	// Colours has one entry a round before this one: the colour of a game
	// played over the board, None for a round without one (1.6: only
	// played games count).
	Colours   []Colour
	Opponents []int // those met over the board (C1)
	// ARO is the average rating of the opponents met over the board,
	// rounded half up, 0 before a first game (1.7).
	ARO int
	// ByeReceived: the pairing-allocated bye, or a round scored without
	// playing as many points as a win (C2; the Basic Rules, art. 4).
	ByeReceived bool
	// Upfloats counts the games against an opponent with more points at
	// the time (1.8); UpfloatedLast is whether the previous round was one.
	Upfloats      int
	UpfloatedLast bool
}

// Input is one round to pair: the players to pair (absent ones left out).
type Input struct {
	Round, Rounds int // the round to pair; the rounds of the event (0: unknown, no last round)
	// InitialColour is the colour drawn for round 1 (5.2.1): the colour of
	// the higher ranked player of a pair with an odd TPN when neither has
	// played.
	InitialColour Colour
	Players       []Player
}

// Pair is one board, White first.
type Pair struct{ White, Black int }

// Pairing is a round: the boards in the published order (D.9) and the
// player with the pairing-allocated bye (0 for none).
type Pairing struct {
	Pairs []Pair
	Bye   int
}

// strength of a colour preference (1.6).
type strength int8

const (
	mild strength = iota + 1
	strong
	absolute
)

// preference returns the colour preference of a player with these played
// colours (1.6): absolute when the colour difference is beyond ±1 or the
// last two games had one colour, strong at ±1, mild at 0 (alternate), and
// mild for Black before a first game (1.6.4).
func preference(all []Colour) (Colour, strength) {
	cs := (&Player{Colours: all}).played()
	if len(cs) == 0 {
		return Black, mild
	}
	cd := 0
	for _, c := range cs {
		cd += int(c)
	}
	last := cs[len(cs)-1]
	switch {
	case cd > 1:
		return Black, absolute
	case cd < -1:
		return White, absolute
	case len(cs) >= 2 && cs[len(cs)-2] == last:
		return -last, absolute
	case cd == 1:
		return Black, strong
	case cd == -1:
		return White, strong
	}
	return -last, mild
}

// maxT is the number of upfloats that makes a player a maximum upfloater
// (1.8.2): 2 + [Rnds/5].
func maxT(rounds int) int { return 2 + rounds/5 }

func (in Input) validate() error {
	seen := map[int]bool{}
	for _, p := range in.Players {
		if p.ID < 1 {
			return fmt.Errorf("player %d: a pairing number is 1 or more", p.ID)
		}
		if seen[p.ID] {
			return fmt.Errorf("player %d appears twice", p.ID)
		}
		seen[p.ID] = true
		if slices.Contains(p.Opponents, p.ID) {
			return fmt.Errorf("player %d met himself", p.ID)
		}
	}
	if in.Round < 1 {
		return fmt.Errorf("round %d: rounds count from 1", in.Round)
	}
	return nil
}

// games returns the number of games the player played over the board.
func (p *Player) games() int {
	n := 0
	for _, c := range p.Colours {
		if c != None {
			n++
		}
	}
	return n
}

// played returns the colours of the games played over the board.
func (p *Player) played() []Colour {
	return slices.DeleteFunc(slices.Clone(p.Colours), func(c Colour) bool { return c == None })
}
