package engine

import (
	"errors"
	"fmt"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/book"
	"github.com/toguz/toguz/internal/engine/eval"
	"github.com/toguz/toguz/internal/engine/neural"
)

// MaxLevel is full strength.
const MaxLevel = 10

// Options configure an Engine. The zero value is not useful: start from
// DefaultOptions. Every search feature has its own switch, all on by
// default, so that a match can measure each one.
type Options struct {
	Threads   int   // Lazy SMP workers (1 = single thread)
	HashMB    int   // transposition table size in MiB
	Level     int   // strength 1 (beginner) .. MaxLevel (full strength, the default)
	MultiPV   int   // number of best lines to report (1 by default)
	Seed      int64 // random source for weaker levels
	Tablebase Tablebase
	// Book, when set, answers a search from a book position with a book
	// move (weighted among the good ones by the seeded random source) and
	// no search, unless the search is infinite (analysis) or MultiPV > 1.
	// A position is looked up in the book of its own ruleset only
	// (book.DefaultSet has one for the standard game, Bestemshe and the
	// 2×7 board); a ruleset without a book is searched.
	Book *book.Set

	TT          bool // transposition table (probe cutoffs and move)
	Killers     bool // two killer moves per ply
	History     bool // history heuristic for quiet moves (off by default: it lost its SPRT)
	CaptureSort bool // captures first, biggest first
	PVS         bool // principal-variation search (null windows after the first move)
	Aspiration  bool // aspiration windows around the previous iteration's score
	LMR         bool // late move reductions
	Quiescence  bool // quiescence search over capturing moves at the leaves
	Futility    bool // reverse futility pruning near the leaves
	LearnedEval bool // trained evaluation; off: the plain kazan difference
	// Neural adds the neural correction (package neural) to the learned
	// evaluation (docs/engine-testing.md has the matches that adopted it).
	Neural bool
	// RulesetEval plays a position of a ruleset that has weights of its
	// own (eval.ForRules: trained by `toguz tune -ruleset`) with those,
	// and without the network, which corrects the standard weights only;
	// off, every ruleset is played with the standard weights (and the
	// network), as before they were trained. docs/engine-testing.md has
	// the matches that decided which rulesets have their own.
	RulesetEval bool

	// The Lazy SMP switches; they change nothing on one thread (the main
	// worker searches as alone) and are measured by matches of Threads 2
	// against 1 (docs/engine-testing.md).
	//
	// SMPSkip: helper i skips the depths of Stockfish's skip tables, so
	// that at any time the helpers spread over several depths; off, odd
	// helpers start one ply ahead and then search every depth.
	SMPSkip bool
	// SMPVote: the answer is the best line of the worker that completed
	// the deepest iteration (ties go to the main worker); off, always the
	// main worker's.
	SMPVote bool
	// SMPOrder: each helper orders the quiet moves in its own rotation of
	// the holes, so that the workers do not all walk the same tree.
	SMPOrder bool
	// SMPDefer: ABDADA-like deferral (Kerrigan's simplified ABDADA): at
	// depth deferDepth and more, a move other than the first that another
	// worker is searching right now is searched after the node's others.
	SMPDefer bool

	// Eval replaces the embedded learned weights when LearnedEval is on
	// (nil: the embedded ones), for every ruleset. Tuning and weight
	// matches use it.
	Eval *eval.Weights
	// Network replaces the embedded network when Neural is on (nil: the
	// embedded one).
	Network *neural.Network
}

// DefaultOptions returns full strength on one thread with every feature on
// that won its match in docs/engine-testing.md: all but History.
func DefaultOptions() Options {
	return Options{
		Threads: 1, HashMB: 64, Level: MaxLevel, MultiPV: 1,
		TT: true, Killers: true, History: false, CaptureSort: true, PVS: true,
		Aspiration: true, LMR: true, Quiescence: true, Futility: true,
		LearnedEval: true, Neural: true, RulesetEval: true,
		SMPSkip: true, SMPVote: true, SMPOrder: true, SMPDefer: true,
	}
}

// Feature is a search feature of Options, switched on and off by name: the
// protocol's check options and `toguz duel -off` are these.
type Feature struct {
	Name string
	// Field returns the feature's switch in o.
	Field func(o *Options) *bool
}

// Features returns every search feature, in the order of Options.
func Features() []Feature {
	return []Feature{
		{"TT", func(o *Options) *bool { return &o.TT }},
		{"Killers", func(o *Options) *bool { return &o.Killers }},
		{"History", func(o *Options) *bool { return &o.History }},
		{"CaptureSort", func(o *Options) *bool { return &o.CaptureSort }},
		{"PVS", func(o *Options) *bool { return &o.PVS }},
		{"Aspiration", func(o *Options) *bool { return &o.Aspiration }},
		{"LMR", func(o *Options) *bool { return &o.LMR }},
		{"Quiescence", func(o *Options) *bool { return &o.Quiescence }},
		{"Futility", func(o *Options) *bool { return &o.Futility }},
		{"LearnedEval", func(o *Options) *bool { return &o.LearnedEval }},
		{"Neural", func(o *Options) *bool { return &o.Neural }},
		{"RulesetEval", func(o *Options) *bool { return &o.RulesetEval }},
		{"SMPSkip", func(o *Options) *bool { return &o.SMPSkip }},
		{"SMPVote", func(o *Options) *bool { return &o.SMPVote }},
		{"SMPOrder", func(o *Options) *bool { return &o.SMPOrder }},
		{"SMPDefer", func(o *Options) *bool { return &o.SMPDefer }},
	}
}

// ErrOptions is wrapped by every error about invalid options.
var ErrOptions = errors.New("invalid engine options")

// Limits of the option values.
const (
	MaxThreads = 256
	MaxHashMB  = 1 << 16
	MaxMultiPV = toguz.MaxHoles
)

func (o Options) validate() error {
	switch {
	case o.Threads < 1 || o.Threads > MaxThreads:
		return fmt.Errorf("%w: Threads %d, want 1..%d", ErrOptions, o.Threads, MaxThreads)
	case o.HashMB < 1 || o.HashMB > MaxHashMB:
		return fmt.Errorf("%w: HashMB %d, want 1..%d", ErrOptions, o.HashMB, MaxHashMB)
	case o.Level < 1 || o.Level > MaxLevel:
		return fmt.Errorf("%w: Level %d, want 1..%d", ErrOptions, o.Level, MaxLevel)
	case o.MultiPV < 1 || o.MultiPV > MaxMultiPV:
		return fmt.Errorf("%w: MultiPV %d, want 1..%d", ErrOptions, o.MultiPV, MaxMultiPV)
	}
	return nil
}
