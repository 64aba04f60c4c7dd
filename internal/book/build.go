package book

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/toguz/toguz"
)

// Options configure a build.
type Options struct {
	// Rules is the ruleset of the book (the zero value: Standard). Games
	// under other rules are skipped.
	Rules toguz.Rules
	// MaxPly is how many plies from the start of each game are recorded:
	// the positions before plies 1..MaxPly. DefaultMaxPly when 0.
	MaxPly int
	// MinCount is the smallest weighted count a move needs to stay in the
	// book; 1 keeps every move. DefaultMinCount when 0.
	MinCount uint32
	// Check, if not nil, is the engine check: the value of a position for
	// the player to move, in hundredths of a stone (engine.Score's scale).
	// Build calls it on the position after every legal move of every
	// book position, records a book move's value in Entry.Eval, and drops a
	// move that lost badly: more than CheckMargin below the best move's
	// value, and with a Score more than LostMargin below the mean score of
	// the position's book moves. Both must agree because a shallow search
	// swings by several stones in the opening (at depths 4..10 from the
	// start, the masters' main move 7 is valued from -3 to +2 stones; at
	// depth 8 it finds Black's most played reply to it, 9 in 359 games,
	// ten stones worse than 7, which scored less) and must not overrule
	// hundreds of master games. Check must be deterministic for the build
	// to be reproducible.
	Check func(ctx context.Context, p toguz.Position) int
	// CheckMargin is how much worse than the engine's best a book move may
	// be; DefaultCheckMargin when 0.
	CheckMargin int
	// Description is stored in the file.
	Description string
}

// Defaults of Options.
const (
	DefaultMaxPly      = 20
	DefaultMinCount    = 2
	DefaultCheckMargin = 1000 // ten stones

	// LostMargin is how far below the position's mean score a move
	// must score in the games for the engine check to drop it.
	LostMargin = 0.10
)

// Game is a game for the builder: the moves from Start and the result.
type Game struct {
	Start  toguz.Position
	Moves  []toguz.Move
	Result toguz.Result
	Weight uint32 // what the game counts for; 1 when 0
}

// Builder gathers games into a book. The zero value is not ready: use
// NewBuilder.
type Builder struct {
	opts  Options
	stats map[toguz.Position]*[toguz.MaxHoles + 1]Entry
	games int
	skip  int
}

// NewBuilder returns a builder with opts (zero fields take the defaults).
func NewBuilder(opts Options) *Builder {
	opts.Rules = cmp.Or(opts.Rules, toguz.Standard())
	opts.MaxPly = cmp.Or(opts.MaxPly, DefaultMaxPly)
	opts.MinCount = cmp.Or(opts.MinCount, DefaultMinCount)
	opts.CheckMargin = cmp.Or(opts.CheckMargin, DefaultCheckMargin)
	return &Builder{opts: opts, stats: make(map[toguz.Position]*[toguz.MaxHoles + 1]Entry)}
}

// ErrIllegal is wrapped by the error of AddGame for a game with an illegal
// move.
var ErrIllegal = errors.New("illegal move in a book game")

// AddGame counts the first MaxPly moves of g. A game under other rules than
// the book's is skipped (see Counts). The error wraps ErrIllegal.
func (b *Builder) AddGame(g Game) error {
	if g.Start.Rules() != b.opts.Rules {
		b.skip++
		return nil
	}
	w := max(g.Weight, 1)
	p := g.Start
	for i, m := range g.Moves[:min(len(g.Moves), b.opts.MaxPly)] {
		if p.IsOver() || !p.LegalMoves().Has(m) {
			return fmt.Errorf("%w: ply %d, move %d in %s", ErrIllegal, i+1, m, p.FEN())
		}
		st := b.stats[p]
		if st == nil {
			st = new([toguz.MaxHoles + 1]Entry)
			b.stats[p] = st
		}
		e := &st[m]
		e.Count += w
		switch {
		case g.Result == toguz.Draw:
			e.Draws += w
		case g.Result == toguz.WhiteWins && p.Turn() == toguz.White,
			g.Result == toguz.BlackWins && p.Turn() == toguz.Black:
			e.Wins += w
		case g.Result != toguz.NoResult:
			e.Losses += w
		}
		p = p.After(m)
	}
	b.games++
	return nil
}

// AddRecords adds game records (as toguz.ParseGames reads them), each
// counting weight. It replays each game with every check of the rules
// library and takes its result from toguz.Game.Outcome: the rules' ending,
// or the recorded result of a game resigned or unfinished.
func (b *Builder) AddRecords(games []*toguz.Game, weight uint32) error {
	for _, g := range games {
		o, err := g.Outcome()
		if err != nil {
			return err
		}
		start, err := g.StartPosition()
		if err != nil {
			return err
		}
		if err := b.AddGame(Game{Start: start, Moves: g.Moves(), Result: o.Result, Weight: weight}); err != nil {
			return err
		}
	}
	return nil
}

// Counts returns how many games were added and how many were skipped for
// their rules.
func (b *Builder) Counts() (added, skipped int) { return b.games, b.skip }

// Build returns the book of the games added: every position with a move
// played at least MinCount times (and not dropped by the engine check). The
// result depends only on the games and the options, not on the order in
// which games were added. ctx cancels the engine check.
func (b *Builder) Build(ctx context.Context) (*Book, error) {
	o := b.opts
	bk := &Book{info: Info{Rules: o.Rules, MaxPly: o.MaxPly, MinCount: o.MinCount, Description: o.Description}}
	var total int
	for p, st := range b.stats {
		n := 0
		for m := 1; m <= toguz.MaxHoles; m++ {
			if st[m].Count >= o.MinCount {
				n++
			}
		}
		if n > 0 {
			bk.nodes = append(bk.nodes, node{key: p.Key(), pos: p, n: uint32(n)})
			total += n
		}
	}
	// Sort the positions (map order is random), then lay their moves out
	// in that order.
	slices.SortFunc(bk.nodes, compareNodes)
	moves := make([]Entry, 0, total)
	for i := range bk.nodes {
		nd := &bk.nodes[i]
		nd.first = uint32(len(moves))
		st := b.stats[nd.pos]
		for m := 1; m <= toguz.MaxHoles; m++ {
			if e := st[m]; e.Count >= o.MinCount {
				e.Move, e.Eval = toguz.Move(m), NoEval
				moves = append(moves, e)
			}
		}
	}
	bk.moves = moves
	if o.Check != nil {
		if err := bk.check(ctx, o.Check, o.CheckMargin); err != nil {
			return nil, err
		}
	}
	bk.info.Positions, bk.info.Moves = len(bk.nodes), len(bk.moves)
	return bk, nil
}

func compareNodes(a, b node) int {
	if c := cmp.Compare(a.key, b.key); c != 0 {
		return c
	}
	var x, y [posSize]byte
	return bytes.Compare(appendPosition(x[:0], &a.pos), appendPosition(y[:0], &b.pos))
}

// check runs the engine check on every position and drops the moves (and
// then the positions) that lost badly (see Options.Check). A move's value is -value of the
// position after it; the position's is the best of its legal moves' values,
// so that all are searched alike.
func (bk *Book) check(ctx context.Context, value func(context.Context, toguz.Position) int, margin int) error {
	nodes, moves := bk.nodes[:0], make([]Entry, 0, len(bk.moves))
	for _, nd := range bk.nodes {
		if err := ctx.Err(); err != nil {
			return err
		}
		var after [toguz.MaxHoles + 1]int
		best := math.MinInt
		for m := range nd.pos.LegalMoves().All() {
			after[m] = -value(ctx, nd.pos.After(m))
			best = max(best, after[m])
		}
		es := bk.moves[nd.first : nd.first+nd.n]
		var sum Entry
		for _, e := range es {
			sum.Wins, sum.Draws, sum.Losses = sum.Wins+e.Wins, sum.Draws+e.Draws, sum.Losses+e.Losses
		}
		mean := sum.Score()
		first := uint32(len(moves))
		for _, e := range es {
			v := after[e.Move]
			if v < best-margin && e.Score() < mean-LostMargin {
				continue
			}
			e.Eval = int16(min(max(v, math.MinInt16+1), math.MaxInt16))
			moves = append(moves, e)
		}
		if n := uint32(len(moves)) - first; n > 0 {
			nd.first, nd.n = first, n
			nodes = append(nodes, nd)
		}
	}
	bk.nodes, bk.moves = nodes, moves
	return ctx.Err()
}
