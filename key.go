package toguz

import "encoding/binary"

// Key returns a 64-bit hash of the whole position (board, kazans, tuzdiks,
// player to move and rules), for transposition tables, opening books and
// repetition tables. Equal positions have equal keys; different positions
// collide with probability about 2⁻⁶⁴. It costs a few multiplications, so a
// search can afford it at every node.
func (p Position) Key() uint64 {
	// Each step is a bijection of h followed by mixing in the next word, so
	// positions that differ in one word never collide.
	h := p.board.w0 * 0x9e3779b97f4a7c15
	h = (h ^ h>>29 ^ p.board.w1) * 0xbf58476d1ce4e5b9
	h = (h ^ h>>32 ^ p.board.w2) * 0x94d049bb133111eb
	h = (h ^ h>>29 ^ p.meta) * 0x9e3779b97f4a7c15
	return h ^ h>>32
}

// RingStones returns the stones of every hole in sowing order: White's
// holes 1..n are entries 0..n-1, Black's n..2n-1, entries past 2n are zero.
// It reads the board in three words, for evaluation functions that look at
// every hole.
func (p Position) RingStones() (ring [2 * MaxHoles]uint8) {
	// Three stores, no copy: in the WebAssembly build a copy is a call.
	binary.LittleEndian.PutUint64(ring[0:], p.board.w0)
	binary.LittleEndian.PutUint64(ring[8:], p.board.w1)
	binary.LittleEndian.PutUint16(ring[16:], uint16(p.board.w2))
	return ring
}
