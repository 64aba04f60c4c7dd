package engine

import (
	"time"

	"github.com/toguz/toguz"
)

// levelDepth returns the depth limit of a weaker level, within the
// caller's limit if there is one.
func levelDepth(level, limit int) int {
	d := [MaxLevel + 1]int{0, 1, 2, 2, 3, 4, 5, 6, 8, 10, 0}[level]
	if limit > 0 {
		d = min(d, limit)
	}
	return d
}

// levelMargin is how far below the best score (hundredths of a stone) a root
// move may be and still be chosen at a level.
var levelMargin = [MaxLevel + 1]Score{0, 400, 300, 250, 200, 150, 120, 80, 50, 25, 0}

// choose picks the move of a weaker level among the root moves whose scores
// are within the level's margin of the best, lighter weights for worse
// moves. It never picks a move that loses by force when another does not.
func (e *Engine) choose(w *worker, res Result) Result {
	if w.completed == 0 || w.nroot < 2 {
		return res
	}
	best := w.root[0].score
	margin := levelMargin[e.opts.Level]
	var weights [toguz.MaxHoles]int
	total := 0
	for i := range w.nroot {
		s := w.root[i].score
		if s < best-margin || (s.IsMate() && s < 0 && !best.IsMate()) || (best.IsMate() && best > 0 && s != best) {
			continue
		}
		// Linear weight: the best move gets margin+1, a move at the margin 1.
		weights[i] = int(margin-(best-s)) + 1
		total += weights[i]
	}
	r := e.rng.IntN(total)
	pick := 0
	for i := range w.nroot {
		if r < weights[i] {
			pick = i
			break
		}
		r -= weights[i]
	}
	rm := &w.root[pick]
	res.Best, res.Score = rm.move, rm.score
	res.PV = append([]toguz.Move(nil), rm.pv[:rm.pvLen]...)
	res.Ponder = toguz.NoMove
	if len(res.PV) > 1 {
		res.Ponder = res.PV[1]
	}
	return res
}

// LevelMoveTime is the most time the engine spends on a move at a level
// (the clock may allow less): quick at the low levels, a second at the top.
func LevelMoveTime(level int) time.Duration {
	return time.Duration(50+level*level*10) * time.Millisecond
}
