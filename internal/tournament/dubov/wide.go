package dubov

import "math/bits"

// wideWords is the width of a matching weight in 64-bit words. A weight
// holds the pairing criteria as fields, the most important highest (see
// layout in engine.go); 384 bits leave room for the largest brackets.
const wideWords = 6

// wide is a signed integer of wideWords words in two's complement, least
// significant word first: the weights and duals of maxWeightMatching,
// which adds, subtracts, compares and halves them and nothing else.
type wide [wideWords]uint64

func (a wide) add(b wide) wide {
	var c uint64
	for i := range a {
		a[i], c = bits.Add64(a[i], b[i], c)
	}
	return a
}

func (a wide) sub(b wide) wide {
	var c uint64
	for i := range a {
		a[i], c = bits.Sub64(a[i], b[i], c)
	}
	return a
}

// less compares as signed numbers.
func (a wide) less(b wide) bool {
	top := wideWords - 1
	if int64(a[top]) != int64(b[top]) {
		return int64(a[top]) < int64(b[top])
	}
	for i := top - 1; i >= 0; i-- {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// half divides by two, rounding towards minus infinity (an arithmetic
// shift); the algorithm halves only even numbers.
func (a wide) half() wide {
	for i := range wideWords - 1 {
		a[i] = a[i]>>1 | a[i+1]<<63
	}
	a[wideWords-1] = uint64(int64(a[wideWords-1]) >> 1)
	return a
}

func (a wide) zero() bool { return a == wide{} }

// shl shifts left by n bits (n < 64).
func (a wide) shl(n int) wide {
	if n == 0 {
		return a
	}
	for i := wideWords - 1; i > 0; i-- {
		a[i] = a[i]<<n | a[i-1]>>(64-n)
	}
	a[0] <<= n
	return a
}

// small is a non-negative int as a wide.
func small(v int) wide { return wide{uint64(v)} }
