package engine

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/book"
)

// refValue is a game-theoretic value from the side to move's view: a win or
// loss in plies, or unknown when the horizon hides the end.
type refValue struct {
	known bool
	score Score // winIn/lossIn counted from the node, or 0 for a draw
}

// minimax is the slow obviously-correct reference: a full-width search to
// depth plies over finished games only. A win in k ≤ depth it reports is the
// shortest; a loss in k is the longest, since every reply was seen.
func minimax(p toguz.Position, depth int) refValue {
	if p.IsOver() {
		return refValue{true, terminal(&p, 0)}
	}
	if depth == 0 {
		return refValue{}
	}
	best := refValue{true, -infinity}
	for m := range p.LegalMoves().All() {
		v := minimax(p.After(m), depth-1)
		if !v.known {
			best.known = false
			continue
		}
		s := -v.score
		switch {
		case s > 0 && s.IsMate():
			s-- // one ply further from the root
		case s < 0 && s.IsMate():
			s++
		}
		if s > best.score {
			best.score = s
		}
	}
	// A win is proven even when other moves are unknown; a loss or draw only
	// when every move was seen.
	if !best.known && best.score > 0 && best.score.IsMate() {
		best.known = true
	}
	if best.known && best.score == 0 {
		best.known = false // draws are not compared (a heuristic 0 looks the same)
	}
	return best
}

// randomEnding returns a standard position with few stones on the board and
// kazans close to 81, White or Black to move, perhaps with tuzdiks.
func randomEnding(rng *rand.Rand, stones int) toguz.Position {
	for {
		s := toguz.Setup{Rules: toguz.Standard(), Board: [2][]int{make([]int, 9), make([]int, 9)}}
		for range stones {
			s.Board[rng.IntN(2)][rng.IntN(9)]++
		}
		if rng.IntN(2) == 0 {
			s.Tuzdik[0] = 1 + rng.IntN(8)
			s.Board[1][s.Tuzdik[0]-1] = 0
		}
		if rng.IntN(2) == 0 {
			s.Tuzdik[1] = 1 + rng.IntN(8)
			s.Board[0][s.Tuzdik[1]-1] = 0
		}
		on := 0
		for pl := range 2 {
			for _, n := range s.Board[pl] {
				on += n
			}
		}
		rest := 162 - on
		s.Kazan[0] = rest/2 + rng.IntN(5) - 2
		s.Kazan[1] = rest - s.Kazan[0]
		s.Turn = toguz.Player(rng.IntN(2))
		p, err := s.Position()
		if err != nil || p.IsOver() {
			continue
		}
		return p
	}
}

// allFeatures returns the default options with every search feature on,
// those off by default too.
func allFeatures() Options {
	o := DefaultOptions()
	v := reflect.ValueOf(&o).Elem()
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.Bool {
			f.SetBool(true)
		}
	}
	return o
}

func TestSearchMatchesMinimax(t *testing.T) {
	const refDepth = 9
	positions := 150
	if testing.Short() {
		positions = 30
	}
	rng := rand.New(rand.NewPCG(1, 2))
	e, err := New(allFeatures())
	if err != nil {
		t.Fatal(err)
	}
	proven := 0
	for i := range positions {
		p := randomEnding(rng, 3+rng.IntN(6))
		ref := minimax(p, refDepth)
		if !ref.known {
			continue
		}
		proven++
		e.NewGame()
		res := e.Search(context.Background(), p, Limits{Depth: refDepth + 8}, nil)
		if res.Score != ref.score {
			t.Errorf("position %d %s: search score %v (depth %d, pv %v), minimax %v", i, p.FEN(), res.Score, res.Depth, res.PV, ref.score)
			continue
		}
		// The move played keeps the value.
		child := minimax(p.After(res.Best), refDepth-1)
		if ref.score > 0 && (!child.known || -child.score-1 != ref.score) {
			t.Errorf("position %d %s: move %d gives %+v, want the win %v", i, p.FEN(), res.Best, child, ref.score)
		}
	}
	t.Logf("%d of %d positions proven by minimax to depth %d", proven, positions, refDepth)
	if proven < positions/5 {
		t.Errorf("only %d of %d positions proven by minimax: the test checks too little", proven, positions)
	}
}

func TestSearchLegalMoveEveryPosition(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, rules := range []toguz.Rules{toguz.Standard(), toguz.Bestemshe(), toguz.Pre1949()} {
		opts := DefaultOptions()
		opts.HashMB = 1
		e, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		p, err := toguz.NewPosition(rules)
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; !p.IsOver(); ply++ {
			lim := Limits{Nodes: 3000}
			if ply%3 == 0 {
				lim = Limits{Depth: 1}
			}
			res := e.Search(context.Background(), p, lim, nil)
			if err := p.CheckMove(res.Best); err != nil {
				t.Fatalf("%s ply %d %s: search returned %v: %v", rules, ply, p.FEN(), res.Best, err)
			}
			for i, m := range res.PV {
				if i == 0 && m != res.Best {
					t.Fatalf("PV %v does not start with the best move %v", res.PV, res.Best)
				}
			}
			ms := p.LegalMoves().Slice()
			p = p.After(ms[rng.IntN(len(ms))])
		}
		if res := e.Search(context.Background(), p, Limits{Depth: 3}, nil); res.Best != toguz.NoMove {
			t.Errorf("%s: finished game: search returned move %v", rules, res.Best)
		}
	}
}

func TestSearchStopsOnCancel(t *testing.T) {
	for _, threads := range []int{1, 2} {
		opts := DefaultOptions()
		opts.Threads = threads
		e, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		start := time.Now()
		res := e.Search(ctx, toguz.StartPosition(), Limits{Infinite: true}, nil)
		if d := time.Since(start); d > time.Second {
			t.Errorf("threads %d: search stopped %v after start, cancel came at 50ms (1s allowed for a loaded machine)", threads, d)
		}
		if start := toguz.StartPosition(); !start.LegalMoves().Has(res.Best) {
			t.Errorf("threads %d: best move %v not legal", threads, res.Best)
		}
	}
}

// TestInfiniteSearchWaitsForCancel: an infinite search whose depth runs
// out returns when its context is cancelled, not before and not much after.
func TestInfiniteSearchWaitsForCancel(t *testing.T) {
	e, err := New(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	const wait = 100 * time.Millisecond
	start := time.Now()
	time.AfterFunc(wait, cancel)
	res := e.Search(ctx, toguz.StartPosition(), Limits{Infinite: true, Depth: 1}, nil)
	if d := time.Since(start); d < wait || d > wait+time.Second {
		t.Errorf("infinite search of depth 1 returned after %v, cancel came at %v (1s allowed for a loaded machine)", d, wait)
	}
	if start := toguz.StartPosition(); !start.LegalMoves().Has(res.Best) {
		t.Errorf("best move %v not legal", res.Best)
	}
}

func TestSearchMoveTime(t *testing.T) {
	e, err := New(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	e.Search(context.Background(), toguz.StartPosition(), Limits{MoveTime: 100 * time.Millisecond}, nil)
	if d := time.Since(start); d > time.Second || d < 50*time.Millisecond {
		t.Errorf("movetime 100ms: search took %v", d)
	}
}

// TestLazySMPSameResultOnForcedPositions: 2 and 4 threads prove what one
// proves. Under -race it is also the check that the shared table and the
// deferral table are safe without locks.
func TestLazySMPSameResultOnForcedPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	one, err := New(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var many []*Engine
	for _, threads := range []int{2, 4} {
		opts := DefaultOptions()
		opts.Threads = threads
		e, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		many = append(many, e)
	}
	checked := 0
	for checked < 10 {
		p := randomEnding(rng, 4+rng.IntN(5))
		ref := minimax(p, 7)
		if !ref.known || ref.score < 0 {
			continue
		}
		checked++
		a := one.Search(context.Background(), p, Limits{Depth: 14}, nil)
		if a.Score != ref.score {
			t.Errorf("%s: 1 thread %v (%v), minimax %v", p.FEN(), a.Score, a.Best, ref.score)
		}
		moves := []toguz.Move{a.Best}
		for _, e := range many {
			b := e.Search(context.Background(), p, Limits{Depth: 14}, nil)
			if b.Score != ref.score {
				t.Errorf("%s: %d threads %v (%v), minimax %v", p.FEN(), e.Options().Threads, b.Score, b.Best, ref.score)
			}
			moves = append(moves, b.Best)
		}
		for _, m := range moves {
			if v := minimax(p.After(m), 6); !v.known || -v.score-1 != ref.score {
				t.Errorf("%s: move %v does not keep the win %v", p.FEN(), m, ref.score)
			}
		}
	}
	// A longer search from the start keeps all four workers and the tables
	// busy together.
	res := many[1].Search(context.Background(), toguz.StartPosition(), Limits{Depth: 11}, nil)
	if start := toguz.StartPosition(); !start.LegalMoves().Has(res.Best) || res.Depth < 11 {
		t.Errorf("4 threads from the start: %v at depth %d", res.Best, res.Depth)
	}
}

func TestNoAllocationPerNode(t *testing.T) {
	e, err := New(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	p := toguz.StartPosition()
	var nodes uint64
	allocs := testing.AllocsPerRun(3, func() {
		e.NewGame()
		nodes = e.Search(context.Background(), p, Limits{Depth: 9}, nil).Nodes
	})
	// A search allocates a constant few things (the result's PV, the stop
	// watcher), never per node.
	if nodes < 10000 || allocs > 20 {
		t.Errorf("%v allocations for a search of %d nodes", allocs, nodes)
	}
}

// TestFeatures: Features lists every bool field of Options once, in
// order, under its field name, and each Field is that field.
func TestFeatures(t *testing.T) {
	var want []string
	ft := reflect.TypeFor[Options]()
	for i := range ft.NumField() {
		if f := ft.Field(i); f.Type.Kind() == reflect.Bool {
			want = append(want, f.Name)
		}
	}
	fs := Features()
	if len(fs) != len(want) {
		t.Fatalf("%d features, want one per bool field of Options: %q", len(fs), want)
	}
	for i, f := range fs {
		if f.Name != want[i] {
			t.Errorf("feature %d: %s, want %s", i+1, f.Name, want[i])
		}
		o := DefaultOptions()
		*f.Field(&o) = !*f.Field(&o)
		if v := reflect.ValueOf(o).FieldByName(f.Name).Bool(); v != *f.Field(&o) || v == reflect.ValueOf(DefaultOptions()).FieldByName(f.Name).Bool() {
			t.Errorf("feature %s: Field is not Options.%s", f.Name, f.Name)
		}
	}
}

func TestOptionsValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Options)
		ok   bool
	}{
		{"default", func(*Options) {}, true},
		{"threads 0", func(o *Options) { o.Threads = 0 }, false},
		{"hash 0", func(o *Options) { o.HashMB = 0 }, false},
		{"level 0", func(o *Options) { o.Level = 0 }, false},
		{"level too high", func(o *Options) { o.Level = MaxLevel + 1 }, false},
		{"multipv 0", func(o *Options) { o.MultiPV = 0 }, false},
		{"level 1", func(o *Options) { o.Level = 1 }, true},
	}
	for _, tt := range tests {
		o := DefaultOptions()
		tt.edit(&o)
		_, err := New(o)
		if (err == nil) != tt.ok {
			t.Errorf("%s: New error %v, want ok=%v", tt.name, err, tt.ok)
		}
	}
}

func TestScore(t *testing.T) {
	tests := []struct {
		s     Score
		mate  bool
		plies int
		str   string
	}{
		{0, false, 0, "+0.00"},
		{125, false, 0, "+1.25"},
		{-250, false, 0, "-2.50"},
		{MateScore - 5, true, 5, "win 5"},
		{-MateScore + 8, true, -8, "loss 8"},
	}
	for _, tt := range tests {
		if tt.s.IsMate() != tt.mate || tt.s.MatePlies() != tt.plies || tt.s.String() != tt.str {
			t.Errorf("Score(%d): IsMate %v MatePlies %d String %q, want %v %d %q",
				tt.s, tt.s.IsMate(), tt.s.MatePlies(), tt.s.String(), tt.mate, tt.plies, tt.str)
		}
	}
}

func TestBudget(t *testing.T) {
	s := time.Second
	tests := []struct {
		name       string
		lim        Limits
		turn       toguz.Player
		soft, hard time.Duration
	}{
		{"none", Limits{}, toguz.White, 0, 0},
		{"infinite", Limits{Infinite: true, MoveTime: s}, toguz.White, 0, 0},
		{"movetime", Limits{MoveTime: s}, toguz.White, s - 10*time.Millisecond, s - 10*time.Millisecond},
		{"sudden death", Limits{Time: [2]time.Duration{60 * s, 1}}, toguz.White, (60*s - moveOverhead) / suddenDeathMoves, (60*s - moveOverhead) / suddenDeathMoves * 4},
		{"black's clock", Limits{Time: [2]time.Duration{60 * s, 11 * s}, Inc: [2]time.Duration{0, s}}, toguz.Black,
			(11*s-moveOverhead)/suddenDeathMoves + 3*s/4, (11*s-moveOverhead)/3 + s/2},
		{"low clock", Limits{Time: [2]time.Duration{20 * time.Millisecond}}, toguz.White, time.Millisecond, time.Millisecond},
	}
	for _, tt := range tests {
		soft, hard := budget(tt.lim, tt.turn)
		if soft != tt.soft || hard != tt.hard {
			t.Errorf("%s: budget %v/%v, want %v/%v", tt.name, soft, hard, tt.soft, tt.hard)
		}
		if hard > 0 && tt.lim.Time[tt.turn] > 0 && hard > tt.lim.Time[tt.turn] {
			t.Errorf("%s: hard limit %v beyond the clock %v", tt.name, hard, tt.lim.Time[tt.turn])
		}
	}
}

func TestWeakLevels(t *testing.T) {
	p := toguz.StartPosition()
	for level := 1; level < MaxLevel; level++ {
		opts := DefaultOptions()
		opts.Level, opts.Seed = level, 42
		a, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := New(opts)
		for range 3 {
			ra := a.Search(context.Background(), p, Limits{}, nil)
			rb := b.Search(context.Background(), p, Limits{}, nil)
			if ra.Best != rb.Best {
				t.Errorf("level %d: same seed, moves %v and %v", level, ra.Best, rb.Best)
			}
			if !p.LegalMoves().Has(ra.Best) || ra.Depth != levelDepth(level, 0) {
				t.Errorf("level %d: move %v depth %d", level, ra.Best, ra.Depth)
			}
		}
	}
}

// TestBook checks that a book position is answered from the book of its
// own ruleset without searching, that analysis (an infinite search)
// ignores the book, and that a position of a ruleset whose book the set
// lacks is searched: the standard game's book never answers for a variant.
func TestBook(t *testing.T) {
	books, err := book.DefaultSet()
	if err != nil {
		t.Fatal(err)
	}
	std, err := book.Default()
	if err != nil {
		t.Fatal(err)
	}
	stdOnly, err := book.NewSet(std)
	if err != nil {
		t.Fatal(err)
	}
	newEngine := func(b *book.Set) *Engine {
		opts := DefaultOptions()
		opts.Book, opts.HashMB = b, 1
		e, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	all, standardBook := newEngine(books), newEngine(stdOnly)
	for _, tc := range []struct {
		rules  toguz.Rules
		e      *Engine
		inBook bool
	}{
		{toguz.Standard(), all, true},
		{toguz.Bestemshe(), all, true},
		{toguz.Seven(), all, true},
		{toguz.Pre1949(), all, false}, // no book: searched
		{toguz.Standard(), standardBook, true},
		{toguz.Bestemshe(), standardBook, false},
		{toguz.Seven(), standardBook, false},
	} {
		start, err := toguz.NewPosition(tc.rules)
		if err != nil {
			t.Fatal(err)
		}
		// Several seeds: each of them must play a move of the ruleset's
		// own book.
		for seed := range int64(8) {
			opts := tc.e.Options()
			opts.Seed = seed
			if err := tc.e.SetOptions(opts); err != nil {
				t.Fatal(err)
			}
			res := tc.e.Search(context.Background(), start, Limits{Depth: 3}, nil)
			known := false
			if b := books.For(tc.rules); b != nil {
				for _, entry := range b.Moves(start) {
					known = known || entry.Move == res.Best
				}
			}
			if got := known && res.Nodes == 0; got != tc.inBook {
				t.Errorf("%s, %d books, seed %d: %v after %d nodes (a move of its book: %v), want from the book: %v",
					tc.rules, len(tc.e.Options().Book.All()), seed, res.Best, res.Nodes, known, tc.inBook)
			}
		}
	}
	start := toguz.StartPosition()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if res := all.Search(ctx, start, Limits{Infinite: true}, nil); res.Nodes == 0 {
		t.Errorf("an infinite search answered from the book")
	}
}

// TestIsKnownWin: a tablebase's win without a distance is a known win
// whatever the stones left; a static evaluation and a proven distance are
// not.
func TestIsKnownWin(t *testing.T) {
	for _, tc := range []struct {
		s    Score
		want bool
	}{
		{KnownWin, true},
		{KnownWin - 162, true},
		{maxEval, false},
		{0, false},
		{winIn(7), false},
		{MateScore, false},
		{-KnownWin, false},
	} {
		if got := tc.s.IsKnownWin(); got != tc.want {
			t.Errorf("Score(%d).IsKnownWin() = %v, want %v", tc.s, got, tc.want)
		}
	}
}
