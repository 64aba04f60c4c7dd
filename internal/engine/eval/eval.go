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
	var base [Buckets]int32
	mine, his, ok := extractBase(p, &base)
	copy(f[:], base[:])
	if ok {
		for h := range 9 {
			f[bucketIndex(0, h, mine[h])]++
			f[bucketIndex(1, h, his[h])]++
		}
	}
}

// extractBase sets the features before Buckets and returns the stones of
// the mover's and the other's holes, with ok when the board has 9 holes.
// f must be zero; it is the small array of the base features, so that
// Evaluate does not clear the indicators it never stores.
// It stays one long function because it runs at every node of the search.
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
				_, last = divRing(from+s-1, ring)
				laps, _ = divRing(s-1, ring)
			default:
				_, last = divRing(from+s, ring)
				laps, _ = divRing(s-1, ring)
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
// stone.
// It equals w.Dot of Extract's features, computed sparsely: the bucket
// indicators are looked up rather than multiplied.
func (w *Weights) Evaluate(p *toguz.Position) int32 {
	v, _ := w.EvaluateCapture(p)
	return v
}

// EvaluateCapture returns Evaluate(p) and the feature MyCapture, the
// biggest capture the mover has.
func (w *Weights) EvaluateCapture(p *toguz.Position) (int32, int32) {
	var f [Buckets]int32
	mine, his, ok := extractBase(p, &f)
	var s int64
	for i, x := range f {
		s += int64(w[i]) * int64(x)
	}
	if ok {
		for h := range 9 {
			s += int64(w[bucketIndex(0, h, mine[h])]) + int64(w[bucketIndex(1, h, his[h])])
		}
	}
	return int32(s >> Shift), f[MyCapture]
}

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

// divRing returns x/ring and x%ring for x ≥ 0, with a constant divisor
// (a multiplication) for the standard ring of 18 holes.
func divRing(x, ring int) (int, int) {
	u, r := uint(x), uint(ring)
	if r == 18 {
		return int(u / 18), int(u % 18)
	}
	return int(u / r), int(u % r)
}
