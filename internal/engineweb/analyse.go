package engineweb

import (
	"context"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
)

// Request is an analysis: the position, the number of lines (MultiPV) and
// the limits; a zero depth and movetime search until stopped.
type Request struct {
	Position
	MultiPV  int `json:"multipv"`
	Depth    int `json:"depth"`
	MoveTime int `json:"movetime"` // milliseconds
}

// Bounds cap what a Request may ask: the server's answers come from its
// own CPUs. A zero field caps nothing; an unlimited search is refused
// wherever MaxTime is set.
type Bounds struct {
	MaxDepth int
	MaxTime  time.Duration
}

// Limits returns the engine's limits of r within b, and its line count.
func (r Request) Limits(b Bounds) (engine.Limits, int, error) {
	switch {
	case r.MultiPV < 0 || r.MultiPV > engine.MaxMultiPV:
		return engine.Limits{}, 0, badf("multipv %d, want 1..%d", r.MultiPV, engine.MaxMultiPV)
	case r.Depth < 0 || r.MoveTime < 0:
		return engine.Limits{}, 0, badf("a negative depth or movetime")
	}
	lim := engine.Limits{Depth: r.Depth, MoveTime: time.Duration(r.MoveTime) * time.Millisecond}
	if b.MaxDepth > 0 && (lim.Depth == 0 || lim.Depth > b.MaxDepth) {
		lim.Depth = b.MaxDepth
	}
	if b.MaxTime > 0 && (lim.MoveTime == 0 || lim.MoveTime > b.MaxTime) {
		lim.MoveTime = b.MaxTime
	}
	if lim.Depth == 0 && lim.MoveTime == 0 {
		lim.Infinite = true
	}
	return lim, max(r.MultiPV, 1), nil
}

// LineJSON is one engine line: its score in hundredths of a stone from
// White's point of view, or, for a proven result, Mate: the plies to the
// end, negative when Black wins; the line in holes and in score-sheet
// notation.
type LineJSON struct {
	Score    int      `json:"score"`
	Mate     *int     `json:"mate,omitempty"`
	PV       []int    `json:"pv"`
	Notation []string `json:"notation"`
}

// InfoJSON is one completed iteration with all its lines, best first.
type InfoJSON struct {
	Type     string     `json:"type"` // "info"
	Depth    int        `json:"depth"`
	SelDepth int        `json:"seldepth"`
	MultiPV  int        `json:"multipv"`
	Lines    []LineJSON `json:"lines"`
	Nodes    uint64     `json:"nodes"`
	NPS      uint64     `json:"nps"`
	TimeMS   int64      `json:"time_ms"`
}

// BestJSON is the end of an analysis: the best move (0 when the game is
// over), its notation, the last complete iteration and, from the server
// only (the browser holds no endgame tables), the tablebase's result.
type BestJSON struct {
	Type      string         `json:"type"` // "bestmove"
	Move      int            `json:"move"`
	Notation  string         `json:"notation,omitempty"`
	Info      *InfoJSON      `json:"info,omitempty"`
	Tablebase *TablebaseJSON `json:"tablebase,omitempty"`
}

// TablebaseJSON is the exact result of a position an endgame tablebase
// holds, from White's view: "1-0", "0-1" or "1/2-1/2", and the plies to
// the end under best play (absent when the tables hold the result only).
type TablebaseJSON struct {
	Result string `json:"result"`
	Plies  *int   `json:"plies,omitempty"`
}

// Searcher runs one search of p with multiPV lines: an engine of its own
// in the browser, a turn of the server's analysis pool there.
type Searcher func(ctx context.Context, p toguz.Position, multiPV int, lim engine.Limits, info func(engine.Info)) (engine.Result, error)

// EngineSearcher searches with e, which must not be used elsewhere at the
// same time.
func EngineSearcher(e *engine.Engine) Searcher {
	return func(ctx context.Context, p toguz.Position, multiPV int, lim engine.Limits, info func(engine.Info)) (engine.Result, error) {
		opts := e.Options()
		opts.MultiPV = multiPV
		if err := e.SetOptions(opts); err != nil {
			return engine.Result{}, err
		}
		return e.Search(ctx, p, lim, info), nil
	}
}

// line converts an engine line of p.
func line(p toguz.Position, s engine.Score, pv []toguz.Move) LineJSON {
	sign := 1
	if p.Turn() == toguz.Black {
		sign = -1
	}
	l := LineJSON{Score: sign * int(s), PV: []int{}, Notation: []string{}}
	if s.IsMate() {
		n := sign * s.MatePlies()
		l.Mate = &n
	}
	q := p
	for _, m := range pv {
		if q.CheckMove(m) != nil {
			break
		}
		y, next := q.Ply(m)
		l.PV, l.Notation = append(l.PV, int(m)), append(l.Notation, y.String())
		q = next
	}
	return l
}

// Analyse analyses r with search within b, calling info after each
// completed iteration with all its lines.
func Analyse(ctx context.Context, search Searcher, r Request, b Bounds, info func(InfoJSON)) (BestJSON, error) {
	p, _, err := r.Parse()
	if err != nil {
		return BestJSON{}, err
	}
	lim, multiPV, err := r.Limits(b)
	if err != nil {
		return BestJSON{}, err
	}
	best := BestJSON{Type: "bestmove"}
	if p.IsOver() {
		return best, nil
	}
	n := min(multiPV, p.LegalMoves().Len())
	var cur InfoJSON
	var last *InfoJSON
	res, err := search(ctx, p, multiPV, lim, func(in engine.Info) {
		if in.MultiPV == 1 {
			cur = InfoJSON{Type: "info", Depth: in.Depth, SelDepth: in.SelDepth, MultiPV: n, Nodes: in.Nodes, TimeMS: in.Time.Milliseconds()}
			if ms := in.Time.Milliseconds(); ms > 0 {
				cur.NPS = in.Nodes * 1000 / uint64(ms)
			}
		}
		cur.Lines = append(cur.Lines, line(p, in.Score, in.PV))
		if in.MultiPV == n {
			done := cur
			last = &done
			if info != nil {
				info(done)
			}
		}
	})
	if err != nil {
		return best, err
	}
	if res.Best != toguz.NoMove {
		best.Move = int(res.Best)
		y, _ := p.Ply(res.Best)
		best.Notation = y.String()
	}
	best.Info = last
	return best, nil
}
