// Package eval is the static evaluation of the toguz engine: a linear
// function of integer features of a position, with weights learned by
// logistic (Texel-style) regression on game results and self-play search
// scores (see internal/engine/train) and embedded from weights.txt; the
// engine adds a small network's correction to it (internal/engine/neural).
//
//   - Extract computes the features of a position from the side to move's
//     view: kazans (with a phase term), stones on each side, tuzdik
//     ownership and place, the biggest capture and the number of captures
//     each side has next, tuzdik-making moves, mobility, stones per hole,
//     odd holes (targets), closeness to 82, starvation (atsyrau risk), and
//     a table of indicators per hole and stone-count bucket for each side
//     (hole-9 accumulation and the like).
//   - Weights.Evaluate is their dot product, in hundredths of a stone; it
//     uses integer arithmetic only, looks the indicators up instead of
//     multiplying them, and allocates nothing.
//   - EvaluateCapture also returns the biggest capture, which the
//     quiescence search uses to stop early.
//   - Learned returns the embedded trained weights; Material the plain
//     kazan difference, the baseline the learned weights must beat.
package eval

import (
	"fmt"

	"github.com/toguz/toguz"
)

// The features. Every one is an integer computed from the position alone,
// from the view of the player to move ("me"); "diff" means mine minus his.
const (
	Kazan         = iota // kazan diff, in stones
	KazanPhase           // kazan diff × stones still on the board / 16
	Board                // stones on my side minus on his
	Tuzdik               // I own a tuzdik minus he owns one
	TuzdikHole           // 8 features: my tuzdik is his hole k+1, minus his tuzdik is my hole k+1
	MyCapture     = TuzdikHole + 8
	MyCaptures    = MyCapture + 1 // number of my moves that capture
	HisCapture    = MyCaptures + 1
	HisCaptures   = HisCapture + 1  // his capturing moves, were it his turn
	MyTuzdikMove  = HisCaptures + 1 // 1 when a move of mine makes a tuzdik
	HisTuzdikMove = MyTuzdikMove + 1
	Mobility      = HisTuzdikMove + 1 // non-empty holes diff
	Hole          = Mobility + 1      // 9 features: stones in my hole h+1 minus in his
	Odd           = Hole + 9          // holes with an odd count (a target) diff
	MyNearWin     = Odd + 1           // max(0, my kazan − 65)
	HisNearWin    = MyNearWin + 1
	Starve        = HisNearWin + 1 // max(0, 12 − his stones) − max(0, 12 − mine)
	Tempo         = Starve + 1     // always 1
	// Buckets are 2×9×NumBuckets indicators: my (then his) hole h holds a
	// number of stones in bucket b (see bucketOf): a learned value for every
	// hole and load, like a chess piece-square table.
	Buckets     = Tempo + 1
	NumFeatures = Buckets + 2*9*NumBuckets
)

// NumBuckets is the number of stone-count buckets of a hole.
const NumBuckets = 8

// bucketOf maps a hole's stones to its bucket: 0, 1, 2, 3–4, 5–8, 9–13,
// 14–19, 20 and more.
var bucketOf = func() (t [256]uint8) {
	for n := range t {
		switch {
		case n <= 2:
			t[n] = uint8(n)
		case n <= 4:
			t[n] = 3
		case n <= 8:
			t[n] = 4
		case n <= 13:
			t[n] = 5
		case n <= 19:
			t[n] = 6
		default:
			t[n] = 7
		}
	}
	return t
}()

// bucketIndex returns the feature of side (0 mine, 1 his), hole h (0..8)
// and stones n.
func bucketIndex(side, h int, n uint8) int {
	return Buckets + (side*9+h)*NumBuckets + int(bucketOf[n])
}

// Names are the feature names, used in weights.txt.
var Names = func() [NumFeatures]string {
	names := baseNames
	bounds := [NumBuckets]string{"0", "1", "2", "3-4", "5-8", "9-13", "14-19", "20+"}
	for side, who := range []string{"my", "his"} {
		for h := range 9 {
			for b, r := range bounds {
				names[Buckets+(side*9+h)*NumBuckets+b] = fmt.Sprintf("%s_hole%d_%s", who, h+1, r)
			}
		}
	}
	return names
}()

var baseNames = [NumFeatures]string{
	Kazan: "kazan", KazanPhase: "kazan_phase", Board: "board", Tuzdik: "tuzdik",
	TuzdikHole: "tuzdik_hole1", TuzdikHole + 1: "tuzdik_hole2", TuzdikHole + 2: "tuzdik_hole3",
	TuzdikHole + 3: "tuzdik_hole4", TuzdikHole + 4: "tuzdik_hole5", TuzdikHole + 5: "tuzdik_hole6",
	TuzdikHole + 6: "tuzdik_hole7", TuzdikHole + 7: "tuzdik_hole8",
	MyCapture: "my_capture", MyCaptures: "my_captures", HisCapture: "his_capture", HisCaptures: "his_captures",
	MyTuzdikMove: "my_tuzdik_move", HisTuzdikMove: "his_tuzdik_move", Mobility: "mobility",
	Hole: "hole1", Hole + 1: "hole2", Hole + 2: "hole3", Hole + 3: "hole4", Hole + 4: "hole5",
	Hole + 5: "hole6", Hole + 6: "hole7", Hole + 7: "hole8", Hole + 8: "hole9",
	Odd: "odd", MyNearWin: "my_near_win", HisNearWin: "his_near_win", Starve: "starve", Tempo: "tempo",
}

// Features holds the feature values of one position.
type Features [NumFeatures]int32

// Extract computes the features of p for the player to move. It works for
// every ruleset (board size, tuzdik on or off, origin sowing); the bucket
// features are set on the standard 9-hole board only.
func Extract(p *toguz.Position, f *Features) {
	*f = Features{}
	mine, his, ok := extractBase(p, (*[Buckets]int32)(f[:Buckets]))
	if ok {
		for h := range 9 {
			f[bucketIndex(0, h, mine[h])]++
			f[bucketIndex(1, h, his[h])]++
		}
	}
}

// extractBase sets the features before Buckets and returns the stones of
// the mover's and the other's holes, with ok when the board has 9 holes.
// f must be zero. It is the features' plain definition, for training and
// the tests; the search's EvaluateCapture computes their weighted sum in
// one pass of its own.
func extractBase(p *toguz.Position, f *[Buckets]int32) (mineOut, hisOut [9]uint8, ok bool) {
	me := p.Turn()
	op := me.Other()
	n := p.Holes()
	ring := 2 * n
	var st [2 * toguz.MaxHoles]int32
	var board [2]int32
	raw := p.RingStones()
	mine, his := raw[:n], raw[n:2*n]
	if me == toguz.Black {
		mine, his = his, mine
	}
	for h := 1; h <= n; h++ {
		a, b := int32(mine[h-1]), int32(his[h-1])
		// In "my" ring, my holes are 0..n-1, his n..2n-1.
		st[h-1], st[n+h-1] = a, b
		board[0] += a
		board[1] += b
		f[Hole+h-1] = a - b
		if a != 0 {
			f[Mobility]++
		}
		if b != 0 {
			f[Mobility]--
		}
		f[Odd] += a&1 - b&1
	}
	km, ko := int32(p.Kazan(me)), int32(p.Kazan(op))
	f[Kazan] = km - ko
	f[KazanPhase] = (km - ko) * (board[0] + board[1]) / 16
	f[Board] = board[0] - board[1]
	// My tuzdik is his hole tm (1..n), so ring index n+tm-1 in my ring.
	tm, to := p.Tuzdik(me), p.Tuzdik(op)
	if tm != 0 {
		f[Tuzdik]++
		if tm <= 8 {
			f[TuzdikHole+tm-1]++
		}
	}
	if to != 0 {
		f[Tuzdik]--
		if to <= 8 {
			f[TuzdikHole+to-1]--
		}
	}
	rules := p.Rules()
	origin := rules.OriginSowing
	// Captures each side could make from here: the last stone's hole and its
	// count after sowing follow from the stones in the hole played alone.
	for side := range 2 {
		mine, his := 0, n // ring offsets of the mover's and the target's holes
		own, other := tm, to
		if side == 1 {
			mine, his = n, 0
			own, other = to, tm
		}
		ownT := -1 // ring index (in my ring) of the target hole that is a tuzdik of the mover
		if own != 0 {
			ownT = his + own - 1
		}
		var best, count, tuz int32
		for h := range n {
			from := mine + h
			s := int(st[from])
			if s == 0 {
				continue
			}
			var last, laps int
			switch {
			case s == 1:
				last = from + 1
				if last == ring {
					last = 0
				}
			case origin:
				last = (from + s - 1) % ring
				laps = (s - 1) / ring
			default:
				last = (from + s) % ring
				laps = (s - 1) / ring
			}
			if last < his || last >= his+n || last == ownT {
				continue
			}
			c := int32(laps + 1)
			if last != from {
				c += st[last]
			}
			switch {
			case c&1 == 0:
				count++
				best = max(best, c)
			case c == 3 && rules.Tuzdik && own == 0 && last-his != n-1 && (other == 0 || last-his != other-1):
				tuz = 1
				best = max(best, 3)
			}
		}
		if side == 0 {
			f[MyCapture], f[MyCaptures], f[MyTuzdikMove] = best, count, tuz
		} else {
			f[HisCapture], f[HisCaptures], f[HisTuzdikMove] = best, count, tuz
		}
	}
	f[MyNearWin] = max(0, km-65)
	f[HisNearWin] = max(0, ko-65)
	f[Starve] = max(0, 12-board[1]) - max(0, 12-board[0])
	f[Tempo] = 1
	if n != 9 {
		return mineOut, hisOut, false
	}
	copy(mineOut[:], mine)
	copy(hisOut[:], his)
	return mineOut, hisOut, true
}

// Shift is the fixed-point shift of the weights: a weight is in 1/2^Shift
// hundredths of a stone per unit of its feature.
const Shift = 8

// Weights are the coefficients of the features.
type Weights [NumFeatures]int32

// Evaluate returns the value of p for the player to move in hundredths of a
// stone: w.Dot of Extract's features.
func (w *Weights) Evaluate(p *toguz.Position) int32 {
	v, _ := w.EvaluateCapture(p)
	return v
}

// EvaluateCapture returns Evaluate(p) and the feature MyCapture, the
// biggest capture the mover has.
//
// It is the search's hottest function, so it computes the weighted sum in
// one pass over the holes: each feature weighted where it is found and never
// stored, the bucket indicators looked up, the ring read in place, and no
// branch in the loop but the loop's own (the conditions are arithmetic,
// b2i). Branches matter twice: natively the search's positions mispredict
// them, and in the browser's WebAssembly build every jump taken goes through
// the function's block table (about 3 ns, against 0.4 for a native loop's turn).
// TestEvaluateIsDot checks it against Extract's features on every position
// of random games under several rulesets.
func (w *Weights) EvaluateCapture(p *toguz.Position) (int32, int32) {
	me := p.Turn()
	op := me.Other()
	n := p.Holes()
	raw := p.RingStones()
	// The ring offsets of my holes and his.
	mo, ho := 0, n
	if me == toguz.Black {
		mo, ho = n, 0
	}
	km, ko := int32(p.Kazan(me)), int32(p.Kazan(op))
	tm, to := p.Tuzdik(me), p.Tuzdik(op)
	rules := p.Rules()
	// A move of two or more stones drops its first in the hole played under
	// origin sowing; a single stone always goes to the next hole.
	origin := int(b2i(rules.OriginSowing))
	// The ring index of each side's tuzdik (a hole of the other's, where its
	// own last stone takes nothing), or -1; and whether it may still make one.
	myT, hisT := -1, -1
	if tm != 0 {
		myT = ho + tm - 1
	}
	if to != 0 {
		hisT = mo + to - 1
	}
	myNew, hisNew := b2i(rules.Tuzdik && tm == 0), b2i(rules.Tuzdik && to == 0)
	div := &ringDiv[n]
	buckets := int64(b2i(n == 9)) // the indicators are set on the 9-hole board only
	var s int64
	var bm, bh, mob, odd int32
	var myBest, myCount, myTuz, hisBest, hisCount, hisTuz int32
	for h := range n {
		a, b := int32(raw[mo+h]), int32(raw[ho+h])
		bm += a
		bh += b
		mob += b2i(a != 0) - b2i(b != 0)
		odd += a&1 - b&1
		s += int64(w[Hole+h])*int64(a-b) +
			buckets*(int64(w[bucketIndex(0, h, uint8(a))])+int64(w[bucketIndex(1, h, uint8(b))]))
		// My move from my hole h, then his from his: the last stone's ring
		// index and the stones then in its hole (k); t is the target hole
		// when 0 ≤ t < n. An even k captures, a 3 may make a tuzdik, not in
		// the last hole nor in the one matching the other's tuzdik.
		last, k := sown(&raw, div, mo+h, int(a), origin)
		t := last - ho
		target := b2i(a != 0) * b2i(uint(t) < uint(n)) * b2i(last != myT)
		even := target * b2i(k&1 == 0)
		tuz := target * myNew * b2i(k == 3) * b2i(t != n-1) * b2i(t != to-1)
		myCount += even
		myTuz |= tuz
		myBest = max(myBest, k*even, 3*tuz)
		last, k = sown(&raw, div, ho+h, int(b), origin)
		t = last - mo
		target = b2i(b != 0) * b2i(uint(t) < uint(n)) * b2i(last != hisT)
		even = target * b2i(k&1 == 0)
		tuz = target * hisNew * b2i(k == 3) * b2i(t != n-1) * b2i(t != tm-1)
		hisCount += even
		hisTuz |= tuz
		hisBest = max(hisBest, k*even, 3*tuz)
	}
	if tm != 0 {
		s += int64(w[Tuzdik])
		if tm <= 8 {
			s += int64(w[TuzdikHole+tm-1])
		}
	}
	if to != 0 {
		s -= int64(w[Tuzdik])
		if to <= 8 {
			s -= int64(w[TuzdikHole+to-1])
		}
	}
	dot := func(i int, x int32) { s += int64(w[i]) * int64(x) }
	dot(Kazan, km-ko)
	dot(KazanPhase, (km-ko)*(bm+bh)/16)
	dot(Board, bm-bh)
	dot(Mobility, mob)
	dot(Odd, odd)
	dot(MyCapture, myBest)
	dot(MyCaptures, myCount)
	dot(MyTuzdikMove, myTuz)
	dot(HisCapture, hisBest)
	dot(HisCaptures, hisCount)
	dot(HisTuzdikMove, hisTuz)
	dot(MyNearWin, max(0, km-65))
	dot(HisNearWin, max(0, ko-65))
	dot(Starve, max(0, 12-bh)-max(0, 12-bm))
	dot(Tempo, 1)
	return int32(s >> Shift), myBest
}

// sown returns the ring index where the last of the s stones of ring hole
// from lands, and the stones then in that hole (for s = 0, values its
// caller multiplies by zero).
func sown(raw *[2 * toguz.MaxHoles]uint8, div *[256][2]uint8, from, s, origin int) (int, int32) {
	// from+s ≤ 17+162 and s−1 < 162: both index the 256-entry table.
	last := int(div[uint8(from+s-origin*int(b2i(s > 1)))][1])
	laps := int32(div[uint8(max(s-1, 0))][0])
	return last, laps + 1 + int32(raw[last])*b2i(last != from)
}

// b2i is 1 for true and 0 for false, without a branch.
func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// ringDiv[n][x] is x/(2n) and x%(2n): the laps and the landing hole of a
// sowing on a board of n holes a side, for every x that a board's 162
// stones and 18 holes can make.
var ringDiv = func() (t [toguz.MaxHoles + 1][256][2]uint8) {
	for n := 1; n <= toguz.MaxHoles; n++ {
		for x := range t[n] {
			t[n][x] = [2]uint8{uint8(x / (2 * n)), uint8(x % (2 * n))}
		}
	}
	return t
}()

// Dot returns the weighted sum of f in hundredths of a stone.
func (w *Weights) Dot(f *Features) int32 {
	var s int64
	for i, x := range f {
		s += int64(w[i]) * int64(x)
	}
	return int32(s >> Shift)
}

// Material returns the weights of the plain kazan difference.
func Material() *Weights {
	var w Weights
	w[Kazan] = 100 << Shift
	return &w
}
