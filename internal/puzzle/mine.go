package puzzle

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/tablebase"
)

// Config is what a Miner and a Verifier search with. The defaults
// (DefaultConfig) are the ones the shipped puzzles were mined with.
type Config struct {
	Shallow int // depth of the cheap first look at every candidate position
	Deep    int // depth of the proof on the candidates the shallow search kept
	// MarginStones is the least lead, in stones, of the solution over the
	// second best move for the goal Stones.
	MarginStones int
	HashMB       int
	// Stable is how many of the deep search's last iterations must find the
	// same move alone in reaching the goal (a win may be seen as stones at
	// the shallower ones).
	Stable int
	// Tablebase, when set, is probed at every node of the searches, and a
	// position whose children it all holds is judged by it exactly.
	Tablebase engine.Tablebase
	// MaxMoves is the most solver's moves a mined puzzle judges (0 or 1:
	// one). The line goes on, as lichess's do, while after the opponent's
	// best reply the solver again has one move alone in reaching the goal,
	// proven as the first was.
	MaxMoves int
}

// DefaultConfig is the miner's configuration of the shipped puzzles.
func DefaultConfig() Config {
	return Config{Shallow: 4, Deep: 9, Stable: 4, MarginStones: 5, HashMB: 8, MaxMoves: 3}
}

// VerifyDepth is the depth of the soundness test: deeper than the miner's
// proof (DefaultConfig().Deep).
const VerifyDepth = 10

// Scored is a root move and its score from the side to move's view.
type Scored struct {
	Move  toguz.Move
	Score engine.Score
	PV    []toguz.Move
}

// Analysis is one search of every root move of a position to a depth.
type Analysis struct {
	Depth int
	Moves []Scored // best first
	// Best[d] is the best move after iteration d (index 0 unused).
	Best []toguz.Move
	// ByDepth[d] is the lines of iteration d, best first (index 0 unused).
	ByDepth [][]Scored
}

// Searcher searches positions with every root move scored (MultiPV over
// all moves), deterministically: one thread, the table cleared before
// each search.
type Searcher struct {
	e *engine.Engine
}

// NewSearcher makes a Searcher.
func NewSearcher(cfg Config) (*Searcher, error) {
	o := engine.DefaultOptions()
	o.Threads = 1
	o.HashMB = max(1, cfg.HashMB)
	o.MultiPV = toguz.MaxHoles
	o.Tablebase = cfg.Tablebase
	e, err := engine.New(o)
	if err != nil {
		return nil, fmt.Errorf("puzzle searcher: %w", err)
	}
	return &Searcher{e: e}, nil
}

// Analyse searches p to depth with every root move scored.
func (s *Searcher) Analyse(ctx context.Context, p toguz.Position, depth int) Analysis {
	s.e.NewGame()
	a := Analysis{Depth: depth, Best: make([]toguz.Move, depth+1)}
	a.ByDepth = make([][]Scored, depth+1)
	s.e.Search(ctx, p, engine.Limits{Depth: depth}, func(in engine.Info) {
		if len(in.PV) == 0 || in.Depth > depth {
			return
		}
		if in.MultiPV == 1 {
			a.Best[in.Depth] = in.PV[0]
		}
		a.ByDepth[in.Depth] = append(a.ByDepth[in.Depth], Scored{Move: in.PV[0], Score: in.Score, PV: in.PV})
	})
	for _, ls := range a.ByDepth {
		slices.SortStableFunc(ls, func(x, y Scored) int { return int(y.Score) - int(x.Score) })
	}
	a.Moves = a.ByDepth[depth]
	return a
}

// Classify returns the goal the best move of a reaches alone, and its
// margin over the second best; ok=false when no move is alone in reaching
// any goal. A proven win (Score.MatePlies > 0) alone is Win; a move that is
// not a proven loss when every other is, is Save; otherwise a lead of at
// least marginStones stones is Stones.
func Classify(a Analysis, marginStones int) (g Goal, margin int, ok bool) {
	if len(a.Moves) < 2 {
		return 0, 0, false
	}
	best, second := a.Moves[0].Score, a.Moves[1].Score
	won := func(s engine.Score) bool { return s.IsMate() && s.MatePlies() > 0 || s == engine.MateScore }
	lost := func(s engine.Score) bool { return s.IsMate() && s.MatePlies() < 0 || s == -engine.MateScore }
	switch {
	case won(best) && !won(second):
		return Win, 0, true
	case !lost(best) && lost(second):
		return Save, 0, true
	case won(best) || lost(best) || won(second) || lost(second):
		return 0, 0, false
	case int(best-second) >= 100*marginStones:
		return Stones, int(best - second), true
	}
	return 0, 0, false
}

// firstDepth is the depth from which the best move stays m to the end.
func firstDepth(a Analysis, m toguz.Move) int {
	d := a.Depth
	for d > 1 && a.Best[d-1] == m {
		d--
	}
	return d
}

// Candidate is a position offered to the miner and where it comes from.
type Candidate struct {
	Pos    toguz.Position
	Source string
}

// Miner turns candidate positions into proven puzzles.
type Miner struct {
	cfg             Config
	shallow, deep   *Searcher
	Examined, Found int
}

// NewMiner makes a Miner.
func NewMiner(cfg Config) (*Miner, error) {
	sh, err := NewSearcher(Config{HashMB: 1, Tablebase: cfg.Tablebase})
	if err != nil {
		return nil, err
	}
	dp, err := NewSearcher(cfg)
	if err != nil {
		return nil, err
	}
	return &Miner{cfg: cfg, shallow: sh, deep: dp}, nil
}

// Worth reports whether a position can be a puzzle at all: a standard
// game in progress with a choice of moves.
func Worth(p toguz.Position) bool {
	return p.Rules() == toguz.Standard() && !p.IsOver() && p.LegalMoves().Len() >= 2
}

// Mine examines one candidate: the shallow search must find one move alone
// in reaching a goal, the deep search must agree (same move, same goal),
// and the tablebase, when it holds every child, must confirm it exactly.
// The puzzle then goes on (Extend) while the solver keeps a move alone in
// reaching the goal after the opponent's best reply.
func (m *Miner) Mine(ctx context.Context, c Candidate) (Puzzle, bool) {
	if !Worth(c.Pos) {
		return Puzzle{}, false
	}
	m.Examined++
	st, ok := m.prove(ctx, c.Pos, 0)
	if !ok {
		return Puzzle{}, false
	}
	pz := Puzzle{
		ID: strconv.FormatUint(c.Pos.Key(), 16), Start: c.Pos, Goal: st.goal, Solution: st.line, Moves: 1,
		Depth: st.depth, Margin: st.margin, Source: c.Source,
	}
	pz.Themes = Themes(c.Pos, pz.Solution)
	if st.tablebase {
		pz.Themes = append(pz.Themes, Tablebase)
	}
	pz = m.Extend(ctx, pz)
	m.Found++
	return pz, true
}

// step is one proven move of a puzzle.
type step struct {
	goal      Goal
	line      []toguz.Move // the move, then the deep search's line
	depth     int          // firstDepth of the move
	margin    int
	tablebase bool // the tablebase held every child and agreed
}

// prove runs the proof of Mine on p: one move alone in reaching a goal at
// the shallow and the deep search and the deep search's last iterations,
// confirmed by the tablebase where it holds every child. want, when not 0,
// is the goal the move must reach (a later move of a puzzle: its goal, or
// a win for a puzzle of stones).
func (m *Miner) prove(ctx context.Context, p toguz.Position, want Goal) (step, bool) {
	sa := m.shallow.Analyse(ctx, p, m.cfg.Shallow)
	g, _, ok := Classify(sa, m.cfg.MarginStones)
	if !ok || ctx.Err() != nil || want != 0 && g != want && !(want == Stones && g == Win) {
		return step{}, false
	}
	da := m.deep.Analyse(ctx, p, m.cfg.Deep)
	dg, margin, ok := Classify(da, m.cfg.MarginStones)
	if !ok || dg != g || da.Moves[0].Move != sa.Moves[0].Move || ctx.Err() != nil {
		return step{}, false
	}
	// The last iterations must agree too (Stable): a lead that comes and
	// goes between depths is the horizon's, not the position's.
	for d := m.cfg.Deep - m.cfg.Stable + 1; d < m.cfg.Deep; d++ {
		pg, _, ok := Classify(Analysis{Depth: d, Moves: da.ByDepth[d]}, m.cfg.MarginStones)
		if !ok || pg != g && !(g == Win && pg == Stones) || da.ByDepth[d][0].Move != da.Moves[0].Move {
			return step{}, false
		}
	}
	best := da.Moves[0]
	st := step{goal: g, line: best.PV, depth: firstDepth(da, best.Move), margin: margin}
	if tb := m.cfg.Tablebase; tb != nil {
		switch exact, held := ExactGoal(tb, p); {
		case held && exact != g:
			return step{}, false
		case held:
			st.tablebase = true
		}
	}
	return st, true
}

// Extend lengthens pz's judged line while it can, up to the Config's
// MaxMoves: after the solver's last judged move and the opponent's reply
// the line expects (the deep search's best), the solver's next move must
// pass the same proof as the first, for the puzzle's goal (or a win, for a
// puzzle of stones). The line's rest becomes that move's deep line; the
// difficulty is the hardest step's.
func (m *Miner) Extend(ctx context.Context, pz Puzzle) Puzzle {
	pz.Moves = max(pz.Moves, 1)
	for pz.Moves < m.cfg.MaxMoves && len(pz.Solution) >= 2*pz.Moves {
		judged := pz.Solution[:2*pz.Moves] // the judged moves and the reply to the last
		pos := pz.Start
		for _, x := range judged {
			if pos.IsOver() || pos.CheckMove(x) != nil {
				return pz
			}
			pos = pos.After(x)
		}
		if !Worth(pos) {
			return pz
		}
		st, ok := m.prove(ctx, pos, pz.Goal)
		if !ok {
			return pz
		}
		pz.Solution = append(slices.Clone(judged), st.line...)
		pz.Moves++
		pz.Depth = max(pz.Depth, st.depth)
	}
	return pz
}

// ExactGoal judges p by the tablebase when it holds every child: Win when
// exactly one move wins, Save when exactly one does not lose; held=false
// when a child is missing or no single move stands out.
func ExactGoal(tb engine.Tablebase, p toguz.Position) (g Goal, held bool) {
	wins, saves := 0, 0
	for m := range p.LegalMoves().All() {
		next := p.After(m)
		var r tablebase.WDL
		if next.IsOver() {
			switch o := next.Outcome(); {
			case o.Result == toguz.Draw:
				r = tablebase.Draw
			case (o.Result == toguz.WhiteWins) == (p.Turn() == toguz.White):
				r = tablebase.Loss // for the opponent, to move in next
			default:
				r = tablebase.Win
			}
		} else {
			var ok bool
			if r, ok = tb.ProbeWDL(next); !ok {
				return 0, false
			}
		}
		switch r {
		case tablebase.Loss:
			wins++
		case tablebase.Draw:
			saves++
		}
	}
	switch {
	case wins == 1:
		return Win, true
	case wins == 0 && saves == 1:
		return Save, true
	}
	return 0, false
}

// Verify replays pz by a search to depth (deeper than the miner's proof),
// each of the solver's judged moves in its position (Puzzle.Step): the
// move must still be the best and alone in reaching the goal (for Stones,
// by at least half the miner's margin, since a deeper search sees more of
// the opponent's replies; a win passes too), and the tablebase, when it
// holds every child, must confirm the goal exactly.
func Verify(ctx context.Context, s *Searcher, pz Puzzle, depth int, cfg Config) error {
	for i := range max(pz.Moves, 1) {
		pos, move := pz.Step(i)
		if err := verifyStep(ctx, s, pz, i, pos, move, depth, cfg); err != nil {
			return err
		}
	}
	return nil
}

func verifyStep(ctx context.Context, s *Searcher, pz Puzzle, i int, pos toguz.Position, move toguz.Move, depth int, cfg Config) error {
	at := ""
	if i > 0 {
		at = fmt.Sprintf(" move %d", i+1)
	}
	if !Worth(pos) {
		return fmt.Errorf("puzzle %s%s: not a position with a choice of moves", pz.ID, at)
	}
	if tb := cfg.Tablebase; tb != nil {
		if g, held := ExactGoal(tb, pos); held {
			if g != pz.Goal && !(i > 0 && pz.Goal == Stones && g == Win) {
				return fmt.Errorf("puzzle %s%s: the tablebase says %v, the puzzle %v", pz.ID, at, g, pz.Goal)
			}
		}
	}
	a := s.Analyse(ctx, pos, depth)
	if len(a.Moves) < 2 {
		return fmt.Errorf("puzzle %s%s: %d lines at depth %d", pz.ID, at, len(a.Moves), depth)
	}
	if a.Moves[0].Move != move {
		return fmt.Errorf("puzzle %s%s: depth %d prefers %v (%v) to the solution %v", pz.ID, at, depth, a.Moves[0].Move, a.Moves[0].Score, move)
	}
	g, _, ok := Classify(a, max(1, cfg.MarginStones/2))
	if !ok || g != pz.Goal && !(pz.Goal == Stones && g == Win) {
		return fmt.Errorf("puzzle %s%s: at depth %d the solution %v scores %v, the next %v %v: not %v alone",
			pz.ID, at, depth, move, a.Moves[0].Score, a.Moves[1].Move, a.Moves[1].Score, pz.Goal)
	}
	return nil
}
