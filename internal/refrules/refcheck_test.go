package refrules_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/refrules"
	"pgregory.net/rapid"
)

// These tests play the fast package toguz against the reference at every
// ply of random games and from random positions: the same legal moves, the
// same positions (board, kazans, tuzdiks, turn), the same errors for illegal
// moves, the same end and score, the same perft counts at small depths.

// tb is what the checks need of *testing.T and *rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

// named are the named rulesets, also played out past the winning score.
func named() []toguz.Rules {
	var out []toguz.Rules
	for _, r := range []toguz.Rules{toguz.Standard(), toguz.Bestemshe(), toguz.Seven(), toguz.Pre1949()} {
		po := r
		po.PlayOut = true
		out = append(out, r, po)
	}
	return out
}

// randomRules returns valid rules with any parameters: 2..9 holes, enough
// stones per hole that big sowings lap the board several times.
func randomRules(rng *rand.Rand) toguz.Rules {
	h := 2 + rng.IntN(toguz.MaxHoles-1)
	maxStones := 255 / (2 * h)
	r := toguz.Rules{
		Holes:        h,
		Stones:       1 + rng.IntN(maxStones),
		Tuzdik:       rng.IntN(2) == 0,
		OriginSowing: rng.IntN(2) == 0,
		PlayOut:      rng.IntN(4) == 0,
	}
	if rng.IntN(2) == 0 { // small stone counts end games sooner and differently
		r.Stones = 1 + rng.IntN(min(maxStones, 12))
	}
	return r
}

// randomSetup returns a valid position under r that need not be reachable:
// tuzdiks anywhere the rules allow, stones spread over holes and kazans,
// sometimes with a side emptied so that atsyrau is close.
func randomSetup(rng *rand.Rand, r toguz.Rules) toguz.Setup {
	s := toguz.Setup{Rules: r, Turn: toguz.Player(rng.IntN(2))}
	s.Board[0] = make([]int, r.Holes)
	s.Board[1] = make([]int, r.Holes)
	if r.Tuzdik {
		for pl := range 2 {
			if rng.IntN(3) == 0 {
				continue
			}
			t := 1 + rng.IntN(r.Holes-1) // never the last hole
			if s.Tuzdik[1-pl] != t {
				s.Tuzdik[pl] = t
			}
		}
	}
	left := r.Total()
	for pl := range 2 {
		if s.Tuzdik[pl] != 0 {
			s.Kazan[pl] = 3 // a tuzdik brought its owner 3 stones
			left -= 3
		}
	}
	// bins: the two kazans, then each player's non-tuzdik holes, some of
	// them left out so that sides are often sparse or empty.
	type bin struct{ side, hole int } // hole 0: the kazan
	bins := []bin{{0, 0}, {1, 0}}
	for pl := range 2 {
		keep := rng.Float64()
		for h := 1; h <= r.Holes; h++ {
			if s.Tuzdik[1-pl] == h || rng.Float64() > keep {
				continue
			}
			bins = append(bins, bin{pl, h})
		}
	}
	kazanShare := rng.Float64()
	for ; left > 0; left-- {
		var b bin
		if len(bins) == 2 || rng.Float64() < kazanShare {
			b = bins[rng.IntN(2)]
		} else {
			b = bins[2+rng.IntN(len(bins)-2)]
		}
		if b.hole == 0 {
			s.Kazan[b.side]++
		} else {
			s.Board[b.side][b.hole-1]++
		}
	}
	return s
}

// same fails unless the fast position and the reference agree on
// everything the rules define.
func same(t tb, fast toguz.Position, ref refrules.Position, where string) {
	t.Helper()
	if got := refrules.FromSetup(fast.Setup()); got != ref {
		t.Fatalf("%s: position differs\nfast %+v (%s)\nref  %+v", where, got, fast.FEN(), ref)
	}
	// The fast position's own conversions keep it whole.
	if back, err := fast.Setup().Position(); err != nil || back != fast {
		t.Fatalf("%s: Setup().Position() = %s, %v; want %s", where, back.FEN(), err, fast.FEN())
	}
	if back, _, err := toguz.ParseFEN(fast.FEN(), ref.Rules); err != nil || back != fast {
		t.Fatalf("%s: ParseFEN(FEN()) = %s, %v; want %s", where, back.FEN(), err, fast.FEN())
	}
	if fast.Rules() != ref.Rules || fast.Holes() != ref.Rules.Holes {
		t.Fatalf("%s: rules %v, holes %d, want %v", where, fast.Rules(), fast.Holes(), ref.Rules)
	}
	for pl := toguz.White; pl <= toguz.Black; pl++ {
		onBoard := 0
		for h := 1; h <= ref.Rules.Holes; h++ {
			if got, want := fast.IsTuzdik(pl, h), ref.Tuzdik[pl.Other()] == h; got != want {
				t.Fatalf("%s: IsTuzdik(%s, %d) = %v, want %v", where, pl, h, got, want)
			}
			onBoard += ref.Board[pl][h-1]
		}
		if got := fast.OnBoard(pl); got != onBoard {
			t.Fatalf("%s: OnBoard(%s) = %d, want %d", where, pl, got, onBoard)
		}
	}
	var want toguz.MoveSet
	for _, m := range ref.LegalMoves() {
		want |= 1 << (m - 1)
	}
	if got := fast.LegalMoves(); got != want {
		t.Fatalf("%s: LegalMoves %v, want %v (%s)", where, got.Slice(), ref.LegalMoves(), fast.FEN())
	}
	if got, want := fast.IsOver(), ref.IsOver(); got != want {
		t.Fatalf("%s: IsOver %v, want %v (%s)", where, got, want, fast.FEN())
	}
	if got, want := fast.Outcome(), ref.Outcome(); got != want {
		t.Fatalf("%s: Outcome %+v, want %+v (%s)", where, got, want, fast.FEN())
	}
}

// play plays m in both and checks that they agree on whether it is legal
// and on the position after it. It returns the new positions, or the old
// ones when m is illegal.
func play(t tb, fast toguz.Position, ref refrules.Position, m toguz.Move, where string) (toguz.Position, refrules.Position, bool) {
	t.Helper()
	nextRef, refErr := ref.Play(m)
	next, err := fast.Play(m)
	switch {
	case (err == nil) != (refErr == nil):
		t.Fatalf("%s: move %d: Play error %v, reference %v (%s)", where, m, err, refErr, fast.FEN())
	case err != nil:
		var ime *toguz.IllegalMoveError
		if !errors.Is(err, toguz.ErrIllegalMove) || !errors.As(err, &ime) || ime.Move != m {
			t.Fatalf("%s: move %d: error %v is not an *IllegalMoveError for it", where, m, err)
		}
		if got, want := errors.Is(err, toguz.ErrGameOver), ref.IsOver(); got != want {
			t.Fatalf("%s: move %d: errors.Is(%v, ErrGameOver) = %v, want %v", where, m, err, got, want)
		}
		if next != fast {
			t.Fatalf("%s: move %d: an illegal Play changed the position", where, m)
		}
		return fast, ref, false
	}
	if after := fast.After(m); after != next {
		t.Fatalf("%s: move %d: After %s, Play %s", where, m, after.FEN(), next.FEN())
	}
	made := fast
	made.MakeMove(m)
	if made != next {
		t.Fatalf("%s: move %d: MakeMove %s, Play %s", where, m, made.FEN(), next.FEN())
	}
	same(t, next, nextRef, fmt.Sprintf("%s, after %d", where, m))
	return next, nextRef, true
}

// samePerft compares the move-path counts to depth.
func samePerft(t tb, fast toguz.Position, ref refrules.Position, depth int, where string) {
	t.Helper()
	for d := 0; d <= depth; d++ {
		want := refrules.Perft(ref, d)
		if got := toguz.Perft(fast, d); got != want {
			t.Fatalf("%s: Perft(%d) = %d, want %d (%s)", where, d, got, want, fast.FEN())
		}
		if got := toguz.PerftBulk(fast, d); got != want {
			t.Fatalf("%s: PerftBulk(%d) = %d, want %d (%s)", where, d, got, want, fast.FEN())
		}
	}
}

// playRandomGame plays from the given position to the end (or maxPlies),
// comparing at every ply. One try in eight is a random hole number, legal
// or not, so that errors are compared too; perft is compared at a few plies.
func playRandomGame(t tb, rng *rand.Rand, fast toguz.Position, ref refrules.Position, maxPlies int, name string) {
	t.Helper()
	same(t, fast, ref, name+", start")
	for ply := 1; ply <= maxPlies; ply++ {
		where := fmt.Sprintf("%s, ply %d", name, ply)
		if rng.IntN(16) == 0 {
			samePerft(t, fast, ref, 1+rng.IntN(3), where)
		}
		if rng.IntN(8) == 0 {
			m := toguz.Move(rng.IntN(ref.Rules.Holes + 2)) // 0 and Holes+1 do not exist
			if _, _, ok := play(t, fast, ref, m, where); ok {
				continue // it was legal; play a legal random move instead
			}
		}
		moves := ref.LegalMoves()
		if len(moves) == 0 {
			// Over: every move is refused with ErrGameOver.
			play(t, fast, ref, toguz.Move(1+rng.IntN(ref.Rules.Holes)), where)
			return
		}
		fast, ref, _ = play(t, fast, ref, moves[rng.IntN(len(moves))], where)
	}
}

// games is how many random games each test plays per ruleset.
func games() int {
	if testing.Short() {
		return 40
	}
	return 400
}

func TestRandomGamesNamedRulesets(t *testing.T) {
	for _, r := range named() {
		t.Run(r.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(r.Holes)))
			start, err := toguz.NewPosition(r)
			if err != nil {
				t.Fatal(err)
			}
			for g := range games() {
				playRandomGame(t, rng, start, refrules.New(r), 1000, fmt.Sprintf("game %d", g))
			}
		})
	}
}

func TestRandomGamesRandomRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for g := range 4 * games() {
		r := randomRules(rng)
		start, err := toguz.NewPosition(r)
		if err != nil {
			t.Fatalf("NewPosition(%v): %v", r, err)
		}
		playRandomGame(t, rng, start, refrules.New(r), 1000, fmt.Sprintf("game %d under %v", g, r))
	}
}

// TestRandomSetups builds random valid positions with toguz.Setup, under
// named and random rulesets, and plays on from them.
func TestRandomSetups(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	rulesets := named()
	for g := range 4 * games() {
		r := rulesets[g%len(rulesets)]
		if g%2 == 1 {
			r = randomRules(rng)
		}
		s := randomSetup(rng, r)
		fast, err := s.Position()
		if err != nil {
			t.Fatalf("setup %d under %v: %v\n%+v", g, r, err, s)
		}
		ref := refrules.FromSetup(s)
		name := fmt.Sprintf("setup %d under %v", g, r)
		samePerft(t, fast, ref, 3, name)
		playRandomGame(t, rng, fast, ref, 1000, name)
	}
}

// TestRapid is the same check driven by rapid, which shrinks a failure to
// a short game: any rules, a start or a random setup, then chosen moves.
func TestRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64().Draw(t, "seed")
		rng := rand.New(rand.NewPCG(seed, 7))
		r := rapid.SampledFrom(append(named(), randomRules(rng))).Draw(t, "rules")
		fast, _ := toguz.NewPosition(r)
		ref := refrules.New(r)
		if rapid.Bool().Draw(t, "setup") {
			s := randomSetup(rng, r)
			var err error
			if fast, err = s.Position(); err != nil {
				t.Fatalf("%+v: %v", s, err)
			}
			ref = refrules.FromSetup(s)
		}
		same(t, fast, ref, "start")
		// Each choice picks a legal move, or one time in eight any hole
		// number (0 and Holes+1 included), legal or not.
		choices := rapid.SliceOfN(rapid.IntRange(0, 1<<16), 1, 400).Draw(t, "choices")
		for i, c := range choices {
			m := toguz.Move(c / 8 % (r.Holes + 2))
			if legal := ref.LegalMoves(); c%8 != 0 && len(legal) > 0 {
				m = legal[c/8%len(legal)]
			}
			fast, ref, _ = play(t, fast, ref, m, fmt.Sprintf("ply %d", i+1))
		}
		samePerft(t, fast, ref, 2, "end")
	})
}

// FuzzAgainstReference plays the moves in the input (each byte a hole,
// taken modulo Holes+2 so that holes 0 and Holes+1 are tried too) from the
// start, or from a random setup when setupSeed is not zero, under the named
// ruleset kind%4 or, for kind ≥ 4, the rules made of holes, stones and
// flags.
func FuzzAgainstReference(f *testing.F) {
	f.Add(uint8(0), uint8(9), uint8(9), uint8(3), uint64(0), []byte{7, 1, 3, 9, 9, 4})
	f.Add(uint8(1), uint8(5), uint8(5), uint8(2), uint64(0), []byte{1, 2, 3, 4, 5, 1, 2, 3, 4, 5})
	f.Add(uint8(3), uint8(9), uint8(9), uint8(1), uint64(42), []byte{9, 9, 9, 1})
	f.Add(uint8(4), uint8(2), uint8(60), uint8(7), uint64(0), []byte{1, 2, 1, 2, 2, 1})
	f.Add(uint8(5), uint8(4), uint8(3), uint8(0), uint64(99), []byte{4, 3, 2, 1, 0, 5})
	f.Fuzz(func(t *testing.T, kind, holes, stones, flags uint8, setupSeed uint64, moves []byte) {
		var r toguz.Rules
		if kind < 4 {
			r = []toguz.Rules{toguz.Standard(), toguz.Bestemshe(), toguz.Seven(), toguz.Pre1949()}[kind]
			r.PlayOut = flags&4 != 0
		} else {
			h := 2 + int(holes)%(toguz.MaxHoles-1)
			r = toguz.Rules{
				Holes:        h,
				Stones:       1 + int(stones)%(255/(2*h)),
				Tuzdik:       flags&1 != 0,
				OriginSowing: flags&2 != 0,
				PlayOut:      flags&4 != 0,
			}
		}
		fast, err := toguz.NewPosition(r)
		if err != nil {
			t.Fatalf("NewPosition(%+v): %v", r, err)
		}
		ref := refrules.New(r)
		if setupSeed != 0 {
			s := randomSetup(rand.New(rand.NewPCG(setupSeed, 0)), r)
			if fast, err = s.Position(); err != nil {
				t.Fatalf("%+v: %v", s, err)
			}
			ref = refrules.FromSetup(s)
		}
		same(t, fast, ref, "start")
		for i, b := range moves {
			fast, ref, _ = play(t, fast, ref, toguz.Move(int(b)%(r.Holes+2)), fmt.Sprintf("move %d", i+1))
		}
		samePerft(t, fast, ref, 2, "end")
	})
}

// TestReferencePerft checks the reference itself against docs/rules.md §7, so
// that an agreement above is an agreement with the rules.
func TestReferencePerft(t *testing.T) {
	cases := []struct {
		fen    string
		counts []uint64
	}{
		{"9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1", []uint64{9, 73, 613, 5199, 43184}},
		{"2S,1,3S,1,1S,t,4S,1,2S/1,3S,1,5S,1,t,1,1S,1 71 70 S 1", []uint64{3, 15, 63, 350, 1631, 9336}},
		{"1S,3S,6,1S/8,2S 78 77 S 1", []uint64{1, 2, 4, 8, 13, 26, 47, 86, 153}},
	}
	for _, tc := range cases {
		p, _, err := toguz.ParseFEN(tc.fen, toguz.Standard())
		if err != nil {
			t.Fatal(err)
		}
		ref := refrules.FromSetup(p.Setup())
		for i, want := range tc.counts {
			if testing.Short() && want > 10000 {
				break
			}
			if got := refrules.Perft(ref, i+1); got != want {
				t.Errorf("%s: reference Perft(%d) = %d, want %d", tc.fen, i+1, got, want)
			}
		}
	}
}

// TestReferenceConservesStones checks the reference's own invariant over
// random games: every stone is on the board or in a kazan, and a tuzdik
// hole stays empty.
func TestReferenceConservesStones(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for range games() {
		r := randomRules(rng)
		p := refrules.New(r)
		for ply := 0; ply < 1000 && !p.IsOver(); ply++ { // a played-out game may cycle
			moves := p.LegalMoves()
			var err error
			if p, err = p.Play(moves[rng.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
			total := p.Kazan[0] + p.Kazan[1]
			for pl := range 2 {
				for h := range r.Holes {
					total += p.Board[pl][h]
				}
				if tz := p.Tuzdik[pl]; tz != 0 && p.Board[1-pl][tz-1] != 0 {
					t.Fatalf("%v: tuzdik hole %d holds stones: %+v", r, tz, p)
				}
			}
			if total != r.Total() {
				t.Fatalf("%v: %d stones, want %d: %+v", r, total, r.Total(), p)
			}
		}
	}
}

// TestExhaustive compares every position of the full tree to a small depth
// from the start of each named ruleset, and from the endgames of docs/rules.md
// §7, where the end rules matter most.
func TestExhaustive(t *testing.T) {
	type root struct {
		name  string
		fen   string // "" for the start
		rules toguz.Rules
		depth int
	}
	var roots []root
	depth := 5
	if testing.Short() {
		depth = 4
	}
	for _, r := range named() {
		roots = append(roots, root{name: r.String(), rules: r, depth: depth})
	}
	roots = append(roots,
		root{"E1", "2S,1,3S,1,1S,t,4S,1,2S/1,3S,1,5S,1,t,1,1S,1 71 70 S 1", toguz.Standard(), depth + 2},
		root{"E2", "1S,3S,6,1S/8,2S 78 77 S 1", toguz.Standard(), 10},
	)
	for _, rt := range roots {
		t.Run(rt.name, func(t *testing.T) {
			fast, err := toguz.NewPosition(rt.rules)
			if rt.fen != "" {
				fast, _, err = toguz.ParseFEN(rt.fen, rt.rules)
			}
			if err != nil {
				t.Fatal(err)
			}
			nodes := 0
			var walk func(fast toguz.Position, ref refrules.Position, depth int, path []toguz.Move)
			walk = func(fast toguz.Position, ref refrules.Position, depth int, path []toguz.Move) {
				nodes++
				same(t, fast, ref, fmt.Sprint(rt.name, " after ", path))
				if depth == 0 {
					return
				}
				for _, m := range ref.LegalMoves() {
					next, nextRef, _ := play(t, fast, ref, m, fmt.Sprint(rt.name, " after ", path))
					walk(next, nextRef, depth-1, append(path, m))
				}
			}
			walk(fast, refrules.FromSetup(fast.Setup()), rt.depth, nil)
			t.Logf("%d positions", nodes)
		})
	}
}
