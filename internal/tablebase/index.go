package tablebase

// MaxStones is the largest number of stones on the board a table may cover.
// Each value packs two counts of up to 15 stones into a byte, and the
// generator numbers the positions of a layer in 31 bits; a table of 12
// stones would take about 2.6 GB.
const MaxStones = 12

// ringSize is the number of holes on the standard board, both sides.
const ringSize = 18

// maxBinom bounds the binomials the index needs: C(n, r) with n < maxBinom.
const maxBinom = MaxStones + ringSize

// binom[n][r] is C(n, r), 0 when r > n. Computed once, never written again.
var binom = func() (c [maxBinom][ringSize]int64) {
	for n := range maxBinom {
		c[n][0] = 1
		for r := 1; r < ringSize && r <= n; r++ {
			c[n][r] = c[n-1][r-1]
			if r <= n-1 {
				c[n][r] += c[n-1][r]
			}
		}
	}
	return c
}()

// A tuzdik configuration, seen from the side to move: my is the ring index
// (9..16, the opponent's holes 1..8) of the mover's tuzdik, opp the ring index
// (0..7) of the opponent's tuzdik on the mover's side; -1 for none. The two
// never have the same hole number (RULES.md §2.4(c)) and never hole 9.
type tuzdiks struct{ my, opp int8 }

// numConfigs is the number of tuzdik configurations: none (1), only one side
// with one (8 + 8), both on different hole numbers (8·8 − 8).
const numConfigs = 73

// config describes one tuzdik configuration: its tuzdiks and the ring
// indices of the holes that can hold stones (all but the tuzdiks), in ring
// order.
type config struct {
	t     tuzdiks
	nfree int
	free  [ringSize]int8
}

// configs lists every tuzdik configuration; configIndex maps (my+1−9 or 0,
// opp+1) to its place in configs. Both are computed once.
var configs, configIndex = func() (cs [numConfigs]config, idx [10][10]int8) {
	n := 0
	for my := int8(-1); my <= 16; my++ {
		if my >= 0 && my < 9 {
			continue
		}
		for opp := int8(-1); opp <= 7; opp++ {
			if my >= 0 && opp >= 0 && my-9 == opp {
				continue
			}
			c := &cs[n]
			c.t = tuzdiks{my, opp}
			for h := int8(0); h < ringSize; h++ {
				if h != my && h != opp {
					c.free[c.nfree] = h
					c.nfree++
				}
			}
			idx[myKey(my)][opp+1] = int8(n)
			n++
		}
	}
	if n != numConfigs {
		panic("tablebase: tuzdik configurations miscounted")
	}
	return cs, idx
}()

// myKey maps the mover's tuzdik (−1 or 9..16) to 0..8.
func myKey(my int8) int8 {
	if my < 0 {
		return 0
	}
	return my - 8
}

// configOf returns the index of a tuzdik configuration.
func configOf(t tuzdiks) int { return int(configIndex[myKey(t.my)][t.opp+1]) }

// blockSize returns the number of boards with k stones over the free holes
// of configuration c: the weak compositions of k into nfree parts,
// C(k+nfree−1, nfree−1).
func blockSize(k, c int) int64 {
	m := configs[c].nfree
	return binom[k+m-1][m-1]
}

// layout places every position of a table with up to maxStones stones:
// layer k (k stones on the board) is the blocks of the 73 configurations in
// order, and the layers follow each other from k = 0. Positions are indexed
// with the side to move as White (see frame), so a table has no entries for
// Black to move.
type layout struct {
	maxStones int
	// off[k][c] is the index of the first position of configuration c in
	// layer k; off[k][numConfigs] is the end of layer k.
	off [MaxStones + 1][numConfigs + 1]int64
}

func newLayout(maxStones int) *layout {
	l := &layout{maxStones: maxStones}
	var at int64
	for k := 0; k <= maxStones; k++ {
		for c := range numConfigs {
			l.off[k][c] = at
			at += blockSize(k, c)
		}
		l.off[k][numConfigs] = at
	}
	return l
}

// size returns the number of positions in the table.
func (l *layout) size() int64 { return l.off[l.maxStones][numConfigs] }

// rank returns the index of board b, holding k stones, in its block of
// configuration c. The board is read as stars and bars: the stones of the
// free holes in ring order, with a bar after each free hole but the last;
// the bar positions p₁ < … < p_{m−1} are ranked in the combinatorial number
// system, Σ C(p_j, j). It is a bijection onto [0, blockSize(k, c)).
func rank(b *[ringSize]int8, c *config) int64 {
	var r int64
	s := 0
	for j := 1; j < c.nfree; j++ {
		s += int(b[c.free[j-1]])
		r += binom[s+j-1][j]
	}
	return r
}

// unrank sets b to the board of rank r with k stones in configuration c; the
// tuzdik holes get no stone. It is the inverse of rank.
func unrank(b *[ringSize]int8, r int64, k int, c *config) {
	*b = [ringSize]int8{}
	m := c.nfree
	top := k + m - 1 // the bars lie in [0, top)
	next := top      // the position of bar j+1, or top
	for j := m - 1; j >= 1; j-- {
		p := next - 1
		for binom[p][j] > r {
			p--
		}
		r -= binom[p][j]
		// Free hole j holds the stones between bar j and bar j+1.
		b[c.free[j]] = int8(next - p - 1)
		next = p
	}
	b[c.free[0]] = int8(next)
}
