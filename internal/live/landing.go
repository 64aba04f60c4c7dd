package live

import "github.com/toguz/toguz"

// LandingJSON is the hole where the last stone of a move fell, as the rules
// library computes it: the board highlights it and never sows by itself.
type LandingJSON struct {
	Side string `json:"side"`
	Hole int    `json:"hole"`
}

// Landing returns where the last stone of m, legal in p, falls.
func Landing(p toguz.Position, m toguz.Move) LandingJSON {
	return landingJSON(p.Landing(m))
}

func landingJSON(side toguz.Player, hole int) LandingJSON {
	return LandingJSON{Side: colorName(side), Hole: hole}
}

// LegalHoles returns the holes the side to move may play in p, lowest
// first; none (an empty list, not null) once the game is over.
func LegalHoles(p toguz.Position) []int {
	holes := []int{}
	for m := range p.LegalMoves().All() {
		holes = append(holes, int(m))
	}
	return holes
}

// Trail returns the holes the stones of m, legal in p, fall in, one by one
// (the rules library's Position.Trail): the board animates the sowing
// along it. A hole is its number, negated for Black's: a move's message
// stays short (a stone costs two or three bytes).
func Trail(p toguz.Position, m toguz.Move) []int {
	trail := make([]int, 0, p.Stones(p.Turn(), int(m)))
	for side, hole := range p.Trail(m) {
		if side == toguz.Black {
			hole = -hole
		}
		trail = append(trail, hole)
	}
	return trail
}

// CollectedJSON is what the player not to move collects at an atsyrau: the
// stones left on his side go to his kazan.
type CollectedJSON struct {
	Side   string `json:"side"`
	Stones int    `json:"stones"`
}

// Atsyrau returns, for a game over by atsyrau in p, the stones collected
// and the position after the collection (the FEN the board shows, so that
// board and score agree); ok is false when nothing is collected.
func Atsyrau(p toguz.Position, fullMove int) (c CollectedJSON, fen string, ok bool) {
	o := p.Outcome()
	side := p.Turn().Other()
	n := p.OnBoard(side)
	if o.Termination != toguz.ByAtsyrau || n == 0 {
		return CollectedJSON{}, "", false
	}
	s := p.Setup()
	for i := range s.Board[side] {
		s.Board[side][i] = 0
	}
	s.Kazan[side] += n
	q, err := s.Position()
	if err != nil {
		return CollectedJSON{}, "", false // cannot happen: every stone is kept
	}
	return CollectedJSON{Side: colorName(side), Stones: n}, toguz.FormatFEN(q, fullMove), true
}
