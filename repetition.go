package toguz

// Repetitions counts the occurrences of the positions of a game, for the
// event rule that the same position (board, kazans, tuzdiks and the side
// to move: Position.Key) seen for the Nth time is a draw. No federation
// text defines such a rule (docs/rules.md §3): it is an event's option, off by
// default, N set by the event.
type Repetitions struct {
	limit int
	seen  map[uint64]int
}

// NewRepetitions returns a counter that reports the limit-th occurrence;
// a limit under 2 turns the rule off.
func NewRepetitions(limit int) *Repetitions {
	return &Repetitions{limit: limit, seen: map[uint64]int{}}
}

// Add records a position of the game (the start and the position after
// each ply, in order) and reports whether it has now occurred the
// limit-th time.
func (r *Repetitions) Add(p Position) bool {
	if r.limit < 2 {
		return false
	}
	k := p.Key()
	r.seen[k]++
	return r.seen[k] >= r.limit
}

// Count returns how often p has occurred.
func (r *Repetitions) Count(p Position) int { return r.seen[p.Key()] }

// Repetition returns the ply after which the game's position occurs for
// the limit-th time (0 for the start), and false when none does or the
// limit is under 2.
func (g *Game) Repetition(limit int) (int, bool, error) {
	if limit < 2 {
		return 0, false, nil
	}
	ps, err := g.Positions()
	if err != nil {
		return 0, false, err
	}
	r := NewRepetitions(limit)
	for i, p := range ps {
		if r.Add(p) {
			return i, true, nil
		}
	}
	return 0, false, nil
}
