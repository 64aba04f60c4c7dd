package engine

import (
	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/tablebase"
)

// Tablebase is what the search asks of an endgame tablebase: results and
// distances to the end (tablebase.Tables provides them); TablebaseScore
// makes them scores. Neither probe may allocate.
type Tablebase interface {
	// ProbeDTM returns the result of p for the side to move and the plies
	// to the end, ok=false when the tables hold no distance for p.
	ProbeDTM(p toguz.Position) (result tablebase.WDL, plies int, ok bool)
	// ProbeWDL returns the result of p for the side to move, ok=false
	// when p is not in the tables.
	ProbeWDL(p toguz.Position) (tablebase.WDL, bool)
}

var _ Tablebase = (*tablebase.Tables)(nil)

// TablebaseScore returns the exact score of p for the side to move that
// the search takes from tb, ok=false when p is not in the tables. A win or
// loss in n plies is ±(MateScore − n) and a draw 0. Where the tables hold
// the result but not its distance, a win is KnownWin less the stones on the
// board and a loss its negation. It does not allocate.
func TablebaseScore(tb Tablebase, p *toguz.Position) (Score, bool) {
	if result, plies, ok := tb.ProbeDTM(*p); ok {
		switch result {
		case tablebase.Win:
			return MateScore - Score(plies), true
		case tablebase.Loss:
			return -MateScore + Score(plies), true
		}
		return 0, true
	}
	w, ok := tb.ProbeWDL(*p)
	if !ok {
		return 0, false
	}
	known := KnownWin - Score(p.OnBoard(toguz.White)+p.OnBoard(toguz.Black))
	switch w {
	case tablebase.Win:
		return known, true
	case tablebase.Loss:
		return -known, true
	}
	return 0, true
}
