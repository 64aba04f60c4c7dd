package engine

import (
	"time"

	"github.com/toguz/toguz"
)

// Limits say when a search stops. Every zero field is "no limit"; with no
// limit at all the search runs until ctx is cancelled.
type Limits struct {
	Depth     int              // 0: no limit
	Nodes     uint64           // 0: no limit
	MoveTime  time.Duration    // 0: none; fixed time for this move
	Time, Inc [2]time.Duration // remaining clock and increment per player, White first; 0: no clock
	MovesToGo int              // moves to the next time control; 0: sudden death
	Infinite  bool             // search until ctx is cancelled
	// Yield, when not nil, is called by the main search thread every
	// thousand nodes or so. The browser's build (internal/engineweb) gives
	// its event loop a turn there, so that a stop can reach a search that
	// runs on the worker's only thread.
	Yield func()
}

// Time management constants.
const (
	// moveOverhead is kept back from every clock for the protocol, the
	// operating system and the referee.
	moveOverhead = 30 * time.Millisecond
	// suddenDeathMoves is how many more moves a game under sudden death is
	// assumed to last; a Toguz Kumalak game is 40–60 moves a side.
	suddenDeathMoves = 22
)

// budget returns the time the search aims at (soft: no new iteration is
// started after 60% of it) and the time it never exceeds (hard); 0 means no
// time limit.
func budget(lim Limits, turn toguz.Player) (soft, hard time.Duration) {
	if lim.Infinite {
		return 0, 0
	}
	if lim.MoveTime > 0 {
		t := lim.MoveTime - min(lim.MoveTime/20, 10*time.Millisecond)
		return t, t
	}
	left, inc := lim.Time[turn], lim.Inc[turn]
	if left <= 0 && inc <= 0 {
		return 0, 0
	}
	usable := max(left-moveOverhead, left/10)
	moves := suddenDeathMoves
	if lim.MovesToGo > 0 {
		moves = min(lim.MovesToGo, suddenDeathMoves)
	}
	soft = usable/time.Duration(moves) + inc*3/4
	// The hard limit spends at most half of the increment on top of a third
	// of the clock, so that a low clock climbs back by the other half
	// rather than settling a few milliseconds above zero, where any delay
	// of a loaded machine loses on time.
	hard = min(soft*4, usable/3+inc/2)
	hard = max(min(hard, usable), time.Millisecond)
	soft = max(min(soft, hard), time.Millisecond)
	return soft, hard
}
