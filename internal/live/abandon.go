package live

import (
	"time"

	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
)

// Defaults of the abandonment limits (Config.AbandonUntimed and
// Config.AbandonEngine).
const (
	DefaultAbandonUntimed = 7 * 24 * time.Hour
	DefaultAbandonEngine  = 6 * time.Hour
	// DefaultHeartbeat is how often a resumed hub records that it runs
	// (Config.Heartbeat): after a crash, the clocks are charged up to the
	// last heartbeat, so at most this much more than the downtime is
	// forgiven.
	DefaultHeartbeat = time.Second
)

// Abandonment says when a game that nobody plays is over. A game whose
// clocks run (a timed game after both first moves) never is: its clock
// ends it, the side that left losing on time, rated if the game is. Every
// other game is aborted (no result, never rated) when the side to move has
// not moved for:
//   - FirstMove, in a real-time game between people before both first moves
//     (the first-move timeout; 0 or less: never);
//   - the days per move, in a correspondence game before both first moves
//     (its first deadline);
//   - Engine, in a game against the engine (untimed, or before the clocks
//     run): the person never played;
//   - Untimed, in an untimed game between people.
type Abandonment struct {
	FirstMove time.Duration
	Untimed   time.Duration
	Engine    time.Duration
}

// At returns the instant a game of spec s with plies moves, the last made
// at last (the game's start when none), is abandoned if nobody moves; ok is
// false when it never is.
func (a Abandonment) At(s *game.Spec, plies int, last time.Time) (at time.Time, ok bool) {
	kind := s.TC.Kind()
	engine := s.White.IsEngine() || s.Black.IsEngine()
	var limit time.Duration
	switch {
	case kind != clock.Unlimited && plies >= 2:
		return time.Time{}, false // the clocks run
	case kind == clock.Correspondence:
		limit = time.Duration(s.TC.Days) * 24 * time.Hour
	case engine:
		limit = a.Engine
	case kind == clock.Unlimited:
		limit = a.Untimed
	default:
		limit = a.FirstMove
	}
	if limit <= 0 {
		return time.Time{}, false
	}
	return last.Add(limit), true
}

// abandonment returns the hub's limits.
func (h *Hub) abandonment() Abandonment {
	return Abandonment{FirstMove: h.cfg.FirstMoveTimeout, Untimed: h.cfg.AbandonUntimed, Engine: h.cfg.AbandonEngine}
}
