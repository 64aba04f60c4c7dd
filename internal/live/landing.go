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
	side, hole := p.Landing(m)
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
