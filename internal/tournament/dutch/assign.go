package dutch

import (
	"math"
	"slices"
)

// The remainder's search pairs each S1 player with an S2 player; the
// players of S2 left over float. Every criterion after C7/C8 is a sum over
// those pairs and floaters (C9-C21), so the best any candidate below a node
// can do on them is an assignment problem: the S1 players still to pair
// against the S2 players not used yet, a pair costing its share of the
// quality vector and a floater his. assignBound solves it (the Hungarian
// method, over the vector's components that any pair or floater of the
// exchange touches, packed as digits of one integer), which bounds the node
// exactly on those criteria (but C9, which the leaf sets rather than adds:
// byeBound bounds it) where the counting bounds of C12 and C13 see
// only colours. Big brackets whose rules' answer lies deep in the order of
// transpositions need it (a downfloater decided by C14 behind C12's ties).

// assignInf marks a pair the absolute criteria forbid.
const assignInf = int64(1) << 58

// assignLimit bounds the packed costs, so that sums over a bracket stay
// below assignInf.
const assignLimit = int64(1) << 50

// assignCosts are one exchange's packed costs: pair[i][j] of S1's i-th
// with S2's j-th player, float[j] of S2's j-th floating; comps the
// components of the quality vector packed, the most significant first,
// with their radixes.
type assignCosts struct {
	pair   [][]int64
	float  []int64
	comps  []int
	radix  []int64
	digits []int64 // digits[t] is the weight of comps[t]
}

// buildAssign returns the packed costs of the exchange's S1 and S2, or
// false when they do not fit in an integer.
func (c *bctx) buildAssign(s1, s2 []int) (*assignCosts, bool) {
	e := c.e
	n := len(c.cur)
	pd := make([][][]int, len(s1))
	fd := make([][]int, len(s2))
	save, savePairs := c.cur, c.pairs
	used := make([]int, n) // the largest value of each component
	for i, a := range s1 {
		pd[i] = make([][]int, len(s2))
		for j, b := range s2 {
			if !e.compat[a][b] {
				continue
			}
			c.cur = make([]int, n)
			c.addPair(a, b, 1)
			c.pairs = savePairs
			pd[i][j] = c.cur
			for t, v := range c.cur {
				if v < 0 {
					c.cur = save
					return nil, false
				}
				used[t] = max(used[t], v)
			}
		}
	}
	for j, b := range s2 {
		c.cur = make([]int, n)
		c.addDown(b, 1, c.collapsed)
		fd[j] = c.cur
		for t, v := range c.cur {
			if v < 0 {
				c.cur = save
				return nil, false
			}
			used[t] = max(used[t], v)
		}
	}
	c.cur = save
	ac := &assignCosts{}
	for t, m := range used {
		if m > 0 {
			ac.comps = append(ac.comps, t)
			ac.radix = append(ac.radix, int64(m)*int64(len(s2))+1)
		}
	}
	ac.digits = make([]int64, len(ac.comps))
	w := int64(1)
	for t := len(ac.comps) - 1; t >= 0; t-- {
		ac.digits[t] = w
		if w > assignLimit/ac.radix[t] {
			return nil, false
		}
		w *= ac.radix[t]
	}
	pack := func(v []int) int64 {
		var x int64
		for t, comp := range ac.comps {
			x += int64(v[comp]) * ac.digits[t]
		}
		return x
	}
	ac.pair = make([][]int64, len(s1))
	for i := range s1 {
		ac.pair[i] = make([]int64, len(s2))
		for j := range s2 {
			if pd[i][j] == nil {
				ac.pair[i][j] = assignInf
			} else {
				ac.pair[i][j] = pack(pd[i][j])
			}
		}
	}
	ac.float = make([]int64, len(s2))
	for j := range s2 {
		ac.float[j] = pack(fd[j])
	}
	return ac, true
}

// bound returns the least packed cost of pairing the S1 players from i on
// with the S2 players not used, the rest of them floating; false when the
// absolute criteria leave no such pairing.
func (ac *assignCosts) bound(i int, used []bool) (int64, bool) {
	var cols []int
	var floats int64
	for j, u := range used {
		if !u {
			cols = append(cols, j)
			floats += ac.float[j]
		}
	}
	rows := len(ac.pair) - i
	if rows == 0 {
		return floats, true
	}
	// A column assigned saves its floater's cost: the cost of an
	// assignment is its pairs' less the floaters' of its columns, and the
	// floaters of all the columns are added back.
	cost := func(r, k int) int64 {
		p := ac.pair[i+r][cols[k]]
		if p >= assignInf {
			return assignInf
		}
		return p - ac.float[cols[k]]
	}
	x, ok := hungarian(rows, len(cols), cost)
	if !ok {
		return 0, false
	}
	return x + floats, true
}

// unpack adds the packed cost x to the vector v's components.
func (ac *assignCosts) unpack(x int64, v []int) {
	for t, comp := range ac.comps {
		d := x / ac.digits[t]
		x -= d * ac.digits[t]
		v[comp] += int(d)
	}
}

// hungarian is the least cost of assigning each of n rows a distinct
// column of m >= n (the shortest augmenting path form with potentials,
// O(n²m)); false when every assignment uses a cost of assignInf.
func hungarian(n, m int, cost func(r, k int) int64) (int64, bool) {
	const inf = int64(math.MaxInt64 / 4)
	u := make([]int64, n+1)
	v := make([]int64, m+1)
	p := make([]int, m+1) // p[k]: the row assigned to column k (1-based), 0 none
	way := make([]int, m+1)
	minv := make([]int64, m+1)
	usedC := make([]bool, m+1)
	for r := 1; r <= n; r++ {
		p[0] = r
		k0 := 0
		for k := range minv {
			minv[k] = inf
			usedC[k] = false
		}
		for {
			usedC[k0] = true
			r0, delta, k1 := p[k0], inf, 0
			for k := 1; k <= m; k++ {
				if usedC[k] {
					continue
				}
				cur := cost(r0-1, k-1) - u[r0] - v[k]
				if cur < minv[k] {
					minv[k], way[k] = cur, k0
				}
				if minv[k] < delta {
					delta, k1 = minv[k], k
				}
			}
			for k := 0; k <= m; k++ {
				if usedC[k] {
					u[p[k]] += delta
					v[k] -= delta
				} else {
					minv[k] -= delta
				}
			}
			k0 = k1
			if p[k0] == 0 {
				break
			}
		}
		for k0 != 0 {
			k1 := way[k0]
			p[k0] = p[k1]
			k0 = k1
		}
	}
	var total int64
	for k := 1; k <= m; k++ {
		if p[k] != 0 {
			c := cost(p[k]-1, k-1)
			if c >= assignInf {
				return 0, false
			}
			total += c
		}
	}
	return total, true
}

// assignPruned reports whether the node of the remainder's search at S1's
// i-th player cannot beat the best candidate, bounded by ac on C9-C21.
func (c *bctx) assignPruned(ac *assignCosts, i int, used []bool) bool {
	// The Hungarian method's cost, rows² × columns, out of the round's
	// budget: past it the node is not bounded this way.
	cols := 0
	for _, u := range used {
		if !u {
			cols++
		}
	}
	rows := int64(len(ac.pair) - i)
	work := rows * rows * int64(cols)
	if c.e.assignWork < work {
		return false
	}
	c.e.assignWork -= work
	x, ok := ac.bound(i, used)
	if !ok {
		return true
	}
	v := slices.Clone(c.cur)
	ac.unpack(x, v)
	c.e.st.Assign++
	return c.pruned(v)
}

// assignAfterNodes: a search that has walked this many nodes bounds its
// remainder's nodes by the assignment from then on. Below it the counting
// bounds are cheaper; above it the assignment's cost (O(n³) a node) is
// small beside the nodes it cuts.
const assignAfterNodes = 20_000

// assignWorkBudget bounds, per round, the Hungarian method's work (rows²
// × columns summed, a few nanoseconds each). The brackets whose answer
// lies deep in the order (a bracket of 35 in an event of 150 to 300
// players) need a few million; in a bracket of 500 (round 2 of a
// 1,000-player open) each assignment costs tens of millions and cuts
// little, and unbounded they took a minute.
const assignWorkBudget = 100_000_000
