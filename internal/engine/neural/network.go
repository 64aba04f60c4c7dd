// Package neural is a small neural correction to the engine's linear
// evaluation (package eval), trained on the same data and added to it when
// the engine's Neural option is on.
//
//   - Inputs are one-hot, from the side to move's view: for each side and
//     hole its stone count (0 to 23, more counts as 23), the tuzdik each
//     side owns (8 places each) and each kazan in buckets of 4 stones: at
//     most 22 inputs are set, so the hidden layer is the sum of that many
//     rows, NNUE style, with no multiplication.
//   - One hidden layer of Hidden units, clipped ReLU, and one output in
//     hundredths of a stone, the residual of the linear evaluation.
//   - Inference is integer only and allocates nothing: the int16 weights
//     are kept offset and packed four to a 64-bit word, so that adding a
//     row is 8 plain additions (SWAR); weights are embedded from
//     network.txt, which names the command that made it.
//   - Train fits the network in float64 with Adam on one thread (so it is
//     bit-reproducible) and quantises it.
package neural

import (
	"errors"
	"fmt"

	"github.com/toguz/toguz"
)

// The input layout.
const (
	Counts       = 24                 // stone counts per hole: 0..22 and 23 or more
	tuzdikInputs = 2 * 9 * Counts     // my tuzdik in his hole t (8), his in mine (8)
	KazanBuckets = 21                 // kazan/4, 80 and 81 in the last bucket
	kazanInputs  = tuzdikInputs + 2*8 // my kazan bucket, then his
	NumInputs    = kazanInputs + 2*KazanBuckets
	maxActive    = 2*9 + 2 + 2 // inputs set at once
	Hidden       = 32          // hidden units
	QA           = 256         // fixed-point scale of the first layer: activation 1.0 is QA
	QB           = 16          // the output weights are in 1/QB hundredths of a stone
)

// Network is a quantised network. Make it with Parse or Train, which also
// pack the first layer for Evaluate.
type Network struct {
	W1 [NumInputs][Hidden]int16 // first layer, a row per input, scaled by QA
	B1 [Hidden]int16            // first layer bias, scaled by QA
	W2 [Hidden]int32            // output weights, 1/QB hundredths of a stone per unit activation
	B2 int32                    // output bias in hundredths of a stone

	// rows and bias are W1 and B1 offset to be non-negative (by maxW1
	// and maxB1) and packed four 16-bit lanes to a word, so that a row is
	// added in Hidden/4 plain additions: with the bounds below no lane
	// ever exceeds 16 bits, so no carry crosses into the next lane.
	rows [NumInputs][words]uint64
	bias [words]uint64
}

// words is the number of 64-bit words of a packed row.
const words = Hidden / 4

// Evaluate keeps the 8 words in 8 locals: these fail to compile otherwise.
const (
	_ uint = words - 8
	_ uint = 8 - words
)

// Bounds of the first layer's weights and biases: a lane holds at most
// 2·maxB1 + maxActive·2·maxW1 = 60,000, which fits in 16 unsigned bits.
const (
	maxW1 = 1000
	maxB1 = 8000
)

// errRange is returned for a network whose first layer exceeds the bounds.
var errRange = errors.New("first layer weight out of range")

// pack fills rows and bias from W1 and B1.
func (nw *Network) pack() error {
	for j := range Hidden {
		if abs(int(nw.B1[j])) > maxB1 {
			return fmt.Errorf("%w: bias %d of hidden unit %d, limit ±%d", errRange, nw.B1[j], j+1, maxB1)
		}
		for i := range nw.W1 {
			if abs(int(nw.W1[i][j])) > maxW1 {
				return fmt.Errorf("%w: input %d, hidden unit %d: %d, limit ±%d", errRange, i+1, j+1, nw.W1[i][j], maxW1)
			}
		}
	}
	packRow := func(dst *[words]uint64, src *[Hidden]int16, offset int) {
		*dst = [words]uint64{}
		for j, v := range src {
			dst[j/4] |= uint64(int(v)+offset) << (16 * (j % 4))
		}
	}
	for i := range nw.W1 {
		packRow(&nw.rows[i], &nw.W1[i], maxW1)
	}
	packRow(&nw.bias, &nw.B1, maxB1)
	return nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// active writes the inputs set for p into in and returns how many; ok is
// false for a board of another size than 9 holes.
func active(p *toguz.Position, in *[maxActive]uint16) (n int, ok bool) {
	if p.Holes() != 9 {
		return 0, false
	}
	me := p.Turn()
	op := me.Other()
	mine, his := sides(p)
	for h := range 9 {
		in[n] = uint16(h*Counts) + uint16(min(mine[h], Counts-1))
		in[n+1] = uint16((9+h)*Counts) + uint16(min(his[h], Counts-1))
		n += 2
	}
	if t := p.Tuzdik(me); t != 0 && t <= 8 {
		in[n] = uint16(tuzdikInputs + t - 1)
		n++
	}
	if t := p.Tuzdik(op); t != 0 && t <= 8 {
		in[n] = uint16(tuzdikInputs + 8 + t - 1)
		n++
	}
	in[n] = uint16(kazanInputs + min(p.Kazan(me)/4, KazanBuckets-1))
	in[n+1] = uint16(kazanInputs + KazanBuckets + min(p.Kazan(op)/4, KazanBuckets-1))
	return n + 2, true
}

// sides returns the stones in the mover's holes and in the other's.
func sides(p *toguz.Position) (mine, his [9]uint8) {
	raw := p.RingStones()
	mine, his = [9]uint8(raw[:9]), [9]uint8(raw[9:])
	if p.Turn() == toguz.Black {
		return his, mine
	}
	return mine, his
}

// Evaluate returns the network's correction for p in hundredths of a
// stone, from the side to move's view; 0 off the standard 9-hole board.
// Each row is added where its input is found (training's float network
// reads the inputs from active): one loop of 9 turns where finding the
// inputs and then adding their rows made 31, which matters in the
// WebAssembly build, where every turn of a loop is a jump through the
// function's block table.
func (nw *Network) Evaluate(p *toguz.Position) int32 {
	if p.Holes() != 9 {
		return 0
	}
	me := p.Turn()
	op := me.Other()
	mine, his := sides(p)
	b := &nw.bias
	a0, a1, a2, a3, a4, a5, a6, a7 := b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]
	add := func(i int) {
		r := &nw.rows[i]
		a0 += r[0]
		a1 += r[1]
		a2 += r[2]
		a3 += r[3]
		a4 += r[4]
		a5 += r[5]
		a6 += r[6]
		a7 += r[7]
	}
	n := 2*9 + 2
	for h := range 9 {
		add(h*Counts + int(min(mine[h], Counts-1)))
		add((9+h)*Counts + int(min(his[h], Counts-1)))
	}
	if t := p.Tuzdik(me); t != 0 && t <= 8 {
		add(tuzdikInputs + t - 1)
		n++
	}
	if t := p.Tuzdik(op); t != 0 && t <= 8 {
		add(tuzdikInputs + 8 + t - 1)
		n++
	}
	add(kazanInputs + min(p.Kazan(me)/4, KazanBuckets-1))
	add(kazanInputs + KazanBuckets + min(p.Kazan(op)/4, KazanBuckets-1))
	return nw.output(n, a0, a1, a2, a3, a4, a5, a6, a7)
}

// output returns the network's output for the hidden layer's sums a0..a7
// of n inputs: each 16-bit lane less its offset, clipped to [0, QA], times
// its output weight; a word's four lanes a turn.
func (nw *Network) output(n int, a0, a1, a2, a3, a4, a5, a6, a7 uint64) int32 {
	offset := int32(maxB1 + maxW1*n)
	var out int64
	for k, a := range [words]uint64{a0, a1, a2, a3, a4, a5, a6, a7} {
		w := (*[4]int32)(nw.W2[4*k : 4*k+4])
		out += lane(a, offset, w[0]) + lane(a>>16, offset, w[1]) + lane(a>>32, offset, w[2]) + lane(a>>48, offset, w[3])
	}
	return int32(out/(QA*QB)) + nw.B2
}

// lane is one hidden unit's term: its lane (the low 16 bits of a) less the
// offset, clipped to [0, QA], times its weight.
func lane(a uint64, offset, w int32) int64 {
	return int64(min(max(int32(uint16(a))-offset, 0), QA)) * int64(w)
}
