package tablebase

import (
	"fmt"

	"github.com/toguz/toguz"
)

// MaxStones is the largest number of stones on the board a table of the
// standard game may cover. Each value packs two counts of up to 15 stones
// into a byte, and the generator numbers the positions of a layer in 31
// bits; a table of 12 stones takes about 2.6 GB. MaxStonesOf gives the
// limit of every ruleset.
const MaxStones = 12

// maxLayers bounds the stones of any table: Bestemshe's layer of 30 stones
// has C(39, 9) = 211 million positions, within the 31 bits of a layer's
// index; its values take two bytes each (see Tables.w).
const maxLayers = 30

// nibbleStones is the most stones whose values pack into one byte.
const nibbleStones = 15

// maxRing is the largest ring, both sides of the standard board.
const maxRing = 2 * toguz.MaxHoles

// maxBinom bounds the binomials the index needs: C(n, r) with n < maxBinom.
const maxBinom = maxLayers + maxRing

// binom[n][r] is C(n, r), 0 when r > n. Computed once, never written again.
var binom = func() (c [maxBinom][maxRing]int64) {
	for n := range maxBinom {
		c[n][0] = 1
		for r := 1; r < maxRing && r <= n; r++ {
			c[n][r] = c[n-1][r-1]
			if r <= n-1 {
				c[n][r] += c[n-1][r]
			}
		}
	}
	return c
}()

// A tuzdik configuration, seen from the side to move: my is the ring index
// (holes..2·holes−2, the opponent's holes 1..holes−1) of the mover's
// tuzdik, opp the ring index (0..holes−2) of the opponent's tuzdik on the
// mover's side; -1 for none. The two never have the same hole number
// (docs/rules.md §2.4(c)) and never the last hole.
type tuzdiks struct{ my, opp int8 }

// numConfigs is the number of tuzdik configurations of the standard board:
// none (1), only one side with one (8 + 8), both on different hole numbers
// (8·8 − 8). A board of h holes a side has 1 + (h−1) + (h−1)², one without
// tuzdiks 1.
const numConfigs = 73

// config describes one tuzdik configuration: its tuzdiks and the ring
// indices of the holes that can hold stones (all but the tuzdiks), in ring
// order.
type config struct {
	t     tuzdiks
	nfree int
	free  [maxRing]int8
}

// geometry is what the tables of one ruleset depend on: the board's size,
// whether tuzdiks exist, the stones in play. Every ruleset with origin
// sowing and without play-out has one (see geometryOf).
type geometry struct {
	name   string // the ruleset's name, in file names and headers
	rules  toguz.Rules
	holes  int // holes a side
	ring   int // 2·holes
	total  int // stones in the game
	win    int // the kazan that wins
	limit  int // the most stones on the board a table may cover
	nconf  int
	config [numConfigs]config
	// index maps (myKey(my), opp+1) to the configuration's place in
	// config.
	index [toguz.MaxHoles + 1][toguz.MaxHoles + 1]int8
}

// geometries holds the geometry of every ruleset that has tables, computed
// once and never written again.
var geometries = func() map[toguz.Rules]*geometry {
	m := map[toguz.Rules]*geometry{}
	for _, r := range []struct {
		name  string
		rules toguz.Rules
		limit int
	}{
		{"standard", toguz.Standard(), MaxStones},
		{"bestemshe", toguz.Bestemshe(), maxLayers},
		{"seven", toguz.Seven(), nibbleStones},
	} {
		m[r.rules] = newGeometry(r.name, r.rules, r.limit)
	}
	return m
}()

// standard is the geometry of the standard game.
var standard = geometries[toguz.Standard()]

func newGeometry(name string, r toguz.Rules, limit int) *geometry {
	g := &geometry{name: name, rules: r, holes: r.Holes, ring: 2 * r.Holes,
		total: r.Total(), win: r.WinningScore(), limit: limit}
	h := int8(r.Holes)
	for my := int8(-1); my <= 2*h-2; my++ {
		if my >= 0 && (!r.Tuzdik || my < h) {
			continue
		}
		for opp := int8(-1); opp <= h-2; opp++ {
			if opp >= 0 && !r.Tuzdik || my >= 0 && opp >= 0 && my-h == opp {
				continue
			}
			c := &g.config[g.nconf]
			c.t = tuzdiks{my, opp}
			for i := int8(0); i < 2*h; i++ {
				if i != my && i != opp {
					c.free[c.nfree] = i
					c.nfree++
				}
			}
			g.index[g.myKey(my)][opp+1] = int8(g.nconf)
			g.nconf++
		}
	}
	if want := 1 + (r.Holes-1)*r.Holes; r.Tuzdik && g.nconf != want || !r.Tuzdik && g.nconf != 1 {
		panic(fmt.Sprintf("tablebase: %s: %d tuzdik configurations", name, g.nconf))
	}
	return g
}

// geometryOf returns the geometry of rules, or nil when no tables exist for
// them (the older sowing and play-out are not solved).
func geometryOf(r toguz.Rules) *geometry { return geometries[r] }

// geometryNamed returns the geometry of the ruleset called name, or nil.
func geometryNamed(name string) *geometry {
	for _, g := range geometries {
		if g.name == name {
			return g
		}
	}
	return nil
}

// myKey maps the mover's tuzdik (−1 or holes..2·holes−2) to 0..holes−1.
func (g *geometry) myKey(my int8) int8 {
	if my < 0 {
		return 0
	}
	return my - int8(g.holes) + 1
}

// configOf returns the index of a tuzdik configuration.
func (g *geometry) configOf(t tuzdiks) int { return int(g.index[g.myKey(t.my)][t.opp+1]) }

// blockSize returns the number of boards with k stones over the free holes
// of configuration c: the weak compositions of k into nfree parts,
// C(k+nfree−1, nfree−1).
func (g *geometry) blockSize(k, c int) int64 {
	m := g.config[c].nfree
	return binom[k+m-1][m-1]
}

// layout places every position of a table with up to maxStones stones:
// layer k (k stones on the board) is the blocks of the configurations in
// order, and the layers follow each other from k = 0. Positions are indexed
// with the side to move as White (see frame), so a table has no entries for
// Black to move.
type layout struct {
	g         *geometry
	maxStones int
	// off[k][c] is the index of the first position of configuration c in
	// layer k; off[k][g.nconf] is the end of layer k.
	off [maxLayers + 1][numConfigs + 1]int64
}

func newLayout(g *geometry, maxStones int) *layout {
	l := &layout{g: g, maxStones: maxStones}
	var at int64
	for k := 0; k <= maxStones; k++ {
		for c := range g.nconf {
			l.off[k][c] = at
			at += g.blockSize(k, c)
		}
		l.off[k][g.nconf] = at
	}
	return l
}

// size returns the number of positions in the table.
func (l *layout) size() int64 { return l.end(l.maxStones) }

// start and end return the first index of layer k and the one after it.
func (l *layout) start(k int) int64 { return l.off[k][0] }
func (l *layout) end(k int) int64   { return l.off[k][l.g.nconf] }

// rank returns the index of board b, holding k stones, in its block of
// configuration c. The board is read as stars and bars: the stones of the
// free holes in ring order, with a bar after each free hole but the last;
// the bar positions p₁ < … < p_{m−1} are ranked in the combinatorial number
// system, Σ C(p_j, j). It is a bijection onto [0, blockSize(k, c)).
func rank(b *[maxRing]int8, c *config) int64 {
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
func unrank(b *[maxRing]int8, r int64, k int, c *config) {
	*b = [maxRing]int8{}
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
