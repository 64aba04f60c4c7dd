package engine

import (
	"math/bits"

	"github.com/toguz/toguz"
)

// Bounds of a transposition table score.
const (
	boundNone  = 0
	boundUpper = 1 // the score is at most this (fail low)
	boundLower = 2 // the score is at least this (fail high)
	boundExact = boundUpper | boundLower
)

// ttEntry is one table slot: check is key^data, so a slot torn by two
// threads writing at once fails the key check instead of returning another
// position's data (the "lockless hashing" of Hyatt and Mann). Both words are
// atomics so the race detector agrees, on amd64 plain moves; in the
// one-threaded js build plain words (ttWord).
type ttEntry struct {
	check, data ttWord
}

// clusterSize entries share one 64-byte cluster; a probe looks at all of them.
const clusterSize = 4

type ttCluster [clusterSize]ttEntry

// table is the transposition table shared by all search threads.
type table struct {
	clusters []ttCluster
	gen      uint8 // search generation, to prefer replacing old entries
}

func newTable(mb int) *table {
	n := uint64(mb) << 20 / 64
	return &table{clusters: make([]ttCluster, max(n, 1))}
}

func (t *table) clear() {
	clear(t.clusters)
	t.gen = 0
}

// ttData is an unpacked entry.
type ttData struct {
	move  toguz.Move
	bound uint8
	depth int
	score Score // relative to the node (see toTT)
	eval  Score
	gen   uint8
	// hasEval says eval was computed.
	hasEval bool
}

// Layout of data: move 4 bits, bound 2, depth 8, generation 8, score 16,
// eval 16, hasEval 1.
func (d ttData) pack() uint64 {
	x := uint64(d.move)&0xf | uint64(d.bound)<<4 | uint64(uint8(d.depth))<<6 |
		uint64(d.gen)<<14 | uint64(uint16(int16(d.score)))<<22 | uint64(uint16(int16(d.eval)))<<38
	if d.hasEval {
		x |= 1 << 54
	}
	return x
}

func unpack(x uint64) ttData {
	return ttData{
		move:  toguz.Move(x & 0xf),
		bound: uint8(x>>4) & 3,
		depth: int(uint8(x >> 6)),
		gen:   uint8(x >> 14),
		score: Score(int16(uint16(x >> 22))),
		eval:  Score(int16(uint16(x >> 38))),

		hasEval: x&(1<<54) != 0,
	}
}

func (t *table) cluster(key uint64) *ttCluster {
	hi, _ := bits.Mul64(key, uint64(len(t.clusters)))
	return &t.clusters[hi]
}

// probe returns the entry stored for key.
func (t *table) probe(key uint64) (ttData, bool) {
	c := t.cluster(key)
	for i := range c {
		d := c[i].data.Load()
		if c[i].check.Load()^d == key && d != 0 {
			return unpack(d), true
		}
	}
	return ttData{}, false
}

// store saves d for key, replacing the same key, else the slot with the
// least depth, older generations first.
func (t *table) store(key uint64, d ttData) {
	c := t.cluster(key)
	d.gen = t.gen
	victim, worst := 0, 1<<30
	for i := range c {
		x := c[i].data.Load()
		if x == 0 || c[i].check.Load()^x == key {
			if x != 0 {
				old := unpack(x)
				// Keep a deeper entry of this search unless the new one is exact.
				if d.move == toguz.NoMove {
					d.move = old.move
				}
				if old.gen == d.gen && old.depth > d.depth+2 && d.bound != boundExact {
					return
				}
			}
			victim = i
			break
		}
		old := unpack(x)
		v := old.depth
		if old.gen != d.gen {
			v -= 256
		}
		if v < worst {
			victim, worst = i, v
		}
	}
	x := d.pack()
	c[victim].data.Store(x)
	c[victim].check.Store(key ^ x)
}
